package toolserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/policy"
	"deckhand/sandbox"
	"deckhand/tools"
)

// Options configure [New].
type Options struct {
	// Dir holds a person's definitions (*.json), which add to and replace
	// the built-in ones; "" : the built-in ones only.
	Dir string
	// Scope is the folder commands may read and write (the sandbox scope);
	// it must exist. Default: the policy's workspace (created if missing).
	Scope string
	// Policy gives the minimal environment and the sandbox; nil : the
	// default policy.
	Policy *policy.Policy
	// NoSandbox runs commands unconfined: only for a person who asked
	// (`tools serve --no-sandbox`), and logged loudly.
	NoSandbox bool
	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
	// Version is sent in the handshake.
	Version string
	// InlineWait is how long a call that is not synchronous waits for its
	// command before answering with an operation id. Default 2 s.
	InlineWait time.Duration
	// OutputLimit caps a command's output in a result. Default 256 KiB.
	OutputLimit int
	// Sync makes every call wait for its command however long it takes
	// (up to its timeout), whatever the definitions and execution_mode
	// say: `tools serve --sync`, for clients that cannot await.
	Sync bool
	// Echo, when set, receives the HTTP server's traffic for debugging
	// (`tools serve --http --echo`): each message in and out,
	// pretty-printed after "→ STDIN:" or "← STDOUT:" (echo.go); EchoColor
	// colours the prefixes.
	Echo      io.Writer
	EchoColor bool
	// NoBuiltin leaves the built-in definitions out (tests).
	NoBuiltin bool
	// Shell, when set, says whether the tools that run the model's own
	// scripts (definitions with "shell": true, such as the built-in shell)
	// are offered: Deckhand's own server follows policy.allow_exec, so
	// that without it the model is not offered a shell at all (Refresh
	// after it changes). Nil: offered.
	Shell func() bool
}

// Server is the built-in tools server: the definitions' tools on an MCP
// server, with await, status and cancel for operations.
type Server struct {
	MCP *sdk.Server

	opts   Options
	runner *Runner
	ops    *operations
	log    *slog.Logger
	stop   context.CancelFunc

	mu          sync.Mutex
	builtin     []*File
	builtinBad  []Problem
	user        map[string]*File      // the last good version of each file, by path
	broken      map[string][]Problem  // why a file's current version is not used
	live        map[string]*liveTool  // registered tools, by name
	unavailable map[string]notOffered // tools not offered, and why
	assembled   []Problem             // the catalog's own (a definition replacing another wrongly)
	checks      map[string]string     // availability checks run: command line -> why it failed ("" : fine)
	watchers    []func(Event)
}

type liveTool struct {
	t   *Tool // what runs (the fallback, when it stood in)
	sig string
}

// Event says what a reload changed (for tests and logs).
type Event struct {
	Added, Removed, Changed []string
	Problems                []Problem
}

