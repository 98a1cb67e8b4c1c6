package conversation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/keys"
	"deckhand/request"
	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// A run, from the person's message to the model's last answer. The actor
// starts it (startRunOf) and stops it (stop, through the run's context);
// the run itself is one goroutine (run.loop) that owns its state and hands
// the history back when it ends (runEnded).

func (a *conversationActor) startRun(c actor.Context, text string, attached []Attachment) {
	a.startRunOf(c, text, attached, "", nil)
}

// continueRun is Continue: a run that asks the model to go on with the last
// answer, which the person sees extended in place.
func (a *conversationActor) continueRun(c actor.Context) {
	if a.run != nil || len(a.queue) > 0 || len(a.marks) == 0 {
		a.emit(c, &Notice{Conversation: a.id, Text: "There is no stopped answer to continue."})
		return
	}
	a.startRunOf(c, ContinueText, nil, a.marks[len(a.marks)-1].Run, nil)
}

// ContinueText is what the model is asked when the person presses
// Continue; the person does not see it. What the model writes is shown
// after the stopped text, joined to it (replay.Continued): it must go on
// from the very character where that stopped, not start the answer again
// or repeat its last words. ("Continue from where you stopped." alone
// let a model begin a sentence of its own.)
const ContinueText = "Your answer above was cut off. Continue it from exactly where it stops, without repeating any of it: if it stops in the middle of a word, finish that word."

// hand is a call the person runs by hand (nil: the model is asked).
func (a *conversationActor) startRunOf(c actor.Context, text string, attached []Attachment, continues string, hand *ToolRun) {
	a.runs++
	id := store.NewID("run")
	parent := ""
	if n := len(a.marks); n > 0 {
		parent = a.marks[n-1].Run
	}
	a.versions().Add(id, parent)
	if continues != "" {
		if a.conts == nil {
			a.conts = map[string]bool{}
		}
		a.conts[id] = true
	}
	a.marks = append(a.marks, RunMark{Run: id, Text: text, At: len(a.history)})
	a.history = append(a.history, userMessage(text, attached))
	var infos []AttachmentInfo
	if len(attached) > 0 {
		if a.attached == nil {
			a.attached = map[string][]Attachment{}
		}
		a.attached[id] = attached
		for _, at := range attached {
			infos = append(infos, at.Info())
		}
	}
	model := a.modelName()
	a.emit(c, &RunStarted{Conversation: a.id, Run: id, Text: text, Model: model, Parent: parent, Continues: continues, Attachments: infos})
	ctx, cancel := context.WithCancelCause(context.Background())
	now := make(chan int, 1) // RetryNow: see retryNow
	h := &runHandle{id: id, cancel: cancel, now: now}
	a.run = h
	root, self := c.ActorSystem().Root, c.Self()
	r := &run{
		id: id, conv: a.id, model: model, deps: a.deps, log: a.log.With("run", id),
		view:    &a.view,
		history: a.history, grants: a.grants, loaded: a.loaded, summary: a.summary,
		marks: turnMarks(a.marks, a.conts), send: root.Send, hand: hand, now: now,
	}
	if r.deps.call == nil {
		router := a.deps.router
		r.deps.call = func(ctx context.Context, m *servers.CallTool, progress func(*servers.ToolProgress)) (*servers.ToolResult, error) {
			return router.Call(ctx, root, m, progress)
		}
	}
	a.history, a.grants, a.loaded = nil, nil, nil // the run's until it ends
	go func() {
		defer cancel(nil)
		root.Send(self, r.loop(ctx))
	}()
}

// turnMarks are where the turns of the history begin, for compaction: a
// run that continued the answer before it (Continue) is part of that
// turn, as the log reads it back, so a summary never begins with one.
func turnMarks(marks []RunMark, conts map[string]bool) []RunMark {
	return slices.DeleteFunc(slices.Clone(marks), func(m RunMark) bool { return conts[m.Run] })
}

