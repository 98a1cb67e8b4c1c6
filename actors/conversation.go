package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/approval"
	"deckhand/config"
	"deckhand/tools"
	"deckhand/transport/llm"
	"deckhand/transport/mcp"
)

// Commands to a conversation, from its user actor.
type (
	// UserMessage starts a run, or waits for the current one to end.
	UserMessage struct{ Text string }
	// StopRun cancels the run: the model request, tool calls in flight and
	// pending approvals. Messages queued behind it still run.
	StopRun struct{}
	// ApprovalAnswer answers an ApprovalRequested. Reason, if set, says
	// why (for a deny, the model hears it).
	ApprovalAnswer struct {
		ID     string
		Answer approval.Answer
		Reason string
	}
	// WatchConversation adds a watcher of the conversation's events.
	WatchConversation struct{ PID *actor.PID }
)

// Events from a conversation, to its watchers. Every one names the
// conversation; all but ConversationOpened and RunQueued name the run.
type (
	// ConversationOpened is the first event of a conversation: new, or
	// resumed from the log.
	ConversationOpened struct {
		Conversation, Model string
		Resumed             bool
	}
	// PromptBuilt describes a request about to be sent (never its text).
	PromptBuilt struct {
		Conversation, Run string
		Messages          int // sent, after trimming
		Dropped           int // left out to fit the context budget
		Tools             int
		EstimatedTokens   int
	}
	// ToolCallRequested is a call the model asked for, before any check.
	ToolCallRequested struct {
		Conversation, Run, Call, Tool string
		Arguments                     json.RawMessage
	}
	// ApprovalDecided is the gate's decision on a call, however it was
	// reached: a rule, a grant, the person, or a timeout.
	ApprovalDecided struct {
		Conversation, Run, Call, Tool string
		Allowed                       bool
		Scope                         string // once, session, always, rule, grant (or "" when denied)
		By                            string // why: "auto_approve fs.*", "the person", "no answer within 2m"
	}
	// RunStarted begins a run with the person's message, answered by Model.
	RunStarted struct {
		Conversation, Run, Text, Model string
	}
	RunQueued struct {
		Conversation, Text string
		Position           int
	}
	// AssistantDelta is streamed text (or reasoning) as it arrives.
	AssistantDelta struct {
		Conversation, Run, Text, Reasoning string
	}
	// AssistantMessage is one whole answer of the model; Incomplete when
	// the stream broke off. Usage is the request's, Estimated when the
	// server sent none.
	AssistantMessage struct {
		Conversation, Run, Text string
		ToolCalls               []llm.ToolCall
		Incomplete              bool
		Usage                   llm.Usage
		Estimated               bool
	}
	ToolCallStarted struct {
		Conversation, Run, Call, Tool string
		Arguments                     json.RawMessage
		Parallel                      bool // runs together with other read-only calls
	}
	ToolCallProgress struct {
		Conversation, Run, Call, Tool string
		Progress                      mcp.Progress
	}
	// ToolCallFinished says how a call ended; Output is what the model gets.
	ToolCallFinished struct {
		Conversation, Run, Call, Tool string
		Arguments                     json.RawMessage
		Output                        string
		IsError                       bool // the tool failed, or could not be called
		Denied                        bool // the gate or the person said no
		Refused                       bool // never reached the gate: unknown tool, bad arguments, depth limit
		Elapsed                       time.Duration
	}
	ApprovalRequested struct {
		Conversation, Run, ID string
		Request               approval.Request
		Deadline              time.Time
	}
	// ApprovalClosed ends an ApprovalRequested: answered, timed out or
	// cancelled with the run.
	ApprovalClosed struct {
		Conversation, ID string
		Answer           approval.Answer
		Reason           string
	}
	// Notice is something the person should see: a retry, the depth limit.
	Notice struct {
		Conversation, Run, Text string
	}
	RunFinished struct {
		Conversation, Run string
		Text              string // the model's last answer
		Err               error
		Stopped           bool
		Usage             llm.Usage
		Estimated         bool // some usage was estimated
		CostUSD           float64
		Requests          int
	}
)

// Internal continuations.
type (
	approvalTimedOut struct{ run, id string }
	execDone         struct {
		run, call, output string
		failed            bool
	}
)