// New loads the definitions and makes the server. It refuses to start
// without a kernel sandbox unless opts.NoSandbox.
func New(opts Options) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Policy == nil {
		opts.Policy = policy.New(&config.Config{}, nil)
	}
	if opts.InlineWait <= 0 {
		opts.InlineWait = 2 * time.Second
	}
	if opts.OutputLimit <= 0 {
		opts.OutputLimit = config.DefaultMaxOutputBytes
	}
	if opts.Scope == "" {
		if err := opts.Policy.EnsureWorkspace(); err != nil {
			return nil, err
		}
		opts.Scope = opts.Policy.Workspace
	}
	scope, err := filepath.Abs(config.ExpandPath(opts.Scope))
	if err != nil {
		return nil, err
	}
	if scope, err = filepath.EvalSymlinks(scope); err != nil {
		return nil, fmt.Errorf("the sandbox scope: %w", err)
	}
	if st, err := os.Stat(scope); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("the sandbox scope %s is not a folder", scope)
	}
	if scope == "/" {
		return nil, errors.New("the sandbox scope cannot be the whole file system")
	}
	opts.Scope = scope
	runner := &Runner{Policy: opts.Policy, Scope: scope, NoSandbox: opts.NoSandbox}
	if err := runner.Ready(); err != nil {
		if errors.Is(err, sandbox.ErrNested) {
			return nil, fmt.Errorf("%w.\nThe tools server confines every command in a sandbox of its own, and cannot build one inside another. "+
				"If the outer sandbox confines this server as you want (Deckhand's own does: the server's roots, no network unless given), "+
				"run it with --no-sandbox, or set DECKHAND_NO_SANDBOX=1: its commands are then confined by the outer sandbox only", err)
		}
		return nil, fmt.Errorf("%w.\nThe tools server runs every command confined by the kernel (Landlock), so that a model's "+
			"command cannot read or change files outside %s. Landlock needs Linux 5.13 or later with \"landlock\" in the "+
			"kernel's lsm= list (check: cat /sys/kernel/security/lsm; on most distributions add lsm=landlock,... to the "+
			"kernel command line, or upgrade the kernel). To run without it at your own risk: --no-sandbox", err, scope)
	}
	if opts.NoSandbox {
		log.Warn("THE TOOLS SERVER RUNS COMMANDS WITHOUT A SANDBOX (--no-sandbox): a command can read and change any of your files", "scope", scope)
	}
	base, stop := context.WithCancel(context.Background())
	s := &Server{opts: opts, runner: runner, ops: newOperations(base), log: log, stop: stop,
		user: map[string]*File{}, broken: map[string][]Problem{}, live: map[string]*liveTool{},
		unavailable: map[string]notOffered{}, checks: map[string]string{}}
	s.MCP = sdk.NewServer(&sdk.Implementation{Name: "deckhand-tools", Title: "Deckhand's built-in tools", Version: opts.Version},
		&sdk.ServerOptions{Logger: log, Instructions: instructions(scope)})
	if !opts.NoBuiltin {
		s.builtin, s.builtinBad = Builtin()
		for _, p := range s.builtinBad {
			log.Error("a built-in tool definition is broken", "problem", p.String())
		}
	}
	if opts.Dir != "" {
		files, problems := ReadDir(opts.Dir)
		for _, f := range files {
			s.user[f.Path] = f
		}
		for _, p := range problems {
			s.broken[p.File] = append(s.broken[p.File], p)
			log.Warn("tool definition rejected", "file", p.File, "path", p.Path, "reason", p.Reason)
		}
	}
	s.addOperationTools()
	s.apply()
	return s, nil
}

func instructions(scope string) string {
	return "Command-line tools, each run sandboxed in " + scope + " (it can read the system and that folder, write only " +
		"that folder, with no network). A call that takes more than a couple of seconds returns an operation id: carry on, " +
		"then call await with it for the result (status lists operations, cancel stops one)."
}

// Scope is the sandbox scope (absolute, symbolic links resolved).
func (s *Server) Scope() string { return s.opts.Scope }

// Close cancels every operation and stops watching.
func (s *Server) Close() {
	s.ops.cancelAll()
	s.stop()
}

// Problems are the reasons definition files are rejected now.
func (s *Server) Problems() []Problem {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.builtinBad)
	for _, k := range sortedKeys(s.broken) {
		out = append(out, s.broken[k]...)
	}
	return out
}

// Listed is one tool as `deckhand tools list` shows it.
type Listed struct {
	Name        string               `json:"name"`
	Description string               `json:"description"`
	File        string               `json:"file"`
	Command     string               `json:"command,omitempty"`
	Synchronous bool                 `json:"synchronous"`
	Available   bool                 `json:"available"`
	Why         string               `json:"why_unavailable,omitempty"`
	Annotations *sdk.ToolAnnotations `json:"annotations,omitempty"`
	InputSchema any                  `json:"inputSchema,omitempty"`
}