// userMessage is the person's message as the model gets it: the text, then
// each text attachment in a fence longer than any run of backticks in it
// (so that nothing in a file can close the fence early and pass for the
// person's words), named and sized; images are named in the text and
// follow as image parts.
func userMessage(text string, attached []Attachment) llm.Message {
	m := llm.Message{Role: llm.RoleUser, Content: text}
	if len(attached) == 0 {
		return m
	}
	var b strings.Builder
	b.WriteString(text)
	for _, at := range attached {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if at.Image() {
			fmt.Fprintf(&b, "[Attached image %q (%s, %s), below.]", at.Name, at.Type, tools.Size(len(at.Data)))
			m.Parts = append(m.Parts, llm.ImagePart(at.Type, at.Data))
			continue
		}
		content := string(at.Data)
		fence := tools.Fence(content, 3)
		if content != "" && !strings.HasSuffix(content, "\n") {
			content += "\n"
		}
		fmt.Fprintf(&b, "[Attached file %q (%s), between the fences of %d backticks:]\n%s\n%s%s", at.Name, tools.Size(len(at.Data)), len(fence), fence, content, fence)
	}
	m.Content = b.String()
	return m
}

// stop cancels the run in progress: the run ends its model request,
// closes its question, answers its pending calls "cancelled" and reports
// RunFinished (Stopped), then hands its state back (runEnded).
func (a *conversationActor) stop() {
	if r := a.run; r != nil && !r.stopping {
		r.stopping = true
		r.cancel(nil)
	}
}

// retryNow cuts short the wait of run id before it asks the model again
// (RetryNow): the try it asks for, on the run's channel, sent without
// blocking (an earlier value still there gives way); the run's goroutine,
// waiting in llm.Client.StreamRetried, sends that try at once. A RetryNow
// for a run that is over, stopping or another is dropped; one for another
// try than the run waits for (the notice's try went as it was clicked) is
// dropped by the wait.
func (a *conversationActor) retryNow(m *RetryNow) {
	r := a.run
	if r == nil || r.id != m.Run || m.Conversation != a.id || r.stopping {
		return
	}
	for {
		select {
		case r.now <- m.Try:
			return
		default: // an earlier one waits: this one takes its place
			select {
			case <-r.now:
			default:
			}
		}
	}
}

// ended takes the state of a run that is over back, and starts the next.
func (a *conversationActor) ended(c actor.Context, m *runEnded) {
	if a.run == nil || a.run.id != m.id {
		return
	}
	a.run = nil
	a.history, a.grants, a.loaded, a.summary = m.history, m.grants, m.loaded, m.summary
	a.mergeViewGrants()
	if m.failed != nil {
		a.fail(c, m.failed)
		return
	}
	a.startQueued(c)
}

// startQueued starts the next waiting message, if any.
func (a *conversationActor) startQueued(c actor.Context) {
	if a.run == nil && len(a.queue) > 0 {
		next := a.queue[0]
		a.queue = a.queue[1:]
		if next.Tool != nil {
			a.startToolRun(c, &next)
			return
		}
		a.startRun(c, next.Text, next.Attachments)
	}
}

// runEnded is a run's last word to its conversation: the state it had
// taken, handed back.
type runEnded struct {
	id      string
	history []llm.Message
	grants  approval.Grants
	loaded  *request.Loaded
	summary *request.Summary
	failed  error // an internal error (a bug): the conversation fails
}