// ConversationOptions start a conversation.
type ConversationOptions struct {
	ID       string
	Watchers []*actor.PID
	// Resumed continues a conversation from the log: History is what it
	// said, Grants its "for this session" approvals.
	Resumed bool
	History []llm.Message
	Grants  approval.Grants
	// Loaded are the lazy tools (alias.tool) whose schemas the conversation
	// already gets.
	Loaded []string
}

// convDeps is what every conversation shares.
type convDeps struct {
	cfg       *config.Config
	client    func() (*llm.Client, error)
	lookupEnv func(string) (string, bool)
	registry  *actor.PID
	validator *tools.Validator
	always    approval.Always
	log       *slog.Logger
}

type conversationActor struct {
	id       string
	deps     convDeps
	log      *slog.Logger
	watchers []*actor.PID
	history  []llm.Message
	grants   approval.Grants
	catalog  *tools.Catalog
	surface  *surface        // what of the catalog the model is offered
	loaded   map[string]bool // lazy tools whose schemas are sent, by display name
	queue    []string
	run      *runState
	runs     int
	requests int // model requests so far: tags stream reports, so that a late one from a stopped run is dropped
	// hasCatalog: the registry's catalog has arrived; until then messages
	// wait, so that the first request offers every tool already known.
	hasCatalog bool
	resumed    bool
}

type runState struct {
	id        string
	ctx       context.Context // tool calls and commands; cancelled by StopRun
	cancel    context.CancelFunc
	depth     int // tool rounds so far
	requests  int
	usage     llm.Usage
	estimated bool // some usage was estimated
	// promptEstimate is the current request's estimated size, for when the
	// server reports no usage.
	promptEstimate int
	seq            int
	stream         *actor.PID // the model request in flight, if any
	text           strings.Builder
	lastText       string
	calls          []*callState // of the current turn, tool calls then CMD: lines
	segment        []*callState // being decided or run
	asking         *callState
}

type callState struct {
	id         string // the model's call id, or "cmd-N"
	tool       tools.Tool
	command    string // for CMD: lines
	args       json.RawMessage
	req        approval.Request
	decided    bool
	allowed    bool
	running    bool
	done       bool
	output     string
	isError    bool
	denied     bool
	askID      string
	denyReason string // when not the person's own no: a timeout, no terminal
	local      bool   // Deckhand's own tool_search, answered in prepare
	timer      *time.Timer
	start      time.Time
}

func (cs *callState) isCommand() bool { return cs.command != "" }

func newConversation(opts ConversationOptions, deps convDeps) *conversationActor {
	grants := opts.Grants
	if grants == nil {
		grants = approval.Grants{}
	}
	loaded := map[string]bool{}
	for _, name := range opts.Loaded {
		loaded[name] = true
	}
	return &conversationActor{
		id:       opts.ID,
		deps:     deps,
		log:      deps.log.With("actor", "conversation", "conversation", opts.ID),
		watchers: slices.Clone(opts.Watchers),
		history:  slices.Clone(opts.History),
		grants:   grants,
		catalog:  tools.NewCatalog(nil),
		surface:  planSurface(tools.NewCatalog(nil), deps.cfg),
		loaded:   loaded,
		resumed:  opts.Resumed,
	}
}

