package toolserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
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

// Job is one command to run: argv as separate elements (never a shell
// line, unless Path is a shell and the definition says so), in Dir.
type Job struct {
	Path  string   // the program, resolved
	Args  []string // its arguments, without argv[0]
	Dir   string   // where it runs
	Stdin string   // what it reads on its standard input ("" : nothing)
	Env   []string // added to the minimal environment (KEY=value)
	// Read are files or folders outside the scope the command may also
	// read (a definition's sandbox_read: git's settings), absolute.
	Read    []string
	Timeout time.Duration
	// Limit caps the output kept (bytes); four times as much is read
	// before the rest is only counted.
	Limit int
	// OnOutput, when set, receives the output as it comes (stdout and
	// stderr merged in order), from the reading goroutine.
	OnOutput func([]byte)
}

// Result is how a Job ended.
type Result struct {
	Output    string // capped, stdout and stderr merged in order
	Dropped   int    // bytes not kept
	Status    string // "exit status 0", "killed after 5s (timeout)", …
	ExitCode  int    // -1 when it did not exit by itself
	Failed    bool
	TimedOut  bool
	Cancelled bool
	NotRun    error // set when it could not start (no sandbox, bad folder)
	Elapsed   time.Duration
}

// Runner runs jobs confined to a scope: it may read the system and the
// scope, and write only the scope (and its own temporary folder), with no
// network, the minimal environment, in its own process group (killed on
// cancel or timeout, children included). Every command Deckhand runs for
// a model goes through [Runner.Run]: the built-in tools and the CMD: route
// alike.
type Runner struct {
	// Policy gives the environment and the sandbox; its workspace is
	// replaced by Scope.
	Policy *policy.Policy
	// Scope is the folder commands may write (absolute). Default: the
	// policy's workspace.
	Scope string
	// NoSandbox runs commands unconfined (still in the minimal environment
	// and their own process group). Only `tools serve --no-sandbox` sets it.
	NoSandbox bool
}

// scopePolicy is the policy with the scope as its workspace.
func (r *Runner) scopePolicy() *policy.Policy {
	p := *r.Policy
	if r.Scope != "" {
		p.Workspace = r.Scope
	}
	return &p
}

// Ready says why commands cannot run here, or nil.
func (r *Runner) Ready() error {
	if r.NoSandbox {
		return nil
	}
	if err := sandbox.Available(); err != nil {
		return fmt.Errorf("%w; commands run only sandboxed", err)
	}
	return nil
}

// command builds the confined command of job.
func (r *Runner) command(ctx context.Context, job Job) (*exec.Cmd, error) {
	if err := r.Ready(); err != nil {
		return nil, err
	}
	pol := r.scopePolicy()
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
	env = append(env, job.Env...)
	path := job.Path
	if p, err := exec.LookPath(path); err == nil {
		path = p
	}
	var spec *sandbox.Spec
	if !r.NoSandbox {
		spec = pol.CommandSpec(path)
		spec.Read = append(spec.Read, job.Read...)
	}
	cmd, err := sandbox.Command(path, job.Args, env, spec)
	if err != nil {
		return nil, err
	}
	plain := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	plain.Env, plain.Dir = cmd.Env, job.Dir
	if plain.Dir == "" {
		plain.Dir = pol.Workspace
	}
	return plain, nil
}

// Run runs job and waits for it; ctx's end kills it (and everything it
// started).
func (r *Runner) Run(ctx context.Context, job Job) Result {
	if job.Timeout <= 0 {
		job.Timeout = config.DefaultToolTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, job.Timeout)
	defer cancel()
	start := time.Now()
	cmd, err := r.command(ctx, job)
	if err != nil {
		return Result{NotRun: err, Failed: true, ExitCode: -1, Status: "not run: " + err.Error()}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	if job.Stdin != "" {
		cmd.Stdin = strings.NewReader(job.Stdin)
	}
	out := &cappedBuffer{limit: 4 * max(job.Limit, 1024), onWrite: job.OnOutput}
	// One writer for both: exec gives the child one pipe, so the order of
	// stdout and stderr is kept.
	cmd.Stdout, cmd.Stderr = out, out
	err = cmd.Run()
	res := Result{Output: tools.Cap(out.String(), max(job.Limit, 1)), Dropped: out.Dropped(), ExitCode: -1, Elapsed: time.Since(start)}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		res.Status, res.ExitCode = "exit status 0", 0
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.Status, res.Failed, res.TimedOut = fmt.Sprintf("killed after %v (timeout)", job.Timeout), true, true
	case ctx.Err() != nil:
		res.Status, res.Failed, res.Cancelled = "killed: cancelled", true, true
	case errors.As(err, &exitErr):
		res.Status, res.Failed, res.ExitCode = exitErr.ProcessState.String(), true, exitErr.ExitCode()
	default:
		res.Status, res.Failed = err.Error(), true
	}
	return res
}

// ShellJob is `program -c command` as a job: the one way a shell runs, for
// the CMD: route and the built-in shell tool.
func ShellJob(program, command string, timeout time.Duration, limit int) Job {
	return Job{Path: program, Args: []string{"-c", command}, Timeout: timeout, Limit: limit}
}

// RunShell runs one approved shell command of the CMD: route in the
// policy's workspace, confined, and gives the text the model gets: the
// command, its output capped at limit bytes, and how it ended.
func RunShell(ctx context.Context, pol *policy.Policy, program, command string, timeout time.Duration, limit int) (text string, failed bool) {
	r := &Runner{Policy: pol}
	res := r.Run(ctx, ShellJob(program, command, timeout, limit))
	if res.NotRun != nil {
		return fmt.Sprintf("$ %s\n[not run: %v]", command, res.NotRun), true
	}
	return fmt.Sprintf("$ %s\n%s\n[%s, %v]", command, strings.TrimRight(res.Text(), "\n"), res.Status, res.Elapsed.Round(time.Millisecond)), res.Failed
}

// Text is the output with a note of what was not kept.
func (r Result) Text() string {
	if r.Dropped > 0 {
		return r.Output + fmt.Sprintf("\n[… %s more output not kept …]", tools.Size(r.Dropped))
	}
	return r.Output
}

// cappedBuffer keeps the first limit bytes and counts the rest, so a command
// that prints forever cannot fill memory.
type cappedBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	limit   int
	dropped int
	onWrite func([]byte)
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.onWrite != nil {
		c.onWrite(p)
	}
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

func (c *cappedBuffer) Dropped() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropped
}

var _ io.Writer = (*cappedBuffer)(nil)