// run is one run in progress: one goroutine, which alone reads and writes
// it. What it shares with its actor is the view (immutable, swapped
// whole by the actor); a question's answer comes to it directly
// (ApprovalRequested.Reply), not through the actor.
type run struct {
	id, conv, model string
	deps            convDeps
	log             *slog.Logger
	view            *atomic.Pointer[view]
	send            func(*actor.PID, any) // to a watcher
	hand            *ToolRun              // a run by hand: its one call, no model (byhand.go)
	now             <-chan int            // the person's Retry now, while a refused request waits (retryNow)

	// Taken from the actor at the start, handed back at the end.
	history []llm.Message
	grants  approval.Grants
	loaded  *request.Loaded
	summary *request.Summary // stands in for the turns before its run in the model's view
	// marks are where each turn of history begins (the actor's, copied):
	// the last is this run's.
	marks []RunMark
	// uncompactable: a summarisation failed in this run; the run drops
	// the oldest messages instead, without asking again.
	uncompactable bool

	depth, requests int
	usage           llm.Usage
	estimated       bool            // some usage was estimated
	text            strings.Builder // the answer streaming now
	lastText        string
	calls           []*callState // of the current turn, tool calls then CMD: lines
}

func (r *run) emit(msg any) {
	for _, w := range r.view.Load().watchers {
		r.send(w, msg)
	}
}

// loop is the run, top to bottom: request, stream, take the turn; check
// its calls, ask the gate about each (and the person, when it asks), run
// the allowed ones, collect their results; again, until the model answers
// without calls, an error, the depth limit or Stop (ctx).
func (r *run) loop(ctx context.Context) (end *runEnded) {
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("internal error in the conversation: %v", p)
			r.log.Error("run failed", "err", err, "stack", string(debug.Stack()))
			r.finish(err, false)
			end = r.ended()
			end.failed = err
		}
	}()
	err, stopped := r.steps(ctx)
	r.finish(err, stopped)
	return r.ended()
}

func (r *run) ended() *runEnded {
	return &runEnded{id: r.id, history: r.history, grants: r.grants, loaded: r.loaded, summary: r.summary}
}

func (r *run) finish(err error, stopped bool) {
	cfg := r.view.Load().cfg
	r.emit(&RunFinished{Conversation: r.conv, Run: r.id, Text: r.lastText, Err: err, Stopped: stopped, Usage: r.usage,
		Estimated: r.estimated, CostUSD: cost(cfg, r.model, r.usage), Requests: r.requests})
}

// steps are the run's rounds; stopped is true when Stop ended them.
func (r *run) steps(ctx context.Context) (err error, stopped bool) {
	if r.hand != nil {
		return r.handSteps(ctx)
	}
	for {
		v := r.view.Load()
		if !v.cfg.Model.Configured() {
			return ErrNoModel, false
		}
		r.unloadIdle(v)
		if !r.fits(v) {
			r.compact(ctx, v)
		}
		if ctx.Err() != nil {
			return stopCause(ctx)
		}
		req, estimate := r.request(v)
		turn, err := r.stream(ctx, v, req, r.streamed)
		if ctx.Err() != nil {
			r.keepStreamed()
			return stopCause(ctx)
		}
		if r.deps.onMessage != nil {
			r.deps.onMessage(&streamDone{turn: turn, err: err})
		}
		more, err := r.take(v, turn, err, estimate)
		if err != nil || !more {
			return err, false
		}
		for seg := nextSegment(r.calls); seg != nil; seg = nextSegment(r.calls) {
			if !r.decide(ctx, seg) || !r.dispatch(ctx, seg) {
				r.cancelCalls()
				return stopCause(ctx)
			}
		}
		r.appendResults()
	}
}

// stopCause says why the run's context ended: Stop (stopped), or the
// conversation's failure (err).
func stopCause(ctx context.Context) (err error, stopped bool) {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause, false
	}
	return nil, true
}

