//go:build !linux && !darwin

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
)

// ABI is 0: Landlock is Linux's.
func ABI() int { return 0 }

// Available says that programs cannot be confined on this system.
func Available() error {
	return fmt.Errorf("%w (%s: Deckhand confines programs on Linux, with Landlock, and on macOS)", ErrUnavailable, runtime.GOOS)
}

func (s *Spec) apply() error { return Available() }

// Command runs path plainly when it need not be confined.
func Command(path string, args, env []string, spec *Spec) (*exec.Cmd, error) {
	if spec != nil {
		return nil, Available()
	}
	cmd := exec.Command(path, args...)
	cmd.Env = env
	return cmd, nil
}