func (a *conversationActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		c.Send(a.deps.registry, &WatchCatalog{PID: c.Self()})
		a.emit(c, &ConversationOpened{Conversation: a.id, Model: a.deps.cfg.Model.Name, Resumed: a.resumed})
	case *CatalogChanged:
		a.catalog = m.Catalog
		a.surface = planSurface(m.Catalog, a.deps.cfg)
		if !a.hasCatalog {
			// Messages that came before the first catalog waited for it.
			a.hasCatalog = true
			a.startQueued(c)
			for i, text := range a.queue {
				a.emit(c, &RunQueued{Conversation: a.id, Text: text, Position: i + 1})
			}
		}
	case *WatchConversation:
		a.watchers = append(a.watchers, m.PID)
	case *ConfigChanged:
		a.deps.cfg = m.Config
		a.deps.client = modelClient(m.Config.Model, a.deps.lookupEnv)
		a.surface = planSurface(a.catalog, m.Config)
	case *UserMessage:
		switch {
		case a.run != nil:
			a.queue = append(a.queue, m.Text)
			a.emit(c, &RunQueued{Conversation: a.id, Text: m.Text, Position: len(a.queue)})
		case !a.hasCatalog:
			a.queue = append(a.queue, m.Text) // for a moment: see hasCatalog
		default:
			a.startRun(c, m.Text)
		}
	case *StopRun:
		a.stop(c)
	case *streamText:
		if r := a.run; r != nil && m.seq == r.seq {
			r.text.WriteString(m.text)
			a.emit(c, &AssistantDelta{Conversation: a.id, Run: r.id, Text: m.text, Reasoning: m.reasoning})
		}
	case *streamRetrying:
		if r := a.run; r != nil && m.seq == r.seq {
			a.emit(c, &Notice{Conversation: a.id, Run: r.id, Text: retryNotice(m)})
		}
	case *streamDone:
		if r := a.run; r != nil && m.seq == r.seq {
			c.Stop(r.stream)
			r.stream = nil
			a.onTurn(c, m.turn, m.err)
		}
	case *ApprovalAnswer:
		reason := m.Reason
		if reason == "" {
			reason = "answered"
		}
		a.answered(c, m.ID, m.Answer, reason)
	case *approvalTimedOut:
		if r := a.run; r != nil && r.id == m.run {
			a.answered(c, m.id, approval.Deny, fmt.Sprintf("no answer within %v", a.deps.cfg.MCP.ApprovalTimeout))
		}
	case *ToolProgress:
		if cs := a.callByResultID(m.ID); cs != nil {
			a.emit(c, &ToolCallProgress{Conversation: a.id, Run: a.run.id, Call: cs.id, Tool: cs.req.Display, Progress: m.Progress})
		}
	case *ToolResult:
		if cs := a.callByResultID(m.ID); cs != nil && cs.running {
			output, isError := toolOutput(m, a.deps.cfg.MCP.MaxOutputBytes)
			a.finishCall(c, cs, output, isError, false)
			a.process(c)
		}
	case *execDone:
		if r := a.run; r != nil && r.id == m.run {
			for _, cs := range r.calls {
				if cs.id == m.call && cs.running {
					a.finishCall(c, cs, m.output, m.failed, false)
				}
			}
			a.process(c)
		}
	case *actor.Stopping:
		if a.run != nil {
			a.stop(c)
		}
	}
}

func (a *conversationActor) emit(c actor.Context, msg any) {
	for _, w := range a.watchers {
		c.Send(w, msg)
	}
}

func (a *conversationActor) startRun(c actor.Context, text string) {
	a.runs++
	ctx, cancel := context.WithCancel(context.Background())
	a.run = &runState{id: newID("run"), ctx: ctx, cancel: cancel}
	a.history = append(a.history, llm.Message{Role: llm.RoleUser, Content: text})
	a.emit(c, &RunStarted{Conversation: a.id, Run: a.run.id, Text: text, Model: a.deps.cfg.Model.Name})
	a.request(c)
}

// request sends the conversation so far to the model.
func (a *conversationActor) request(c actor.Context) {
	r := a.run
	client, err := a.deps.client()
	if err != nil {
		a.finish(c, err, false)
		return
	}
	cfg := a.deps.cfg
	system := systemPrompt(!cfg.Shell.Disabled, a.surface.index)
	toolDefs := a.surface.tools(a.loaded)
	toolTok := a.surface.tokens + a.surface.loadedTokens(a.loaded)
	budget := cfg.Model.MaxContextTokens - cfg.Model.MaxOutputTokens - estimateTokens(system) - toolTok
	msgs, dropped := fitContext(a.history, budget)
	if dropped > 0 {
		a.log.Debug("context trimmed", "dropped_messages", dropped, "budget", budget)
	}
	req := &llm.Request{
		Messages:    append([]llm.Message{{Role: llm.RoleSystem, Content: system}}, msgs...),
		Tools:       toolDefs,
		MaxTokens:   cfg.Model.MaxOutputTokens,
		Temperature: cfg.Model.Temperature,
	}
	a.requests++
	r.seq = a.requests
	r.requests++
	r.text.Reset()
	r.promptEstimate = estimateTokens(system) + toolTok
	for _, m := range msgs {
		r.promptEstimate += messageTokens(m)
	}
	a.emit(c, &PromptBuilt{Conversation: a.id, Run: r.id, Messages: len(req.Messages), Dropped: dropped, Tools: len(req.Tools), EstimatedTokens: r.promptEstimate})
	seq, retries := r.seq, cfg.Model.Retries()
	r.stream = c.Spawn(actor.PropsFromProducer(func() actor.Actor {
		return &streamActor{client: client, req: req, retries: retries, seq: seq}
	}))
}