// request builds the next request to the model from the history that fits.
func (r *run) request(v *view) (*llm.Request, int) {
	cfg := v.cfg
	system, toolTok, budget := r.budget(v)
	toolDefs := v.surface.Tools(r.loaded.Set())
	view, at := r.modelView()
	var msgs []llm.Message
	var dropped int
	if at > 0 {
		// The summary always goes; Fit keeps the turns after it.
		msgs, dropped = request.Fit(view[1:], budget-request.MessageTokens(view[0]))
		msgs = append([]llm.Message{view[0]}, msgs...)
	} else {
		msgs, dropped = request.Fit(view, budget)
	}
	if dropped > 0 {
		r.log.Debug("context trimmed", "dropped_messages", dropped, "budget", budget)
	}
	req := &llm.Request{
		Messages:    append([]llm.Message{{Role: llm.RoleSystem, Content: system}}, msgs...),
		Tools:       toolDefs,
		MaxTokens:   cfg.Model.MaxOutputTokens,
		Temperature: cfg.Model.Temperature,
	}
	r.requests++
	r.text.Reset()
	estimate := request.EstimateTokens(system) + toolTok
	for _, m := range msgs {
		estimate += request.MessageTokens(m)
	}
	r.emit(&PromptBuilt{Conversation: r.conv, Run: r.id, Messages: len(req.Messages), Dropped: dropped, Tools: len(req.Tools), EstimatedTokens: estimate})
	return req, estimate
}

// unloadIdle counts the request about to be made, and unloads the lazy
// tools offered in the last mcp.unload_after requests without a call.
func (r *run) unloadIdle(v *view) {
	r.loaded.Request()
	after := v.cfg.MCP.UnloadAfterRequests()
	if gone := r.loaded.Idle(after); len(gone) > 0 {
		r.emit(&ToolsUnloaded{Conversation: r.conv, Run: r.id, Tools: gone,
			Why: fmt.Sprintf("not called in the last %d %s (mcp.unload_after)", after, plural(after, "request", "requests"))})
	}
}

// modelView is the history as the model gets it: the summary, if its run
// is on this conversation's path, in place of the turns before that run;
// at is where in history the turns kept begin (0 without a summary).
func (r *run) modelView() (view []llm.Message, at int) {
	if r.summary == nil {
		return r.history, 0
	}
	for _, m := range r.marks {
		if m.Run == r.summary.From && m.At > 0 && m.At <= len(r.history) {
			return append([]llm.Message{r.summary.Message()}, r.history[m.At:]...), m.At
		}
	}
	return r.history, 0 // another version of an earlier message is shown: the summary does not tell it
}

// fits reports whether the model's view fits the request's budget whole:
// then nothing is summarised (compact.go) nor left out (request.Fit).
func (r *run) fits(v *view) bool {
	_, _, budget := r.budget(v)
	view, _ := r.modelView()
	total := 0
	for _, m := range view {
		total += request.MessageTokens(m)
	}
	return total <= budget
}

// budget is the request's system prompt, the size of its tools field, and
// what is left of the context for the messages.
func (r *run) budget(v *view) (system string, toolTok, budget int) {
	cfg := v.cfg
	system = cfg.Model.WithSystemPrompt(request.System(v.pol.AllowExec, v.surface.Index))
	toolTok = v.surface.Tokens + v.surface.LoadedTokens(r.loaded.Set())
	return system, toolTok, cfg.Model.MaxContextTokens - cfg.Model.MaxOutputTokens - request.EstimateTokens(system) - toolTok
}

// streamed reports what the model request says as it streams.
func (r *run) streamed(m any) {
	switch m := m.(type) {
	case *streamText:
		r.text.WriteString(m.text)
		r.emit(&AssistantDelta{Conversation: r.conv, Run: r.id, Text: m.text, Reasoning: m.reasoning})
	case *streamRetrying:
		r.emit(&Notice{Conversation: r.conv, Run: r.id, Text: retryNotice(m), Retry: true, Try: m.Next})
	case *streamTrying:
		r.emit(triedNotice(r.conv, r.id, m))
	case *keyAsked:
		r.emit(&Notice{Conversation: r.conv, Run: r.id, Text: keyNotice(m)})
	case *streamSilent:
		r.emit(&ModelSilent{Conversation: r.conv, Run: r.id, For: m.silent})
	}
}

