//go:build darwin

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
)

// sandboxExec is macOS's sandbox launcher (deprecated by Apple, still
// shipped and used by other agents' sandboxes).
const sandboxExec = "/usr/bin/sandbox-exec"

// ABI is 0: Landlock is Linux's.
func ABI() int { return 0 }

// Available says whether sandbox-exec is there. Not tested on a Mac yet.
func Available() error {
	if _, err := os.Stat(sandboxExec); err != nil {
		return fmt.Errorf("%w (%s is missing)", ErrUnavailable, sandboxExec)
	}
	return nil
}

func (s *Spec) apply() error { return Available() }

// Command runs path with args under sandbox-exec with the profile of spec
// (or plainly without one).
func Command(path string, args, env []string, spec *Spec) (*exec.Cmd, error) {
	if spec == nil {
		cmd := exec.Command(path, args...)
		cmd.Env = env
		return cmd, nil
	}
	if err := Available(); err != nil {
		return nil, err
	}
	if err := spec.Check(); err != nil {
		return nil, err
	}
	cmd := exec.Command(sandboxExec, append([]string{"-p", Profile(spec), path}, args...)...)
	cmd.Env = env
	return cmd, nil
}
