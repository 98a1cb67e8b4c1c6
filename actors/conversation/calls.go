package conversation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/policy"
	"deckhand/request"
	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// The calls of one turn, on the run's goroutine: each is resolved and
// checked (check), put through the gate once when its turn comes, the
// person asked when the gate says so (decide, ask), run (dispatch, with
// consecutive read-only calls together), and answered; then the results
// go back to the model (appendResults).

// step is where a call of the turn stands.
type step int

const (
	stepWaiting  step = iota // checked; waits for its turn at the gate
	stepRefused              // never reached the gate: unknown tool, invalid arguments, the policy, the depth limit
	stepAnswered             // answered by Deckhand itself when checked (tool_search)
	stepAllowed              // the gate or the person allowed it
	stepDenied               // the person (or no answer in time) denied it
	stepRunning              // on its server, or its command running
	stepDone                 // answered: output holds what the model gets
)

var stepNames = [...]string{"waiting", "refused", "answered", "allowed", "denied", "running", "done"}

func (s step) String() string {
	if s < 0 || int(s) >= len(stepNames) {
		return fmt.Sprintf("step(%d)", int(s))
	}
	return stepNames[s]
}

// callState is one call of the current turn, from the model's request to
// its result.
type callState struct {
	id      string // the model's call id, or "cmd-N"
	step    step
	tool    tools.Tool
	command string // for CMD: lines
	args    json.RawMessage
	req     approval.Request
	// decisions are the capability policy's, made in check; a denied one
	// refuses the call there.
	decisions  []policy.Decision
	denyReason approval.Reason // why it was denied when not by the person's own no: a timeout
	output     string
	isError    bool
	media      *tools.Media    // the result's images and links, for the window
	structured json.RawMessage // the result's structured content: tool_search's, or the server's (for the log and the tool's view)
	meta       json.RawMessage // the result's _meta, for the log and the tool's view
	inServer   time.Duration   // ToolCallFinished.ServerElapsed
	start      time.Time
	cancelled  bool      // ended by Stop: ToolCallFinished.Cancelled
	cut        tools.Cut // ToolCallFinished.Cut
}

func (cs *callState) isCommand() bool { return cs.command != "" }

// done reports whether the call has its answer for the model.
func (cs *callState) done() bool {
	return cs.step == stepRefused || cs.step == stepAnswered || cs.step == stepDone
}

// refuse ends a call before the gate, with why for the model.
func (cs *callState) refuse(why string) {
	cs.step, cs.isError, cs.output = stepRefused, true, why
}

// loadedTools are lazy tools a turn loaded, and how.
type loadedTools struct {
	tools []string
	by    string
}