// List is every tool of the definitions, offered or not.
func (s *Server) List() []Listed {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Listed
	for _, name := range sortedKeys(s.live) {
		lt := s.live[name]
		def := s.sdkTool(lt.t)
		out = append(out, Listed{Name: name, Description: def.Description, File: lt.t.File, Command: lt.t.Command,
			Synchronous: lt.t.Sync || s.opts.Sync, Available: true, Annotations: def.Annotations, InputSchema: def.InputSchema})
	}
	for _, name := range sortedKeys(s.unavailable) {
		out = append(out, Listed{Name: name, File: s.unavailable[name].file, Why: s.unavailable[name].why})
	}
	slices.SortFunc(out, func(a, b Listed) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// OnReload calls f after each reload.
func (s *Server) OnReload(f func(Event)) {
	s.mu.Lock()
	s.watchers = append(s.watchers, f)
	s.mu.Unlock()
}

// apply registers the tools of the current definitions: adds new and
// changed ones, removes those gone (each change sends
// notifications/tools/list_changed, which the SDK debounces).
func (s *Server) apply() Event {
	s.mu.Lock()
	var user []*File
	for _, f := range s.user {
		user = append(user, f)
	}
	cat := Assemble(s.builtin, user)
	for _, r := range cat.Replaced {
		s.log.Info("a built-in tool definition is replaced", "replaced", r)
	}
	for _, p := range cat.Problems {
		s.log.Warn("tool definition rejected", "file", p.File, "path", p.Path, "reason", p.Reason)
	}
	want := map[string]*Tool{}
	unavailable := map[string]notOffered{}
	s.checks = map[string]string{} // a reload checks again: something may have been installed
	for _, t := range cat.Tools {
		run, why := s.available(t)
		if run == nil {
			unavailable[t.Name] = notOffered{file: t.File, why: why, off: why == shellOff}
			continue
		}
		want[t.Name] = run
	}
	var ev Event
	ev.Problems = cat.Problems
	var remove []string
	type add struct {
		def *sdk.Tool
		h   sdk.ToolHandler
	}
	var adds []add
	for name := range s.live {
		if _, ok := want[name]; !ok {
			remove = append(remove, name)
			ev.Removed = append(ev.Removed, name)
		}
	}
	for _, name := range sortedKeys(want) {
		t := want[name]
		def := s.sdkTool(t)
		sig := signature(def, t)
		if prev, ok := s.live[name]; ok && prev.sig == sig {
			continue
		} else if ok {
			ev.Changed = append(ev.Changed, name)
		} else {
			ev.Added = append(ev.Added, name)
		}
		s.live[name] = &liveTool{t: t, sig: sig}
		adds = append(adds, add{def, s.handler(name)})
	}
	for _, name := range remove {
		delete(s.live, name)
	}
	s.unavailable = unavailable
	s.assembled = cat.Problems
	watchers := slices.Clone(s.watchers)
	s.mu.Unlock()
	if len(remove) > 0 {
		s.MCP.RemoveTools(remove...)
	}
	for _, a := range adds {
		s.MCP.AddTool(a.def, a.h)
	}
	for name, no := range unavailable {
		s.log.Info("tool not offered", "tool", name, "why", no.why)
	}
	for _, f := range watchers {
		f(ev)
	}
	return ev
}

// Refresh offers the definitions' tools again, as a change of a file
// does: after what Options.Shell says has changed.
func (s *Server) Refresh() { s.apply() }

// available is the tool that runs for t (t or its fallback), or nil and
// why none can.
func (s *Server) available(t *Tool) (*Tool, string) {
	var whys []string
	for c := t; c != nil; c = c.Fallback {
		why := s.check(c)
		if why == "" {
			if c != t {
				// The fallback stands in under the tool's name and schema.
				fb := *c
				fb.Schema, fb.resolved, fb.Name = t.Schema, t.resolved, t.Name
				if fb.Description == "" {
					fb.Description = t.Description
				}
				return &fb, ""
			}
			return c, ""
		}
		if !slices.Contains(whys, why) { // a shell fallback is off for the same reason
			whys = append(whys, why)
		}
	}
	why := strings.Join(whys, "; ")
	if t.Install != "" {
		why += ". " + t.Install
	}
	return nil, why
}

// shellOff is why a tool that runs the model's scripts is not offered: the
// person's settings, not a mistake.
const shellOff = "it runs the model's scripts, and shell commands are off (policy.allow_exec is false, or shell.disabled is set)"

// check says why t cannot run here, or "".
func (s *Server) check(t *Tool) string {
	if t.Shell && s.opts.Shell != nil && !s.opts.Shell() {
		return shellOff
	}
	if len(t.Sequence) > 0 {
		return ""
	}
	if _, err := exec.LookPath(t.Command); err != nil {
		return fmt.Sprintf("%s is not installed (not found in PATH)", t.Command)
	}
	if t.Check == nil {
		return ""
	}
	key := displayCommand(t.Check.Command, t.Check.Args)
	if why, ok := s.checks[key]; ok {
		return why
	}
	res := s.runner.Run(context.Background(), Job{Path: t.Check.Command, Args: t.Check.Args, Dir: s.opts.Scope, Timeout: 10 * time.Second, Limit: 2048})
	why := ""
	if res.Failed {
		why = fmt.Sprintf("the availability check `%s` failed (%s): %s", key, res.Status, strings.TrimSpace(res.Output))
	}
	s.checks[key] = why
	return why
}

// asyncNote is added to the description of a tool that is not synchronous.
const asyncNote = " If it is still running after a couple of seconds, the result is an operation id instead: carry on with other work, then call await with that operation_id for the result (status shows its output so far, cancel stops it)."

func (s *Server) sdkTool(t *Tool) *sdk.Tool {
	desc := t.Description
	if !t.Sync && !s.opts.Sync && !strings.Contains(desc, "operation id") {
		desc += asyncNote
	}
	a := t.Annotations
	ann := &sdk.ToolAnnotations{Title: t.Title, DestructiveHint: a.Destructive, OpenWorldHint: a.OpenWorld}
	if a.ReadOnly != nil {
		ann.ReadOnlyHint = *a.ReadOnly
	}
	if a.Idempotent != nil {
		ann.IdempotentHint = *a.Idempotent
	}
	if ann.OpenWorldHint == nil {
		ann.OpenWorldHint = new(bool) // no network in the sandbox
	}
	if ann.DestructiveHint == nil && !ann.ReadOnlyHint {
		ann.DestructiveHint = jsonschema.Ptr(true) // the spec's default, said out loud
	}
	return &sdk.Tool{Name: t.Name, Title: t.Title, Description: desc, InputSchema: t.Schema, Annotations: ann}
}

func signature(def *sdk.Tool, t *Tool) string {
	data, _ := json.Marshal(struct {
		Def               *sdk.Tool
		Cmd               string
		Args, Env, Read   []string
		Opts, Pos         []Param
		Seq               []Step
		Sync, Shell, Dash bool
		Timeout, Delay    time.Duration
	}{def, t.Command, t.Args, t.Env, t.SandboxRead, t.Options, t.Positional, t.Sequence, t.Sync, t.Shell, t.EndOfOpts, t.Timeout, t.StepDelay})
	return string(data)
}

// lookup is the registered tool name's definition.
func (s *Server) lookup(name string) *Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if lt, ok := s.live[name]; ok {
		return lt.t
	}
	return nil
}

func errorResult(format string, args ...any) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

func textResult(text string, failed bool) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: failed, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// handler runs the tool registered as name (looked up at each call, so
// that a reload's new version is the one that runs).
func (s *Server) handler(name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		t := s.lookup(name)
		if t == nil {
			return errorResult("the tool %s was just removed", name), nil
		}
		args, err := t.callArgs(req.Params.Arguments)
		if err != nil {
			return errorResult("%s: %v", name, err), nil
		}
		run, display, err := s.plan(t, args)
		if err != nil {
			return errorResult("%s: %v", name, err), nil
		}
		op, err := s.ops.start(name, display, req.Session, run)
		if err != nil {
			return errorResult("%v", err), nil
		}
		switch mode, _ := args[MetaMode].(string); {
		case s.opts.Sync || mode == ModeSync:
			return s.wait(ctx, req, op, true, 0), nil
		case mode == ModeAsync:
			return s.started(req, op, "started"), nil
		}
		return s.wait(ctx, req, op, t.Sync, 0), nil
	}
}

