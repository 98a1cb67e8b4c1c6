//go:build !linux && !darwin

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
)

// ABI is 0: Landlock is Linux's.
func ABI() int { return 0 }

// Available says that programs cannot be confined on this system.
func Available() error {
	return fmt.Errorf("%w (%s: Deckhand confines programs on Linux, with namespaces and Landlock, and on macOS)", ErrUnavailable, runtime.GOOS)
}

// Cmd is a program to start, plain.
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

// Close does nothing: there is no proxy here.
func (c *Cmd) Close() {}

// Command runs path plainly when it need not be confined.
func Command(path string, args, env []string, spec *Spec) (*Cmd, error) {
	if spec != nil {
		return nil, Available()
	}
	cmd := exec.Command(path, args...)
	cmd.Env = env
	return &Cmd{Cmd: cmd}, nil
}

// Summarize says that nothing confines programs here.
func Summarize(spec *Spec) Summary { return Summary{Network: spec.NetworkMode(), Hosts: spec.Hosts} }

// Nested is false where Deckhand has no sandbox of its own to nest.
func Nested() (string, bool) { return "", false }