// check resolves each call's tool and checks its arguments and the
// policy's word on what it names; a call that fails any is refused at
// once, with an error for the model. tool_search is answered here (it only
// searches), and a lazy tool called by name before it was found is loaded
// and goes ahead like any other.
func (r *run) check(v *view, calls []llm.ToolCall, commands []string) ([]*callState, []loadedTools) {
	var out []*callState
	var loaded []loadedTools
	lazy := len(v.surface.Lazy) > 0
	for _, tc := range calls {
		cs := &callState{id: tc.ID, args: json.RawMessage(tc.Arguments)}
		cs.req = toolcall.Unresolved(tc.ID, tc.Name, cs.args)
		out = append(out, cs)
		if tc.Name == request.ToolSearchName && lazy {
			cs.req.Server, cs.req.Tool, cs.req.Display = "local", request.ToolSearchName, request.ToolSearchDisplay
			cs.step = stepAnswered
			ans, err := request.Search(v.catalog, v.surface, r.loaded.Set(), cs.args)
			if err != nil {
				cs.isError, ans.Text = true, "Error: "+err.Error()
			}
			cs.output = ans.Text
			if ans.Structured != nil {
				cs.structured, _ = json.Marshal(ans.Structured)
			}
			newly := ans.Newly
			for _, name := range newly {
				r.loaded.Use(name)
			}
			if len(newly) > 0 {
				loaded = append(loaded, loadedTools{newly, "tool_search"})
			}
			continue
		}
		if toolcall.IsShell(tc.Name) && !v.pol.AllowExec {
			// Not offered without policy.allow_exec (the built-in server
			// leaves it out), but a model may call it by name, and a
			// catalog kept from an earlier connection may still list it.
			cs.req.Server, cs.req.Tool, cs.req.Display = config.LocalAlias, toolcall.ShellTool, config.LocalAlias+"."+toolcall.ShellTool
			cs.decisions = []policy.Decision{toolcall.ShellOff(v.cfg.Shell.Disabled)}
			_, err := approval.Check(cs.req, cs.decisions)
			cs.refuse(err.Error())
			continue
		}
		t, refusal, ok := toolcall.Resolve(v.catalog, tc.Name, lazy)
		if !ok {
			// Not offered, but known: said plainly, with why (and, on
			// the card, in the person's words: transcript.NotRunWhy),
			// rather than "no such tool", which sends the model hunting
			// for another name.
			if app, found := r.deps.router.Full().Lookup(tc.Name); found && !app.Visibility.ForModel() {
				// By the gate's own refusal.
				cs.req = toolcall.Request(tc.ID, app, cs.args)
				refusal = approval.Decide(cs.req, app, approval.Pin{}, nil, approval.Granted{}, nil).Err.Error()
			} else if w, held := withheld(r.deps.router, v.cfg.MCP.Servers, tc.Name); held {
				if w.Tool != "" {
					cs.req.Server, cs.req.Tool, cs.req.Display = w.Server, w.Tool, w.Display()
				}
				refusal = w.Refusal()
			}
			cs.refuse(refusal)
			continue
		}
		if v.surface.Lazy[t.Display] {
			if !r.loaded.Has(t.Display) {
				// Called before it was found (or after it was unloaded): no
				// need to waste a turn.
				loaded = append(loaded, loadedTools{[]string{t.Display}, "called"})
			}
			r.loaded.Use(t.Display) // called: it stays loaded
		}
		cs.tool = t
		args, refusal, ok := toolcall.Arguments(r.deps.validator, t, tc.Arguments)
		if ok {
			cs.args = args
		}
		cs.req = toolcall.Request(tc.ID, t, cs.args)
		if r.deps.pins != nil {
			if fresh, since := r.deps.pins.Fresh(t.Display); fresh {
				cs.req.Warnings = append(slices.Clone(cs.req.Warnings), servers.NewToolWarning(t.Server, since))
			}
		}
		if !ok {
			cs.refuse(refusal)
			continue
		}
		r.checkPaths(v, cs)
	}
	for i, cmd := range commands {
		cs := &callState{id: fmt.Sprintf("cmd-%d", i+1), command: cmd}
		cs.req = toolcall.CommandRequest(cs.id, cmd, v.cfg.Shell.Program)
		cs.args = cs.req.Arguments
		// What a person approves must be exactly what runs: a command
		// holding what the screen would not show (an escape sequence that
		// redraws "echo hello" over "touch …") is refused before anyone is
		// asked.
		if _, err := approval.Check(cs.req, nil); err != nil {
			cs.refuse(err.Error())
		}
		out = append(out, cs)
	}
	return out, loaded
}

// withheld says why the model may not call name, a tool Deckhand knows
// but does not offer: the router knows the tools listed and kept back
// (quarantined, unchecked), the config the servers turned off.
func withheld(router *servers.Router, configured map[string]config.Server, name string) (toolcall.Withheld, bool) {
	if w, ok := router.Withheld(name); ok {
		return w, true
	}
	return toolcall.Off(configured, name)
}