// onTurn takes the model's answer: text only ends the run; tool calls and
// CMD: lines go through the gate, run, and lead to the next request.
func (a *conversationActor) onTurn(c actor.Context, turn llm.Turn, err error) {
	r := a.run
	var usage llm.Usage
	var estimated bool
	if err == nil || turn.Usage != nil || turn.Text != "" || len(turn.ToolCalls) > 0 {
		usage, estimated = requestUsage(turn, r.promptEstimate)
	}
	r.usage.PromptTokens += usage.PromptTokens
	r.usage.CompletionTokens += usage.CompletionTokens
	r.usage.TotalTokens += usage.TotalTokens
	r.estimated = r.estimated || estimated
	if err != nil {
		// Keep what arrived: the person saw it stream.
		if turn.Text != "" {
			a.history = append(a.history, llm.Message{Role: llm.RoleAssistant, Content: turn.Text})
			a.emit(c, &AssistantMessage{Conversation: a.id, Run: r.id, Text: turn.Text, Incomplete: true, Usage: usage, Estimated: estimated})
			r.lastText = turn.Text
		}
		a.finish(c, err, false)
		return
	}
	if turn.FinishReason == "length" {
		a.emit(c, &Notice{Conversation: a.id, Run: r.id, Text: "the model's answer was cut off at its output limit (model.max_output_tokens)"})
	}
	var commands []string
	if !a.deps.cfg.Shell.Disabled {
		commands = extractCommands(turn.Text)
	}
	a.history = append(a.history, llm.Message{Role: llm.RoleAssistant, Content: turn.Text, ToolCalls: turn.ToolCalls})
	a.emit(c, &AssistantMessage{Conversation: a.id, Run: r.id, Text: turn.Text, ToolCalls: turn.ToolCalls, Usage: usage, Estimated: estimated})
	r.lastText = turn.Text
	if len(turn.ToolCalls) == 0 && len(commands) == 0 {
		a.finish(c, nil, false)
		return
	}
	var loaded []loadedTools
	r.calls, loaded = a.prepare(turn.ToolCalls, commands)
	for _, cs := range r.calls {
		a.emit(c, &ToolCallRequested{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args})
	}
	for _, l := range loaded {
		a.emit(c, &ToolsLoaded{Conversation: a.id, Run: r.id, Tools: l.tools, By: l.by})
	}
	if r.depth >= a.deps.cfg.MCP.MaxToolDepth {
		for _, cs := range r.calls {
			if !cs.done {
				cs.done, cs.isError = true, true
				cs.output = "Not run: the tool-call depth limit of this run was reached."
			}
			a.emit(c, &ToolCallFinished{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Output: cs.output, IsError: true, Refused: true})
		}
		a.appendResults()
		a.emit(c, &Notice{Conversation: a.id, Run: r.id, Text: fmt.Sprintf("tool-call depth limit reached (%d rounds); the run stops here", r.depth)})
		a.finish(c, nil, false)
		return
	}
	r.depth++
	for _, cs := range r.calls {
		switch {
		case cs.done && cs.local: // tool_search: answered already
			a.emit(c, &ToolCallStarted{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args})
			a.emit(c, &ToolCallFinished{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Output: cs.output, IsError: cs.isError})
		case cs.done: // unknown tool or invalid arguments: the model hears why
			a.emit(c, &ToolCallFinished{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Output: cs.output, IsError: true, Refused: true})
		}
	}
	a.process(c)
}

// loadedTools are lazy tools a turn loaded, and how.
type loadedTools struct {
	tools []string
	by    string
}