// keyNotice says why the keyring's unlock prompt came up.
func keyNotice(m *keyAsked) string {
	return "Deckhand needs the API key for " + m.account + " from the keyring: unlock the keyring when it asks."
}

// keepStreamed keeps what streamed of an answer that Stop cut: the person
// saw it.
func (r *run) keepStreamed() {
	if text := r.text.String(); text != "" {
		r.history = append(r.history, llm.Message{Role: llm.RoleAssistant, Content: text})
		r.emit(&AssistantMessage{Conversation: r.conv, Run: r.id, Text: text, Incomplete: true})
		r.lastText = text
	}
}

// take takes the model's answer: text only ends the run (more false);
// tool calls and CMD: lines are checked and announced, for the gate.
func (r *run) take(v *view, turn llm.Turn, err error, estimate int) (more bool, _ error) {
	var usage llm.Usage
	var estimated bool
	if err == nil || turn.Usage != nil || turn.Text != "" || len(turn.ToolCalls) > 0 {
		usage, estimated = request.Usage(turn, estimate)
	}
	r.usage = r.usage.Plus(usage) // cache reads and writes too, for the cost
	r.estimated = r.estimated || estimated
	if err != nil {
		// Keep what arrived: the person saw it stream.
		if turn.Text != "" {
			r.history = append(r.history, llm.Message{Role: llm.RoleAssistant, Content: turn.Text})
			r.emit(&AssistantMessage{Conversation: r.conv, Run: r.id, Text: turn.Text, Incomplete: true, Usage: usage, Estimated: estimated})
			r.lastText = turn.Text
		}
		return false, err
	}
	if turn.FinishReason == "length" {
		r.emit(&Notice{Conversation: r.conv, Run: r.id, Text: "the model's answer was cut off at its output limit (model.max_output_tokens)"})
	}
	commands := toolcall.Commands(turn.Text)
	r.history = append(r.history, llm.Message{Role: llm.RoleAssistant, Content: turn.Text, ToolCalls: turn.ToolCalls})
	r.emit(&AssistantMessage{Conversation: r.conv, Run: r.id, Text: turn.Text, ToolCalls: turn.ToolCalls, Usage: usage, Estimated: estimated})
	r.lastText = turn.Text
	if !v.pol.AllowExec {
		// The shell is off: a CMD: line stays text, and the policy's
		// refusal of it is logged (capability.denied), as every
		// decision of the policy is.
		for _, c := range commands {
			d := toolcall.ShellOff(v.cfg.Shell.Disabled)
			d.Target = c
			r.emit(&CapabilityDecided{Conversation: r.conv, Run: r.id, Tool: toolcall.CommandTool, Decision: d})
		}
		commands = nil
	}
	if len(turn.ToolCalls) == 0 && len(commands) == 0 {
		return false, nil
	}
	var loaded []loadedTools
	r.calls, loaded = r.check(v, turn.ToolCalls, commands)
	for _, cs := range r.calls {
		r.emit(&ToolCallRequested{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args})
		for _, d := range cs.decisions {
			r.emit(&CapabilityDecided{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Decision: d})
		}
	}
	for _, l := range loaded {
		r.emit(&ToolsLoaded{Conversation: r.conv, Run: r.id, Tools: l.tools, By: l.by})
	}
	if r.depth >= v.cfg.MCP.MaxToolDepth {
		for _, cs := range r.calls {
			if !cs.done() {
				cs.step, cs.isError, cs.output = stepRefused, true, toolcall.DepthText
			}
			r.emit(&ToolCallFinished{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Output: cs.output, IsError: true, Refused: true})
		}
		r.appendResults()
		r.emit(&Notice{Conversation: r.conv, Run: r.id, Text: fmt.Sprintf("tool-call depth limit reached (%d %s); the run stops here", r.depth, plural(r.depth, "round", "rounds"))})
		return false, nil
	}
	r.depth++
	for _, cs := range r.calls {
		switch cs.step {
		case stepAnswered: // tool_search: answered already
			r.emit(&ToolCallStarted{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args})
			r.emit(&ToolCallFinished{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Output: cs.output, IsError: cs.isError, Structured: cs.structured})
		case stepRefused: // unknown tool, invalid arguments or the policy: the model hears why
			r.emit(&ToolCallFinished{Conversation: r.conv, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Output: cs.output, IsError: true, Refused: true})
		}
	}
	return true, nil
}