// checkPaths applies the policy to the paths a call of a local server's
// tool names; one outside the roots refuses the call, and the model is
// told which path and which roots.
func (r *run) checkPaths(v *view, cs *callState) {
	srv, configured := v.cfg.MCP.Servers[cs.tool.Server]
	if configured && !srv.IsStdio() {
		return // a remote server's paths are on another machine
	}
	// Read-only as the person's config or a trusted server says; an
	// untrusted server's readOnlyHint must not move the check to the
	// read roots.
	cs.decisions = v.pol.CheckPaths(srv, cs.tool.Def, cs.args, cs.tool.ReadOnly)
	req, err := approval.Check(cs.req, cs.decisions)
	cs.req = req // with what the policy allows, as Access
	if err != nil {
		cs.refuse(err.Error())
	}
}

// nextSegment returns the next calls to decide and run together:
// consecutive read-only tool calls, or anything else alone.
func nextSegment(calls []*callState) []*callState {
	for i, cs := range calls {
		if cs.done() {
			continue
		}
		if cs.isCommand() || !cs.tool.ReadOnly {
			return calls[i : i+1]
		}
		j := i + 1
		for j < len(calls) && !calls[j].done() && !calls[j].isCommand() && calls[j].tool.ReadOnly {
			j++
		}
		return calls[i:j]
	}
	return nil
}

// decide asks the gate about each call of seg in order, once, and the
// person when it asks. It reports false when Stop came meanwhile.
func (r *run) decide(ctx context.Context, seg []*callState) bool {
	v := r.view.Load()
	for _, cs := range seg {
		if cs.step != stepWaiting {
			continue
		}
		before := cs.req
		out := approval.Decide(cs.req, cs.tool, r.pinOf(cs), cs.decisions,
			approval.Granted{Session: r.grants, Always: r.deps.always}, approval.Rules(v.cfg.MCP.AutoApprove))
		cs.req = out.Request
		if out.Changed(before) {
			r.emit(&ToolDefinitionChanged{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Change: cs.req.Change})
		}
		switch out.Verdict {
		case approval.Allow:
			cs.step = stepAllowed
			r.emit(&ApprovalDecided{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Allowed: true, Scope: out.Scope(), By: out.By})
		case approval.Refuse: // not reached: check applied the refusals
			r.finishCall(cs, out.Err.Error(), true)
		case approval.Ask: // out.Request is what the person is shown
			ans, reason, ok := r.ask(ctx, v, cs)
			if !ok {
				return false
			}
			r.answered(cs, ans, reason)
		}
	}
	return true
}

// pinOf is what the gate compares cs's tool with: its pin now (the zero
// Pin for a command, or when no pins are kept).
func (r *run) pinOf(cs *callState) approval.Pin {
	if cs.isCommand() || r.deps.pins == nil {
		return approval.Pin{}
	}
	return r.deps.pins.Gate(cs.tool.Display)
}

// ask is the question to the person, as a blocking request: it emits
// ApprovalRequested and waits for its Reply, the timeout (a deny), or Stop
// (ok false; the question is closed).
func (r *run) ask(ctx context.Context, v *view, cs *callState) (ans approval.Answer, reason approval.Reason, ok bool) {
	id := store.NewID("ask")
	timeout := v.cfg.MCP.ApprovalTimeout
	q := newQuestion()
	r.emit(&ApprovalRequested{Conversation: r.conv, Run: r.id, ID: id, Request: cs.req, Deadline: time.Now().Add(timeout), Reply: q.reply,
		Position: slices.Index(r.calls, cs) + 1, Calls: len(r.calls)})
	a, ok := q.wait(ctx, timeout)
	if !ok {
		why := approval.Reason("the run was stopped")
		if err, _ := stopCause(ctx); err != nil {
			why = "the conversation failed"
		}
		r.emit(&ApprovalClosed{Conversation: r.conv, ID: id, Answer: approval.Deny, Reason: why})
		return approval.Deny, "", false
	}
	ans, reason = a.ans, a.reason
	if cs.req.OnceOnly && ans.Allowed() {
		ans = approval.AllowOnce // a shell command is asked each time
	}
	r.emit(&ApprovalDecided{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Allowed: ans.Allowed(), Scope: ans.Scope(), By: reason.By()})
	r.emit(&ApprovalClosed{Conversation: r.conv, ID: id, Answer: ans, Reason: reason})
	return ans, reason, true
}