// prepare resolves each call's tool and checks its arguments; a call that
// fails either is done at once, with an error for the model. tool_search is
// answered here (it only searches), and a lazy tool called by name before
// it was found is loaded and goes ahead like any other.
func (a *conversationActor) prepare(calls []llm.ToolCall, commands []string) ([]*callState, []loadedTools) {
	var out []*callState
	var loaded []loadedTools
	lazy := len(a.surface.lazy) > 0
	for _, tc := range calls {
		cs := &callState{id: tc.ID, args: json.RawMessage(tc.Arguments)}
		cs.req = approval.Request{ID: tc.ID, Display: tc.Name, Arguments: cs.args}
		if tc.Name == ToolSearchName && lazy {
			cs.req.Server, cs.req.Tool, cs.req.Display = "local", ToolSearchName, toolSearchDisplay
			cs.done, cs.local = true, true
			output, newly, err := searchTools(a.catalog, a.surface, a.loaded, cs.args)
			if err != nil {
				cs.isError, output = true, "Error: "+err.Error()
			}
			cs.output = output
			for _, name := range newly {
				a.loaded[name] = true
			}
			if len(newly) > 0 {
				loaded = append(loaded, loadedTools{newly, "tool_search"})
			}
			out = append(out, cs)
			continue
		}
		t, ok := a.catalog.Lookup(tc.Name)
		if !ok {
			cs.done, cs.isError = true, true
			cs.output = fmt.Sprintf("Error: there is no tool named %q. Use one of the tools in this request's tools field, by its exact name.", tc.Name)
			if lazy {
				cs.output = fmt.Sprintf("Error: there is no tool named %q. Call tool_search to find the tool you need, then call it by the name it gives.", tc.Name)
			}
			if s := a.catalog.Suggest(strings.Replace(tc.Name, "__", ".", 1), 3); len(s) > 0 {
				cs.output += " Similar tools: " + strings.Join(s, ", ") + "."
			}
			out = append(out, cs)
			continue
		}
		if a.surface.lazy[t.Display] && !a.loaded[t.Display] {
			// Called before it was found: no need to waste a turn.
			a.loaded[t.Display] = true
			loaded = append(loaded, loadedTools{[]string{t.Display}, "called"})
		}
		cs.tool = t
		cs.req = approval.Request{
			ID: tc.ID, Server: t.Server, Tool: t.Name, Display: t.Display,
			Title: t.Def.Title, Description: t.Def.Description, Annotations: t.Def.Annotations,
			Trusted: t.Trusted, ReadOnly: t.ReadOnly, Arguments: cs.args,
		}
		if cs.req.Title == "" && t.Def.Annotations != nil {
			cs.req.Title = t.Def.Annotations.Title
		}
		obj, err := a.deps.validator.Validate(t, tc.Arguments)
		if err != nil {
			cs.done, cs.isError = true, true
			cs.output = fmt.Sprintf("Error: the call was not made: %v. Fix the arguments and call again.", err)
			out = append(out, cs)
			continue
		}
		cs.args, _ = json.Marshal(obj)
		cs.req.Arguments = cs.args
		out = append(out, cs)
	}
	for i, cmd := range commands {
		args, _ := json.Marshal(map[string]string{"command": cmd})
		cs := &callState{id: fmt.Sprintf("cmd-%d", i+1), command: cmd, args: args}
		cs.req = approval.Request{
			ID: cs.id, Server: "local", Tool: "exec", Display: "local.exec",
			Title:       "Run a shell command",
			Description: fmt.Sprintf("The model proposed this command on a CMD: line. It runs with %s -c on this machine, as you.", a.deps.cfg.Shell.Program),
			Arguments:   args,
		}
		out = append(out, cs)
	}
	return out, loaded
}

// process moves the current turn's calls along: it takes the next segment
// (consecutive read-only tool calls together, anything else alone), asks the
// gate about each of its calls in order, runs the allowed ones together, and
// when every call is answered sends the results to the model.
func (a *conversationActor) process(c actor.Context) {
	r := a.run
	if r == nil {
		return
	}
	for {
		if r.segment == nil {
			r.segment = nextSegment(r.calls)
			if r.segment == nil {
				a.appendResults()
				a.request(c)
				return
			}
		}
		for _, cs := range r.segment {
			if cs.decided || cs.done {
				continue
			}
			d := approval.Decide(approval.Rules(a.deps.cfg.MCP.AutoApprove), a.deps.always, a.grants, cs.req)
			if d.Verdict == approval.Allow {
				cs.decided, cs.allowed = true, true
				scope := "rule"
				if !strings.HasPrefix(d.Reason, "auto_approve") {
					scope = "grant"
				}
				a.emit(c, &ApprovalDecided{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Allowed: true, Scope: scope, By: d.Reason})
				continue
			}
			a.ask(c, cs)
			return
		}
		busy := false
		for _, cs := range r.segment {
			switch {
			case cs.done:
			case cs.running:
				busy = true
			case !cs.allowed:
				out := "The user denied this tool call; it was not run."
				if cs.denyReason != "" {
					out = fmt.Sprintf("Denied (%s); the call was not run.", cs.denyReason)
				}
				a.finishCall(c, cs, out, false, true)
			default:
				a.dispatch(c, cs, len(r.segment) > 1)
				busy = true
			}
		}
		if busy {
			return
		}
		r.segment = nil
	}
}