// plan turns a checked call into what the operation runs.
func (s *Server) plan(t *Tool, args map[string]any) (func(context.Context, func([]byte)) Result, string, error) {
	if len(t.Sequence) == 0 {
		call, err := t.prepare(args, s.opts.Scope, s.opts.OutputLimit)
		if err != nil {
			return nil, "", err
		}
		return func(ctx context.Context, out func([]byte)) Result {
			job := call.Job
			job.OnOutput = out
			return s.runner.Run(ctx, job)
		}, call.Display, nil
	}
	var calls []*Call
	var names []string
	for i, st := range t.Sequence {
		target := s.lookup(st.Tool)
		if target == nil || len(target.Sequence) > 0 {
			return nil, "", fmt.Errorf("step %d: the tool %s is not offered here", i+1, st.Tool)
		}
		stepArgs := map[string]any{}
		for k, v := range st.Args {
			stepArgs[k] = v
		}
		for _, meta := range []string{MetaDir, MetaTimeout} {
			if v, ok := args[meta]; ok {
				if _, set := stepArgs[meta]; !set {
					stepArgs[meta] = v
				}
			}
		}
		raw, _ := json.Marshal(stepArgs)
		checked, err := target.callArgs(raw)
		if err != nil {
			return nil, "", fmt.Errorf("step %d (%s): %v", i+1, st.Tool, err)
		}
		call, err := target.prepare(checked, s.opts.Scope, s.opts.OutputLimit)
		if err != nil {
			return nil, "", fmt.Errorf("step %d (%s): %v", i+1, st.Tool, err)
		}
		calls = append(calls, call)
		names = append(names, call.Display)
	}
	delay := t.StepDelay
	return func(ctx context.Context, out func([]byte)) Result {
		var all strings.Builder
		var last Result
		start := time.Now()
		for i, call := range calls {
			if i > 0 && delay > 0 {
				// MTDF's step_delay_ms: a pause between steps (a build
				// tool releasing its lock); cancelling ends it.
				select {
				case <-time.After(delay):
				case <-ctx.Done():
				}
			}
			header := fmt.Sprintf("$ %s\n", call.Display)
			if i > 0 {
				header = "\n" + header
			}
			all.WriteString(header)
			out([]byte(header))
			job := call.Job
			job.OnOutput = out
			last = s.runner.Run(ctx, job)
			all.WriteString(last.Text())
			if last.Failed {
				fmt.Fprintf(&all, "\n[step %d of %d failed: %s; the rest did not run]", i+1, len(calls), last.Status)
				break
			}
		}
		last.Output, last.Dropped = tools.Cap(all.String(), s.opts.OutputLimit), 0
		last.Elapsed = time.Since(start)
		return last
	}, strings.Join(names, " && "), nil
}