// Why a Reply was dropped.
var (
	ErrAnsweredTwice  = errors.New("the question was answered already; this answer is dropped")
	ErrQuestionClosed = errors.New("the question is closed (it timed out, or what asked it stopped); this answer is dropped")
)

// question is where one question's answer goes: the asker waits on it
// (wait), whoever answers fills it once (reply, ApprovalRequested.Reply),
// without blocking. The first of the answer and the question's end
// (the timeout, Stop) wins; the other is dropped.
type question struct {
	state   atomic.Int32 // questionOpen, then answered or closed, once
	answers chan answer  // buffered: holds the one answer that won
}

const (
	questionOpen int32 = iota
	questionAnswered
	questionClosed
)

// answer is a Reply's word.
type answer struct {
	ans    approval.Answer
	reason approval.Reason
}

func newQuestion() *question { return &question{answers: make(chan answer, 1)} }

func (q *question) reply(ans approval.Answer, reason approval.Reason) error {
	if !q.state.CompareAndSwap(questionOpen, questionAnswered) {
		if q.state.Load() == questionAnswered {
			return ErrAnsweredTwice
		}
		return ErrQuestionClosed
	}
	if reason.IsAnswered() {
		reason = approval.Answered // what ApprovalClosed says
	}
	q.answers <- answer{ans, reason} // the only send: never blocks
	return nil
}

// wait is the answer, a deny when none came within timeout, or ok false
// when ctx ended first.
func (q *question) wait(ctx context.Context, timeout time.Duration) (a answer, ok bool) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case a = <-q.answers:
		return a, true
	case <-timer.C:
		if q.state.CompareAndSwap(questionOpen, questionClosed) {
			return answer{approval.Deny, approval.TimedOut(timeout)}, true
		}
		return <-q.answers, true // answered as time ran out: the answer counts
	case <-ctx.Done():
		q.state.CompareAndSwap(questionOpen, questionClosed) // an answer that came with Stop is not carried out
		return answer{}, false
	}
}

// answered carries out a person's answer (or a timeout's deny).
func (r *run) answered(cs *callState, ans approval.Answer, reason approval.Reason) {
	switch ans {
	case approval.AllowSession:
		r.grants[cs.req.Display] = true
	case approval.AllowAlways:
		r.deps.always.Grant(cs.req.Display, "user")
	}
	if !ans.Allowed() {
		cs.step = stepDenied
		if !reason.IsAnswered() {
			cs.denyReason = reason
		}
		return
	}
	cs.step = stepAllowed
	if cs.req.Change != "" && r.deps.pins != nil {
		r.deps.pins.Accept(cs.tool) // the person approved the new definition
	}
}

// callFunc makes one tool call (the router's Call; a stand-in in tests).
type callFunc func(ctx context.Context, m *servers.CallTool, progress func(*servers.ToolProgress)) (*servers.ToolResult, error)

// called is one call's end, from its goroutine (which writes nothing of
// the call's state: Stop may answer the call meanwhile).
type called struct {
	cs         *callState
	output     string
	failed     bool
	media      *tools.Media
	structured json.RawMessage
	meta       json.RawMessage
	inServer   time.Duration
	cancelled  bool // the run was stopped before the call ended
	cut        tools.Cut
}