// cancelCalls answers every call not yet answered "cancelled" (Stop), so
// that the history stays well formed for the next run.
func (r *run) cancelCalls() {
	for _, cs := range r.calls {
		if !cs.done() {
			cs.cancelled = true
			r.finishCall(cs, toolcall.CancelledText, true)
		}
	}
	r.appendResults()
}

// The model request, on the run's goroutine: with the key it needs
// (modelAccess), its answer reported as it streams (streamModel).

// modelAccess makes the model's requests with the key it needs, asking the
// keyring only when it must, as keys.Try does for Settings ▸ Check: with
// the key in model.api_key_env's variable when that is set; else first
// with no key, and only when the server refuses that (401, 403) with the
// key the keyring (or the key file) keeps for it. A keyring that is
// locked, absent or slow so never holds up, nor prompts for, a model that
// needs no key; a model that does gets the key once and keeps it for the
// config's life (a key saved or removed in the settings comes with a
// change of config, and a new modelAccess).
//
// Reading the keyring may wait up to keys.Timeout (an unlock prompt): it
// runs on a goroutine of its own, and the run (never a conversation's
// Receive) waits for it or for its context (Stop). A panic in the lookup
// (a bug) is the error. Safe for concurrent use: one key read at a time.
type modelAccess struct {
	m       config.Model
	lookup  func(string) (string, bool)
	resolve KeyResolver
	// read is told of a key read from the keyring or the key file, so
	// that it joins the secrets only once it has been read.
	read func(keys.Key)

	mu  sync.Mutex // held while the key is read, so that it is read once
	key *keys.Key  // the key found after a refusal; nil until then
}

// modelClient makes the conversations' modelAccess for m. resolve finds a
// key after a refusal (nil: keys.Resolve); read, if set, is told of each
// key read from the keyring or the key file.
func modelClient(m config.Model, lookup func(string) (string, bool), resolve KeyResolver, read func(keys.Key)) *modelAccess {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if resolve == nil {
		resolve = keys.Resolve
	}
	return &modelAccess{m: m, lookup: lookup, resolve: resolve, read: read}
}