// wait answers a call of op: its result when it ends (a synchronous tool,
// or one that ends within the inline wait, or within limit for await), else
// that it runs on. The output goes out as progress while the request is
// open, when the client sent a progress token; never after the response.
func (s *Server) wait(ctx context.Context, req *sdk.CallToolRequest, op *operation, sync bool, limit time.Duration) *sdk.CallToolResult {
	if token := req.Params.GetProgressToken(); token != nil && req.Session != nil {
		stop := s.progress(ctx, req.Session, token, op)
		defer stop()
	}
	var timer <-chan time.Time
	switch {
	case limit > 0:
		timer = time.After(limit)
	case !sync:
		timer = time.After(s.opts.InlineWait)
	}
	select {
	case <-op.done:
		return s.result(op)
	case <-timer:
		if limit > 0 {
			return s.started(req, op, fmt.Sprintf("still running after waiting %v", limit))
		}
		return s.started(req, op, "started")
	case <-ctx.Done():
		if limit > 0 {
			// A cancelled await stops waiting, not the operation.
			return errorResult("await cancelled; %s runs on", op.id)
		}
		op.cancel()
		select {
		case <-op.done:
		case <-time.After(5 * time.Second):
		}
		return errorResult("cancelled: %s was stopped", op.display)
	}
}

// result is an ended operation's answer.
func (s *Server) result(op *operation) *sdk.CallToolResult {
	_, res, _, _, _ := op.snapshot()
	if res.NotRun != nil {
		return errorResult("$ %s\n[not run: %v]", op.display, res.NotRun)
	}
	text := fmt.Sprintf("$ %s\n%s\n[%s, %v]", op.display, strings.TrimRight(res.Text(), "\n"), res.Status, res.Elapsed.Round(time.Millisecond))
	return textResult(text, res.Failed)
}

// started answers that op runs on in the background, and sees that its
// end is pushed to the client while its session is open (pushEnd).
func (s *Server) started(req *sdk.CallToolRequest, op *operation, state string) *sdk.CallToolResult {
	if req.Session != nil {
		s.pushEnd(req.Session, op)
	}
	return s.stillRunning(op, state)
}