// dispatch answers the denied calls of seg and runs the allowed ones: one
// alone on the run's goroutine, several (read-only) together, each on a
// goroutine of its own; it waits for them all. It reports false when Stop
// came meanwhile (Stop cancels the calls through ctx).
func (r *run) dispatch(ctx context.Context, seg []*callState) bool {
	v := r.view.Load()
	var run []*callState
	for _, cs := range seg {
		switch cs.step {
		case stepDenied:
			out := toolcall.DeniedText
			if cs.denyReason != "" {
				out = toolcall.DeniedBecause(string(cs.denyReason))
			}
			r.finishDenied(cs, out)
		case stepAllowed:
			cs.step, cs.start = stepRunning, time.Now()
			r.emit(&ToolCallStarted{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Parallel: len(seg) > 1, Origin: r.origin()})
			run = append(run, cs)
		}
	}
	if len(run) == 1 {
		// The router's Call and a command end when ctx does: no
		// goroutine is needed to notice Stop.
		res := r.callOne(ctx, v, run[0])
		if ctx.Err() != nil {
			return false
		}
		r.collect(res)
		return true
	}
	results := make(chan called, len(run))
	for _, cs := range run {
		go func() { results <- r.callOne(ctx, v, cs) }()
	}
	for range run {
		select {
		case res := <-results:
			r.collect(res)
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// collect answers a call with its result.
func (r *run) collect(res called) {
	res.cs.media, res.cs.structured, res.cs.meta, res.cs.inServer, res.cs.cancelled, res.cs.cut = res.media, res.structured, res.meta, res.inServer, res.cancelled, res.cut
	r.finishCall(res.cs, r.deps.secrets.Get().String(res.output), res.failed)
}

// callOne runs one allowed call: a command in its sandbox, a tool call on
// its server through the router, which sends exactly the definition that
// was checked and shown (Resolved) and refuses the call if the server has
// redefined the tool since. It writes nothing of cs (see called).
func (r *run) callOne(ctx context.Context, v *view, cs *callState) called {
	if cs.isCommand() {
		sh, mcpCfg := v.cfg.Shell, v.cfg.MCP
		out, failed := runCommand(ctx, r.deps.commands, v.pol, sh.Program, cs.command, mcpCfg.ToolTimeout, mcpCfg.MaxOutputBytes)
		return called{cs: cs, output: out, failed: failed}
	}
	t := cs.tool
	progress := func(m *servers.ToolProgress) {
		if ctx.Err() != nil {
			return // the run was stopped: its calls are answered
		}
		p := m.Progress
		p.Message = r.deps.secrets.Get().String(p.Message)
		r.emit(&ToolCallProgress{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Progress: p})
	}
	res, err := r.deps.call(ctx, &servers.CallTool{
		ID:       r.id + "/" + cs.id,
		Tool:     t.Display,
		Resolved: &t,
		Args:     cs.args,
		Origin:   servers.CallOrigin{Conversation: r.conv, Run: r.id, Call: cs.id},
	}, progress)
	if err != nil { // ctx: the run was stopped
		return called{cs: cs, output: toolcall.CancelledText, failed: true, cancelled: true}
	}
	output, isError, cut := toolcall.OutputCut(res.Result, res.Err, toolcall.Limit(v.cfg.MCP.MaxOutputBytes, v.cfg.Model.MaxContextTokens))
	cut = r.deps.keepWhole(r.conv, r.id, cs.id, res.Result, cut)
	out := called{cs: cs, output: output, failed: isError, inServer: res.Elapsed, cut: cut}
	if res.Err == nil {
		out.media = r.deps.keepImages(r.conv, tools.ResultMedia(res.Result).Map(r.deps.secrets.Get().String))
		out.structured = structuredOf(res.Result, r.deps.secrets.Get().String)
		out.meta = metaOf(res.Result, r.deps.secrets.Get().String)
	}
	return out
}

// keepWhole keeps the whole of a result the result limit cut (cut), as
// the model would have been given it but for the limit, secrets removed,
// and says so in the Cut it returns (Saved), if it could; nothing when
// nothing was cut. What it failed to keep is logged, and the card says
// the rest was not kept.
func (d *convDeps) keepWhole(conv, run, call string, res *sdk.CallToolResult, cut tools.Cut) tools.Cut {
	if cut.Whole == 0 || res == nil || d.keep == nil {
		return cut
	}
	if err := d.keep(conv, run, call, d.secrets.Get().String(tools.RenderResult(res))); err != nil {
		if d.log != nil {
			d.log.Warn("the whole result was not kept", "conversation", conv, "call", call, "err", err)
		}
		return cut
	}
	cut.Saved = true
	return cut
}

// keepImages keeps beside the log each image of media that a window
// shows (checked: tools.CheckImage), so that the chat read back from the
// log shows it too, and notes its SHA-256 in the Media it returns (media
// is not yet shared). What it failed to keep is logged; that image is
// then named alone.
func (d *convDeps) keepImages(conv string, media *tools.Media) *tools.Media {
	if media == nil || d.keepImage == nil {
		return media
	}
	for i := range media.Images {
		img := &media.Images[i]
		if img.Data == nil {
			continue
		}
		if _, _, _, err := tools.CheckImage(img.MIME, img.Data); err != nil {
			continue
		}
		sum, err := d.keepImage(conv, img.Data)
		if err != nil {
			if d.log != nil {
				d.log.Warn("the image was not kept", "conversation", conv, "err", err)
			}
			continue
		}
		img.SHA256 = sum
	}
	return media
}

// origin is what the log says of where the run's calls come from: "" for
// the model's.
func (r *run) origin() string {
	if r.hand != nil {
		return ByHandOrigin
	}
	return ""
}

// MaxStructured caps the structured content a tool's view is given with
// the card's result; larger content is left out.
const MaxStructured = 256 << 10

// structuredOf is a result's structured content as JSON, with secrets
// removed (redact maps each string's text), or nil when there is none, it
// is over MaxStructured, or removing secrets left it unreadable.
func structuredOf(res *sdk.CallToolResult, redact func(string) string) json.RawMessage {
	if res == nil || res.StructuredContent == nil {
		return nil
	}
	return forView(res.StructuredContent, redact)
}

// metaOf is a result's _meta as JSON, as structuredOf's: a tool's view
// is given it with the result (MCP Apps: data for the view, not the
// model).
func metaOf(res *sdk.CallToolResult, redact func(string) string) json.RawMessage {
	if res == nil || len(res.Meta) == 0 {
		return nil
	}
	return forView(res.Meta, redact)
}

// forView is v as JSON with secrets removed, or nil when it is over
// MaxStructured or removing secrets left it unreadable.
func forView(v any, redact func(string) string) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil || len(raw) > MaxStructured {
		return nil
	}
	out := []byte(redact(string(raw)))
	if !json.Valid(out) {
		return nil
	}
	return out
}

func (r *run) finishCall(cs *callState, output string, isError bool) {
	r.finished(cs, output, isError, false)
}

func (r *run) finishDenied(cs *callState, output string) {
	r.finished(cs, output, false, true)
}

func (r *run) finished(cs *callState, output string, isError, denied bool) {
	cs.step, cs.output, cs.isError = stepDone, output, isError
	var elapsed time.Duration
	if !cs.start.IsZero() {
		elapsed = time.Since(cs.start)
	}
	r.emit(&ToolCallFinished{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args,
		Output: output, IsError: isError, Denied: denied, Elapsed: elapsed, ServerElapsed: cs.inServer, Media: cs.media,
		Structured: cs.structured, Meta: cs.meta, Origin: r.origin(), Cancelled: cs.cancelled, Cut: cs.cut})
}

// appendResults adds one tool message per call, in the model's order, and
// one user message with the output of the CMD: lines.
func (r *run) appendResults() {
	var outputs []string
	for _, cs := range r.calls {
		if cs.isCommand() {
			outputs = append(outputs, cs.output)
			continue
		}
		r.history = append(r.history, llm.Message{Role: llm.RoleTool, ToolCallID: cs.id, Content: cs.output})
	}
	if len(outputs) > 0 {
		r.history = append(r.history, toolcall.CommandsMessage(outputs))
	}
	r.calls = nil
}