// nextSegment returns the next calls to decide and run together.
func nextSegment(calls []*callState) []*callState {
	for i, cs := range calls {
		if cs.done {
			continue
		}
		if cs.isCommand() || !cs.tool.ReadOnly {
			return calls[i : i+1]
		}
		j := i + 1
		for j < len(calls) && !calls[j].done && !calls[j].isCommand() && calls[j].tool.ReadOnly {
			j++
		}
		return calls[i:j]
	}
	return nil
}

func (a *conversationActor) ask(c actor.Context, cs *callState) {
	r := a.run
	cs.askID = newID("ask")
	r.asking = cs
	timeout := a.deps.cfg.MCP.ApprovalTimeout
	self, root, runID, askID := c.Self(), c.ActorSystem().Root, r.id, cs.askID
	cs.timer = time.AfterFunc(timeout, func() { root.Send(self, &approvalTimedOut{run: runID, id: askID}) })
	a.emit(c, &ApprovalRequested{Conversation: a.id, Run: r.id, ID: cs.askID, Request: cs.req, Deadline: time.Now().Add(timeout)})
}

// answered applies a person's answer (or a timeout's deny) and moves on.
func (a *conversationActor) answered(c actor.Context, id string, ans approval.Answer, reason string) {
	r := a.run
	if r == nil || r.asking == nil || r.asking.askID != id {
		return // late, or for a run that was stopped
	}
	cs := r.asking
	r.asking = nil
	cs.timer.Stop()
	switch ans {
	case approval.AllowSession:
		a.grants[cs.req.Display] = true
	case approval.AllowAlways:
		if err := a.deps.always.Grant(cs.req.Display, "user"); err != nil {
			a.emit(c, &Notice{Conversation: a.id, Run: r.id, Text: "could not keep the grant: " + err.Error()})
		}
	}
	cs.decided, cs.allowed = true, ans.Allowed()
	if !cs.allowed && reason != "answered" {
		cs.denyReason = reason
	}
	by := "the person"
	if reason != "answered" {
		by = reason
	}
	a.emit(c, &ApprovalDecided{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Allowed: cs.allowed, Scope: answerScope(ans), By: by})
	a.emit(c, &ApprovalClosed{Conversation: a.id, ID: id, Answer: ans, Reason: reason})
	a.process(c)
}

func (a *conversationActor) dispatch(c actor.Context, cs *callState, parallel bool) {
	r := a.run
	cs.running, cs.start = true, time.Now()
	a.emit(c, &ToolCallStarted{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Parallel: parallel})
	if cs.isCommand() {
		self, root := c.Self(), c.ActorSystem().Root
		ctx, runID, sh, mcpCfg := r.ctx, r.id, a.deps.cfg.Shell, a.deps.cfg.MCP
		go func() {
			out, failed := runCommand(ctx, sh.Program, cs.command, mcpCfg.ToolTimeout, mcpCfg.MaxOutputBytes)
			root.Send(self, &execDone{run: runID, call: cs.id, output: out, failed: failed})
		}()
		return
	}
	c.RequestWithCustomSender(a.deps.registry, &CallTool{
		ID:         r.id + "/" + cs.id,
		Tool:       cs.tool.Display,
		Args:       cs.args,
		ProgressTo: c.Self(),
	}, c.Self())
}

func (a *conversationActor) callByResultID(id string) *callState {
	r := a.run
	if r == nil {
		return nil
	}
	runID, callID, ok := strings.Cut(id, "/")
	if !ok || runID != r.id {
		return nil
	}
	for _, cs := range r.calls {
		if cs.id == callID {
			return cs
		}
	}
	return nil
}

func (a *conversationActor) finishCall(c actor.Context, cs *callState, output string, isError, denied bool) {
	cs.running, cs.done = false, true
	cs.output, cs.isError, cs.denied = output, isError, denied
	var elapsed time.Duration
	if !cs.start.IsZero() {
		elapsed = time.Since(cs.start)
	}
	a.emit(c, &ToolCallFinished{Conversation: a.id, Run: a.run.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args,
		Output: output, IsError: isError, Denied: denied, Elapsed: elapsed})
}

