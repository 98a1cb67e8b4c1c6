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

// Cmd is a program to start under sandbox-exec, or plain.
type Cmd struct {
	*exec.Cmd
	OnConnect func(target string, allowed bool, rule string)
	Port      func(host string, port int) bool // unused here: no proxy
	Program   *os.File                         // unused here: the program runs by its path
}

// Wait waits for the program.
func (c *Cmd) Wait() error { return c.Cmd.Wait() }

// BuildFailure is nil: nothing here builds a sandbox before the program
// runs.
func (c *Cmd) BuildFailure() error { return nil }

// Close does nothing: hosts are not proxied on macOS yet.
func (c *Cmd) Close() {}

// Command runs path with args under sandbox-exec with the profile of spec
// (or plainly without one).
func Command(path string, args, env []string, spec *Spec) (*Cmd, error) {
	if spec == nil {
		cmd := exec.Command(path, args...)
		cmd.Env = env
		return &Cmd{Cmd: cmd}, nil
	}
	if err := Available(); err != nil {
		return nil, err
	}
	if err := spec.Check(); err != nil {
		return nil, err
	}
	if len(spec.Hosts) > 0 || len(spec.Sockets) > 0 {
		return nil, fmt.Errorf("%w: network hosts and granted sockets are Linux-only for now", ErrUnavailable)
	}
	cmd := exec.Command(sandboxExec, append([]string{"-p", Profile(spec), path}, args...)...)
	cmd.Env = env
	return &Cmd{Cmd: cmd}, nil
}

// Summarize says what sandbox-exec gives (no namespaces).
func Summarize(spec *Spec) Summary { return Summary{Network: spec.NetworkMode(), Hosts: spec.Hosts} }

// Nested is false where Deckhand has no sandbox of its own to nest.
func Nested() (string, bool) { return "", false }