// try runs do with the client to use, again with the keyring's key if the
// server refused it without one. When the keyring cannot give the key, the
// error is a *keys.KeyNeededError saying which key and why (a locked
// keyring: unlock it). asking, if set, is told the key's account, on the
// caller's goroutine, when the key is saved in a locked keyring: its
// unlock prompt comes next, and the chat says why.
func (a *modelAccess) try(ctx context.Context, do func(*llm.Client) error, asking func(account string)) error {
	if !a.m.Configured() {
		return ErrNoModel
	}
	if v, ok := a.lookup(a.m.APIKeyEnv); a.m.APIKeyEnv != "" && ok && strings.TrimSpace(v) != "" {
		return do(a.client(keys.Key{Source: keys.Env, Env: a.m.APIKeyEnv}, strings.TrimSpace(v)))
	}
	a.mu.Lock()
	key := a.key
	a.mu.Unlock()
	if key != nil {
		return do(a.client(*key, key.Value()))
	}
	err := do(a.client(keys.Key{}, ""))
	status, refused := refusal(err)
	if !refused {
		return err
	}
	type found struct {
		k   keys.Key
		err error
	}
	ch, asked := make(chan found, 1), make(chan struct{}, 1)
	go func() {
		// Searched, not read: a locked keyring holding the key will
		// ask to be unlocked (one holding none is not asked, see
		// keys.Resolve).
		if saved, locked, err := keys.Saved(a.m.BaseURL); asking != nil && err == nil && saved && locked {
			asked <- struct{}{}
		}
		k, err := a.find()
		ch <- found{k, err}
	}()
	var f found
	for waiting := true; waiting; {
		select {
		case <-asked:
			asking(keys.Account(a.m.BaseURL))
		case f = <-ch:
			waiting = false
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	switch {
	case f.err != nil:
		return &keys.KeyNeededError{Account: keys.Account(a.m.BaseURL), Status: status, Err: f.err}
	case f.k.Source == keys.None && a.m.APIKeyEnv != "":
		return fmt.Errorf("%w; $%s is not set in Deckhand's environment, and the keyring holds no key for %s", err, a.m.APIKeyEnv, keys.Account(a.m.BaseURL))
	case f.k.Source == keys.None:
		return err // no key kept anywhere: the server's refusal says so
	}
	return do(a.client(f.k, f.k.Value()))
}

// find reads the key once: of two requests refused at once, the second
// waits for the first's read (one unlock prompt at most) and takes its key.
func (a *modelAccess) find() (k keys.Key, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in the model request: %v", p)
		}
	}()
	if a.key != nil {
		return *a.key, nil
	}
	if k, err = a.resolve(a.m, a.lookup); err != nil {
		return k, err
	}
	if k.Source != keys.None {
		a.key = &k
		if a.read != nil && (k.Source == keys.Keyring || k.Source == keys.File) {
			a.read(k)
		}
	}
	return k, nil
}

// client is the model's client sending value, which came from k.
func (a *modelAccess) client(k keys.Key, value string) *llm.Client {
	from := k.String() + " for " + keys.Account(a.m.BaseURL)
	if k.Source == keys.Env {
		from = k.String()
	}
	return &llm.Client{Provider: a.m.Provider, BaseURL: a.m.BaseURL, Model: a.m.Name, Timeout: a.m.StreamTimeout, APIKey: value, KeyFrom: from, ToolResults: a.m.ToolResults}
}

// refusal says whether err is the server refusing a request for want of a
// key (401 or 403), and its status.
func refusal(err error) (int, bool) {
	var he *llm.HTTPError
	if errors.As(err, &he) && (he.Status == http.StatusUnauthorized || he.Status == http.StatusForbidden) {
		return he.Status, true
	}
	return 0, false
}

// KeyResolver finds the model's API key: keys.Resolve, or a stand-in in
// tests. It may block (the keyring over D-Bus).
type KeyResolver func(m config.Model, lookupEnv func(string) (string, bool)) (keys.Key, error)

// What a model request reports as it streams, to the run (run.streamed),
// and its end (streamDone, which tests' OnMessage sees).
type (
	streamText struct {
		text, reasoning string
	}
	// keyAsked: the model's key is being read from a locked keyring,
	// whose unlock prompt is up.
	keyAsked struct {
		account string
	}
	streamRetrying struct {
		llm.Retrying
		at time.Time // when the next try goes
	}
	// streamTrying: the wait is over (its time came, or the person's
	// Retry now), and the try it waited for goes.
	streamTrying struct {
		llm.Retrying
		at time.Time // when it went
	}
	// streamSilent: the model has sent nothing for silent (0: it sends
	// again, or the request ended); reported from a timer's goroutine.
	streamSilent struct {
		silent time.Duration
	}
	streamDone struct {
		turn llm.Turn
		err  error
	}
)

// streamFunc makes one model request for a run (streamModel; a script in
// tests), reporting *streamText, *streamRetrying and *streamTrying as they
// come; a value from now cuts a wait between tries short.
type streamFunc func(ctx context.Context, v *view, model string, req *llm.Request, now <-chan int, report func(any)) (llm.Turn, error)

