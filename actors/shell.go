package actors

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"deckhand/config"
	"deckhand/policy"
	"deckhand/sandbox"
	"deckhand/tools"
)

// runCommand runs one approved shell command: `program -c command`, stdin
// empty, stdout and stderr together, in its own process group (killed on
// cancel or timeout, children included), in the workspace, confined by the
// sandbox (the system to read, the workspace to write, no network), with
// the minimal environment. The result is the text the model gets: the
// command, its output capped at limit bytes, and how it ended.
func runCommand(ctx context.Context, pol *policy.Policy, program, command string, timeout time.Duration, limit int) (text string, failed bool) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd, err := confinedCommand(ctx, pol, program, command)
	if err != nil {
		return fmt.Sprintf("$ %s\n[not run: %v]", command, err), true
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var out cappedBuffer
	out.limit = 4 * max(limit, 1024)
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	output := tools.Cap(out.String(), limit)
	var status string
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		status = "exit status 0"
	case ctx.Err() == context.DeadlineExceeded:
		status, failed = fmt.Sprintf("killed after %v (timeout)", timeout), true
	case ctx.Err() != nil:
		status, failed = "killed: cancelled", true
	case errors.As(err, &exitErr):
		status, failed = exitErr.ProcessState.String(), true
	default:
		status, failed = err.Error(), true
	}
	if out.dropped > 0 {
		output += fmt.Sprintf("\n[… %s more output not kept …]", tools.Size(out.dropped))
	}
	return fmt.Sprintf("$ %s\n%s\n[%s, %v]", command, strings.TrimRight(output, "\n"), status, time.Since(start).Round(time.Millisecond)), failed
}

// cappedBuffer keeps the first limit bytes and counts the rest, so a command
// that prints forever cannot fill memory.
type cappedBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	limit   int
	dropped int
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.limit - c.buf.Len()
	if room >= len(p) {
		return c.buf.Write(p)
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	c.dropped += len(p) - max(room, 0)
	return len(p), nil
}

func (c *cappedBuffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// confinedCommand is `program -c command` under the sandbox helper, in the
// workspace, with the minimal environment.
func confinedCommand(ctx context.Context, pol *policy.Policy, program, command string) (*exec.Cmd, error) {
	if err := sandbox.Available(); err != nil {
		return nil, fmt.Errorf("%w; shell commands run only sandboxed", err)
	}
	if err := pol.EnsureWorkspace(); err != nil {
		return nil, err
	}
	tmp := filepath.Join(pol.StateDir("local"), "tmp")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return nil, err
	}
	env, err := pol.Env("", config.Server{}, "", tmp)
	if err != nil {
		return nil, err
	}
	path := program
	if p, err := exec.LookPath(program); err == nil {
		path = p
	}
	cmd, err := sandbox.Command(path, []string{"-c", command}, env, pol.CommandSpec(path))
	if err != nil {
		return nil, err
	}
	plain := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	plain.Env, plain.Dir = cmd.Env, pol.Workspace
	return plain, nil
}
