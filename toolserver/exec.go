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

	lru "github.com/hashicorp/golang-lru/v2"
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
	// Policy, when set, is this job's policy instead of the Runner's
	// (the CMD: route follows the settings as they change).
	Policy *policy.Policy
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
// network, no socket of the session, the minimal environment, in a PID
// namespace of its own (killed on cancel or timeout, everything it started
// included). Every command Deckhand runs for a model goes through
// [Runner.Run]: the built-in tools and the CMD: route alike. Its sandboxes
// stay between commands (one per distinct set of folders, a few at most,
// each ending after half a minute idle): a confined command costs about
// what a plain one does. Close ends them.
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

	once  sync.Once
	mu    sync.Mutex
	boxes *lru.Cache[string, *sandbox.Runner]
}

// scopePolicy is the policy (pol, or the Runner's) with the scope as its
// workspace.
func (r *Runner) scopePolicy(pol *policy.Policy) *policy.Policy {
	if pol == nil {
		pol = r.Policy
	}
	p := *pol
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

// box is the sandbox for spec, made on first use.
func (r *Runner) box(spec *sandbox.Spec) *sandbox.Runner {
	r.once.Do(func() {
		r.boxes, _ = lru.NewWithEvict(4, func(_ string, b *sandbox.Runner) { go b.Close() })
	})
	key := fmt.Sprint(spec.Read, spec.Write, spec.Hide)
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, ok := r.boxes.Get(key); ok {
		return b
	}
	b := sandbox.NewRunner(spec)
	r.boxes.Add(key, b)
	return b
}

// Close ends the sandboxes and whatever still runs in them.
func (r *Runner) Close() {
	r.mu.Lock()
	boxes := r.boxes
	r.mu.Unlock()
	if boxes != nil {
		boxes.Purge()
	}
}

// prepared is a job ready to start: its program resolved, its
// environment and folder, and the sandbox it runs in (nil: plainly).
type prepared struct {
	path string
	args []string
	env  []string
	dir  string
	box  *sandbox.Runner
}

func (r *Runner) prepare(ctx context.Context, job Job) (*prepared, error) {
	if err := r.Ready(); err != nil {
		return nil, err
	}
	pol := r.scopePolicy(job.Policy)
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
	p := &prepared{path: job.Path, args: job.Args, env: append(env, job.Env...), dir: job.Dir}
	if lp, err := exec.LookPath(p.path); err == nil {
		p.path = lp
	}
	if p.dir == "" {
		p.dir = pol.Workspace
	}
	if isGit(p.path) {
		p.args = hardenGit(ctx, p.path, p.dir, p.args)
		p.env = append(p.env, gitEnv...)
	}
	if !r.NoSandbox {
		spec := pol.CommandSpec(p.path)
		spec.Read = append(spec.Read, job.Read...)
		p.box = r.box(spec)
	}
	return p, nil
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
	p, err := r.prepare(ctx, job)
	if err != nil {
		return Result{NotRun: err, Failed: true, ExitCode: -1, Status: "not run: " + err.Error()}
	}
	out := &cappedBuffer{limit: 4 * max(job.Limit, 1024), onWrite: job.OnOutput}
	var status syscall.WaitStatus
	if p.box != nil {
		status, err = r.runConfined(ctx, p, job, out)
	} else {
		status, err = runPlain(ctx, p, job, out)
	}
	res := Result{Output: tools.Cap(out.String(), max(job.Limit, 1)), Dropped: out.Dropped(), ExitCode: -1, Elapsed: time.Since(start)}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.Status, res.Failed, res.TimedOut = fmt.Sprintf("killed after %v (timeout)", job.Timeout), true, true
	case ctx.Err() != nil:
		res.Status, res.Failed, res.Cancelled = "killed: cancelled", true, true
	case err != nil:
		res.NotRun, res.Status, res.Failed = err, "not run: "+err.Error(), true
	case status.Exited() && status.ExitStatus() == 0:
		res.Status, res.ExitCode = "exit status 0", 0
	case status.Exited():
		res.Status, res.Failed, res.ExitCode = fmt.Sprintf("exit status %d", status.ExitStatus()), true, status.ExitStatus()
	case status.Signaled():
		res.Status, res.Failed = "signal: "+status.Signal().String(), true
	default:
		res.Status, res.Failed = fmt.Sprint(status), true
	}
	return res
}

// runConfined runs the job in its sandbox, its output (stdout and stderr
// on one pipe, so their order is kept) read into out until every process
// that held the pipe is gone.
func (r *Runner) runConfined(ctx context.Context, p *prepared, job Job, out *cappedBuffer) (syscall.WaitStatus, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	var stdin *os.File
	if job.Stdin != "" {
		ir, iw, err := os.Pipe()
		if err != nil {
			pr.Close()
			pw.Close()
			return 0, err
		}
		stdin = ir
		go func() { io.WriteString(iw, job.Stdin); iw.Close() }()
		defer ir.Close()
	}
	copied := make(chan struct{})
	go func() { io.Copy(out, pr); pr.Close(); close(copied) }()
	status, err := p.box.Run(ctx, sandbox.Job{Path: p.path, Args: p.args, Env: p.env, Dir: p.dir, Stdin: stdin, Stdout: pw, Stderr: pw})
	pw.Close()
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
		pr.Close() // the command's PID namespace is gone; nothing should hold the pipe
	}
	return status, err
}

// runPlain runs the job unconfined (tools serve --no-sandbox), in a
// session of its own, killed with its process group.
func runPlain(ctx context.Context, p *prepared, job Job, out *cappedBuffer) (syscall.WaitStatus, error) {
	cmd := exec.CommandContext(ctx, p.path, p.args...)
	cmd.Env, cmd.Dir = p.env, p.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	if job.Stdin != "" {
		cmd.Stdin = strings.NewReader(job.Stdin)
	}
	cmd.Stdout, cmd.Stderr = out, out
	err := cmd.Run()
	if cmd.ProcessState != nil {
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
			return ws, nil
		}
	}
	return 0, err
}

// ShellJob is `program -c command` as a job: the one way a shell runs, for
// the CMD: route and the built-in shell tool.
func ShellJob(program, command string, timeout time.Duration, limit int) Job {
	return Job{Path: program, Args: []string{"-c", command}, Timeout: timeout, Limit: limit}
}

// Shell runs one approved shell command of the CMD: route in the
// policy's workspace, confined, and gives the text the model gets: the
// command, its output capped at limit bytes, and how it ended.
func (r *Runner) Shell(ctx context.Context, pol *policy.Policy, program, command string, timeout time.Duration, limit int) (text string, failed bool) {
	job := ShellJob(program, command, timeout, limit)
	job.Policy = pol
	res := r.Run(ctx, job)
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