// toolOutput is what the model gets from a tool result: the rendered
// content capped at limit, marked when the tool failed; or a short error
// when the call itself failed, so that every call id is answered.
func toolOutput(res *ToolResult, limit int) (string, bool) {
	if res.Err != nil {
		return "Error: the tool call failed: " + res.Err.Error(), true
	}
	text := tools.Cap(tools.RenderResult(res.Result), limit)
	if res.Result.IsError {
		return "The tool reported an error:\n" + text, true
	}
	return text, false
}

// appendResults adds one tool message per call, in the model's order, and
// one user message with the output of the CMD: lines.
func (a *conversationActor) appendResults() {
	r := a.run
	var outputs []string
	for _, cs := range r.calls {
		if cs.isCommand() {
			outputs = append(outputs, cs.output)
			continue
		}
		a.history = append(a.history, llm.Message{Role: llm.RoleTool, ToolCallID: cs.id, Content: cs.output})
	}
	if len(outputs) > 0 {
		a.history = append(a.history, commandsMessage(outputs))
	}
	r.calls, r.segment = nil, nil
}

// stop cancels the run. Calls not yet answered get a "cancelled" result so
// that the history stays well formed for the next run.
func (a *conversationActor) stop(c actor.Context) {
	r := a.run
	if r == nil {
		return
	}
	r.cancel()
	if r.stream != nil {
		c.Stop(r.stream)
		r.stream = nil
		if text := r.text.String(); text != "" {
			a.history = append(a.history, llm.Message{Role: llm.RoleAssistant, Content: text})
			a.emit(c, &AssistantMessage{Conversation: a.id, Run: r.id, Text: text, Incomplete: true})
			r.lastText = text
		}
	}
	if cs := r.asking; cs != nil {
		cs.timer.Stop()
		r.asking = nil
		a.emit(c, &ApprovalClosed{Conversation: a.id, ID: cs.askID, Answer: approval.Deny, Reason: "the run was stopped"})
	}
	if len(r.calls) > 0 {
		for _, cs := range r.calls {
			if cs.done {
				continue
			}
			if cs.running && !cs.isCommand() {
				c.Send(a.deps.registry, &CancelCall{ID: r.id + "/" + cs.id, Tool: cs.tool.Display})
			}
			a.finishCall(c, cs, "Cancelled: the user stopped the run before this call finished.", true, false)
		}
		a.appendResults()
	}
	a.finish(c, nil, true)
}

func (a *conversationActor) finish(c actor.Context, err error, stopped bool) {
	r := a.run
	r.cancel()
	a.run = nil
	cost := a.deps.cfg.Model.PriceFor(a.deps.cfg.Model.Name).Cost(r.usage.PromptTokens, r.usage.CompletionTokens)
	a.emit(c, &RunFinished{Conversation: a.id, Run: r.id, Text: r.lastText, Err: err, Stopped: stopped, Usage: r.usage,
		Estimated: r.estimated, CostUSD: cost, Requests: r.requests})
	a.startQueued(c)
}

// startQueued starts the next waiting message, if any.
func (a *conversationActor) startQueued(c actor.Context) {
	if a.run == nil && len(a.queue) > 0 {
		next := a.queue[0]
		a.queue = a.queue[1:]
		a.startRun(c, next)
	}
}

// errNoModel is the answer to a message when no model is configured.
var errNoModel = errors.New("no model is configured: set [model] base_url and name in the config (see the README)")

// requestUsage is the usage of one request: the server's figures, or an
// estimate (prompt from the request's size, completion from what came back)
// when it sent none.
func requestUsage(turn llm.Turn, promptEstimate int) (llm.Usage, bool) {
	if turn.Usage != nil {
		return *turn.Usage, false
	}
	out := estimateTokens(turn.Text) + estimateTokens(turn.Reasoning)
	for _, tc := range turn.ToolCalls {
		out += estimateTokens(tc.Name) + estimateTokens(tc.Arguments)
	}
	return llm.Usage{PromptTokens: promptEstimate, CompletionTokens: out, TotalTokens: promptEstimate + out}, true
}

func answerScope(a approval.Answer) string {
	switch a {
	case approval.AllowOnce:
		return "once"
	case approval.AllowSession:
		return "session"
	case approval.AllowAlways:
		return "always"
	}
	return ""
}

// commandsMessage gives the model the output of the CMD: lines it proposed.
func commandsMessage(outputs []string) llm.Message {
	return llm.Message{Role: llm.RoleUser, Content: "[local.exec] Output of the commands you proposed:\n\n" + strings.Join(outputs, "\n\n")}
}