// streamModel makes one model request on the run's goroutine and reports
// the answer as it streams: text as it arrives, then the whole turn.
// Refusals that may pass are retried before anything was received
// (llm.Client.StreamRetried). Cancelling ctx (Stop) cancels the HTTP
// request, and the key's lookup (which may wait for the keyring): the
// request goes first without a key unless model.api_key_env gives one,
// and again with the keyring's when the model refuses it (v.client.try);
// a key that cannot be had is the error. model is the model this run asks
// (SetModel), if not the client's. A value from now ends a wait between
// tries at once (RetryNow).
func streamModel(ctx context.Context, v *view, model string, req *llm.Request, now <-chan int, report func(any)) (llm.Turn, error) {
	retries := v.cfg.Model.Retries()
	var s *llm.Stream
	err := v.client.try(ctx, func(client *llm.Client) error {
		if model != "" && model != client.Model {
			client.Model = model // chosen for this conversation (SetModel)
		}
		client.Silence = func(d time.Duration) { report(&streamSilent{silent: d}) }
		var err error
		s, err = client.StreamRetried(ctx, req, llm.Retries{
			Max: retries,
			Now: now,
			Waiting: func(r llm.Retrying) {
				report(&streamRetrying{Retrying: r, at: time.Now().Add(r.Wait)})
			},
			Trying: func(r llm.Retrying) {
				report(&streamTrying{Retrying: r, at: time.Now()})
			},
		})
		return err
	}, func(account string) { report(&keyAsked{account: account}) })
	if err != nil {
		return llm.Turn{}, err
	}
	defer s.Close()
	return s.Turn(func(d llm.Delta) {
		if d.Text != "" || d.Reasoning != "" {
			report(&streamText{text: d.Text, reasoning: d.Reasoning})
		}
	})
}

// stream is deps.stream with the model chosen and the person's Retry now,
// reporting to report; a run stopped while it waited to try again says
// that the try announced never went (RetryStarted, Stopped), in the
// place of the notice that said when it would.
func (r *run) stream(ctx context.Context, v *view, req *llm.Request, report func(any)) (llm.Turn, error) {
	var waiting *streamRetrying // the wait announced, until its try goes
	turn, err := r.deps.stream(ctx, v, r.model, req, r.now, func(m any) {
		switch m := m.(type) {
		case *streamRetrying:
			waiting = m
		case *streamTrying:
			waiting = nil
		}
		report(m)
	})
	if waiting != nil && ctx.Err() != nil {
		r.emit(&RetryStarted{Conversation: r.conv, Run: r.id, Try: waiting.Next, Tries: waiting.Tries, Stopped: true,
			Text: fmt.Sprintf("%v; not tried again: stopped (try %d of %d was due at %s)", waiting.Err, waiting.Next, waiting.Tries, waiting.at.Format("15:04:05"))})
	}
	return turn, err
}

// retryNotice says the error, which try comes next and when: the
// notice is replaced by the next retry's, so each says its own try and
// time (the same "trying again in 20s" twice read as frozen).
func retryNotice(m *streamRetrying) string {
	return fmt.Sprintf("%v; trying again in %v (try %d of %d, at %s)", m.Err, m.Wait.Round(100*time.Millisecond), m.Next, m.Tries, m.at.Format("15:04:05"))
}

// triedNotice says that the try a retry's notice announced went, and
// when: the notice's "trying again in 1m0s" is over (Retry now may have
// sent it sooner than it said).
func triedNotice(conv, run string, m *streamTrying) *RetryStarted {
	return &RetryStarted{Conversation: conv, Run: run, Try: m.Next, Tries: m.Tries,
		Text: fmt.Sprintf("%v; tried again at %s (try %d of %d)", m.Err, m.at.Format("15:04:05"), m.Next, m.Tries)}
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