// pushEnd sends, once op ends, a notification of its end to ss (once per
// session, however many answers said it runs on): a logging message
// (notifications/message, logger "operations", level notice, or error
// when it failed) whose data has the operation's id, tool, status and the
// end of its output, so a client learns of it without awaiting (Ahma's
// R3.3 and R17). It is not a progress notification: those end with their
// request's answer, by the MCP spec. Sent only while the session is open
// and the client asked for log messages (logging/setLevel).
func (s *Server) pushEnd(ss *sdk.ServerSession, op *operation) {
	op.mu.Lock()
	if op.pushed == nil {
		op.pushed = map[*sdk.ServerSession]bool{}
	}
	first := !op.pushed[ss]
	op.pushed[ss] = true
	op.mu.Unlock()
	if !first {
		return
	}
	go func() {
		select {
		case <-op.done:
		case <-s.ops.base.Done():
			return
		}
		state, res, tail, _, _ := op.snapshot()
		level := sdk.LoggingLevel("notice")
		if res.Failed {
			level = "error"
		}
		data := map[string]any{"operation_id": op.id, "tool": op.tool, "status": state, "command": op.display,
			"result": fmt.Sprintf("%s, %v", res.Status, res.Elapsed.Round(time.Millisecond)),
			"output": strings.ToValidUTF8(tail, "\uFFFD"),
			"next":   fmt.Sprintf("call await with {\"operation_id\": %q} for the whole result", op.id)}
		ctx, cancel := context.WithTimeout(s.ops.base, 10*time.Second)
		defer cancel()
		if err := ss.Log(ctx, &sdk.LoggingMessageParams{Logger: "operations", Level: level, Data: data}); err != nil {
			s.log.Debug("an operation's end was not pushed", "operation", op.id, "err", err)
		}
	}()
}

func (s *Server) stillRunning(op *operation, state string) *sdk.CallToolResult {
	_, _, tail, written, _ := op.snapshot()
	var b strings.Builder
	fmt.Fprintf(&b, "Operation %s %s: $ %s\n", op.id, state, op.display)
	fmt.Fprintf(&b, "It runs in the background. Carry on with other work; call await with {\"operation_id\": %q} for its result "+
		"(status shows its output so far, cancel stops it).", op.id)
	if written > 0 {
		note := ""
		if written > int64(len(tail)) {
			note = fmt.Sprintf(" (the last %s of %s)", tools.Size(len(tail)), tools.Size(int(written)))
		}
		fmt.Fprintf(&b, "\nOutput so far%s:\n%s", note, strings.ToValidUTF8(tail, "\uFFFD"))
	}
	res := textResult(b.String(), false)
	res.StructuredContent = map[string]any{"operation_id": op.id, "status": "running"}
	return res
}

// progress sends op's output as progress notifications for token until
// the returned func is called (which waits for the last one to be sent).
// Progress is the count of output bytes seen, so it only grows.
func (s *Server) progress(ctx context.Context, ss *sdk.ServerSession, token any, op *operation) func() {
	var mu sync.Mutex
	var pending []byte
	var total int64
	kick := make(chan struct{}, 1)
	quit := make(chan struct{})
	done := make(chan struct{})
	add := func(p []byte, n int64, first bool) {
		mu.Lock()
		total += n
		if first { // written before the subscription: it comes first
			pending = append(p, pending...)
		} else {
			pending = append(pending, p...)
		}
		if len(pending) > 16<<10 { // a slow client gets the latest output
			pending = pending[len(pending)-16<<10:]
		}
		mu.Unlock()
		select {
		case kick <- struct{}{}:
		default:
		}
	}
	unsub, before, written := op.subscribe(func(p []byte) { add(p, int64(len(p)), false) })
	if written > 0 {
		add(before, written, true)
	}
	go func() {
		defer close(done)
		var sent int64
		for {
			finish := false
			select {
			case <-kick:
			case <-quit:
				finish = true
			}
			mu.Lock()
			chunk, now := pending, total
			pending = nil
			mu.Unlock()
			if len(chunk) > 0 && now > sent {
				sent = now
				msg := strings.ToValidUTF8(string(chunk), "\uFFFD")
				for !utf8.ValidString(msg) {
					msg = msg[1:]
				}
				if err := ss.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(now), Message: msg}); err != nil {
					s.log.Debug("progress not sent", "err", err)
				}
			}
			if finish {
				return
			}
		}
	}()
	return func() {
		unsub()
		close(quit)
		<-done
	}
}
