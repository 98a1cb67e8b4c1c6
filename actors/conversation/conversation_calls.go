package conversation

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

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

// The calls of one turn: each is resolved and checked, put through the
// gate (asking the person when no rule or grant allows it), dispatched, and
// answered; then the results go back to the model.

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
	lazy := len(a.surface.Lazy) > 0
	for _, tc := range calls {
		cs := &callState{id: tc.ID, args: json.RawMessage(tc.Arguments)}
		cs.req = toolcall.Unresolved(tc.ID, tc.Name, cs.args)
		out = append(out, cs)
		if tc.Name == request.ToolSearchName && lazy {
			cs.req.Server, cs.req.Tool, cs.req.Display = "local", request.ToolSearchName, request.ToolSearchDisplay
			cs.done, cs.local = true, true
			output, newly, err := request.Search(a.catalog, a.surface, a.loaded, cs.args)
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
			continue
		}
		if toolcall.IsShell(tc.Name) && !a.policy().AllowExec {
			// Not offered without policy.allow_exec (the built-in server
			// leaves it out), but a model may call it by name, and a
			// catalog kept from an earlier connection may still list it.
			cs.req.Server, cs.req.Tool, cs.req.Display = config.LocalAlias, toolcall.ShellTool, config.LocalAlias+"."+toolcall.ShellTool
			cs.decisions = []policy.Decision{toolcall.ShellOff(a.deps.cfg.Shell.Disabled)}
			out := approval.Decide(cs.req, tools.Tool{}, approval.Pin{}, cs.decisions, approval.Granted{}, nil)
			cs.done, cs.isError, cs.output = true, true, out.Err.Error()
			continue
		}
		t, refusal, ok := toolcall.Resolve(a.catalog, tc.Name, lazy)
		if !ok {
			cs.done, cs.isError, cs.output = true, true, refusal
			continue
		}
		if a.surface.Lazy[t.Display] && !a.loaded[t.Display] {
			// Called before it was found: no need to waste a turn.
			a.loaded[t.Display] = true
			loaded = append(loaded, loadedTools{[]string{t.Display}, "called"})
		}
		cs.tool = t
		args, refusal, ok := toolcall.Arguments(a.deps.validator, t, tc.Arguments)
		if ok {
			cs.args = args
		}
		cs.req = toolcall.Request(tc.ID, t, cs.args)
		if a.deps.pins != nil {
			if fresh, since := a.deps.pins.Fresh(t.Display); fresh {
				cs.req.Warnings = append(slices.Clone(cs.req.Warnings), servers.NewToolWarning(t.Server, since))
			}
		}
		if !ok {
			cs.done, cs.isError, cs.output = true, true, refusal
			continue
		}
		a.checkPaths(cs)
	}
	for i, cmd := range commands {
		cs := &callState{id: fmt.Sprintf("cmd-%d", i+1), command: cmd}
		cs.req = toolcall.CommandRequest(cs.id, cmd, a.deps.cfg.Shell.Program)
		cs.args = cs.req.Arguments
		// What a person approves must be exactly what runs: a command
		// holding what the screen would not show (an escape sequence that
		// redraws "echo hello" over "touch …") is refused before anyone is
		// asked (a refusal is final, so it is applied here).
		if out := approval.Decide(cs.req, tools.Tool{}, approval.Pin{}, nil, approval.Granted{}, nil); out.Verdict == approval.Refuse {
			cs.done, cs.isError, cs.output = true, true, out.Err.Error()
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
			before := cs.req
			out := approval.Decide(cs.req, cs.tool, a.pinOf(cs), cs.decisions,
				approval.Granted{Session: a.grants, Always: a.deps.always}, approval.Rules(a.deps.cfg.MCP.AutoApprove))
			cs.req = out.Request
			if out.Changed(before) {
				a.emit(c, &ToolDefinitionChanged{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Change: cs.req.Change})
			}
			switch out.Verdict {
			case approval.Allow:
				cs.decided, cs.allowed = true, true
				a.emit(c, &ApprovalDecided{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Allowed: true, Scope: out.Scope(), By: out.By})
				continue
			case approval.Refuse: // not reached: prepare applied the refusals
				a.finishCall(c, cs, out.Err.Error(), true, false)
				continue
			}
			a.ask(c, cs) // Ask: out.Request is what the person is shown
			return
		}
		busy := false
		for _, cs := range r.segment {
			switch {
			case cs.done:
			case cs.running:
				busy = true
			case !cs.allowed:
				out := toolcall.DeniedText
				if cs.denyReason != "" {
					out = toolcall.DeniedBecause(string(cs.denyReason))
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

// checkPaths applies the policy to the paths a call of a local server's
// tool names; one outside the roots refuses the call, and the model is
// told which path and which roots.
func (a *conversationActor) checkPaths(cs *callState) {
	srv, configured := a.deps.cfg.MCP.Servers[cs.tool.Server]
	if configured && !srv.IsStdio() {
		return // a remote server's paths are on another machine
	}
	// Read-only as the person's config or a trusted server says; an
	// untrusted server's readOnlyHint must not move the check to the
	// read roots.
	readOnly := cs.tool.ReadOnly
	cs.decisions = a.policy().CheckPaths(srv, cs.tool.Def, cs.args, readOnly)
	// The policy's refusal is final (it comes first in the gate), so it is
	// applied here, before the calls are announced; process runs the whole
	// gate again when the call's turn comes.
	out := approval.Decide(cs.req, cs.tool, approval.Pin{}, cs.decisions, approval.Granted{}, nil)
	cs.req = out.Request // with what the policy allows, as Access
	if out.Verdict == approval.Refuse {
		cs.done, cs.isError, cs.output = true, true, out.Err.Error()
	}
}

// policy is the capability policy of the conversation's config.
func (a *conversationActor) policy() *policy.Policy {
	if a.pol == nil || a.polFor != a.deps.cfg {
		a.pol, a.polFor = policy.New(a.deps.cfg, a.deps.lookupEnv), a.deps.cfg
	}
	return a.pol
}

// pinOf is what the gate compares cs's tool with: its pin now (the zero
// Pin for a command, or when no pins are kept).
func (a *conversationActor) pinOf(cs *callState) approval.Pin {
	if cs.isCommand() || a.deps.pins == nil {
		return approval.Pin{}
	}
	return a.deps.pins.Gate(cs.tool.Display)
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
	cs.askID = store.NewID("ask")
	r.asking = cs
	timeout := a.deps.cfg.MCP.ApprovalTimeout
	self, root, runID, askID := c.Self(), c.ActorSystem().Root, r.id, cs.askID
	cs.timer = time.AfterFunc(timeout, func() { root.Send(self, &approvalTimedOut{run: runID, id: askID}) })
	a.emit(c, &ApprovalRequested{Conversation: a.id, Run: r.id, ID: cs.askID, Request: cs.req, Deadline: time.Now().Add(timeout)})
}

// answered applies a person's answer (or a timeout's deny) and moves on.
func (a *conversationActor) answered(c actor.Context, id string, ans approval.Answer, reason approval.Reason) {
	r := a.run
	if r == nil || r.asking == nil || r.asking.askID != id {
		return // late, or for a run that was stopped
	}
	cs := r.asking
	r.asking = nil
	cs.timer.Stop()
	if cs.req.OnceOnly && ans.Allowed() {
		ans = approval.AllowOnce // a shell command is asked each time
	}
	switch ans {
	case approval.AllowSession:
		a.grants[cs.req.Display] = true
	case approval.AllowAlways:
		if err := a.deps.always.Grant(cs.req.Display, "user"); err != nil {
			a.emit(c, &Notice{Conversation: a.id, Run: r.id, Text: "could not keep the grant: " + err.Error()})
		}
	}
	cs.decided, cs.allowed = true, ans.Allowed()
	if cs.allowed && cs.req.Change != "" && a.deps.pins != nil {
		a.deps.pins.Accept(cs.tool) // the person approved the new definition
	}
	if !cs.allowed && !reason.IsAnswered() {
		cs.denyReason = reason
	}
	a.emit(c, &ApprovalDecided{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Allowed: cs.allowed, Scope: ans.Scope(), By: reason.By()})
	a.emit(c, &ApprovalClosed{Conversation: a.id, ID: id, Answer: ans, Reason: reason})
	a.process(c)
}

// dispatch runs an allowed call: a command here, a tool call through the
// router, which sends exactly the definition that was checked and shown
// (Resolved) to its server, and refuses the call if that server has
// redefined the tool since. Stopping the run cancels the call.
func (a *conversationActor) dispatch(c actor.Context, cs *callState, parallel bool) {
	r := a.run
	cs.running, cs.start = true, time.Now()
	a.emit(c, &ToolCallStarted{Conversation: a.id, Run: r.id, Call: cs.id, Tool: cs.req.Display, Arguments: cs.args, Parallel: parallel})
	if cs.isCommand() {
		self, root := c.Self(), c.ActorSystem().Root
		ctx, runID, sh, mcpCfg, pol := r.ctx, r.id, a.deps.cfg.Shell, a.deps.cfg.MCP, a.policy()
		go func() {
			out, failed := runCommand(ctx, a.deps.commands, pol, sh.Program, cs.command, mcpCfg.ToolTimeout, mcpCfg.MaxOutputBytes)
			root.Send(self, &execDone{run: runID, call: cs.id, output: out, failed: failed})
		}()
		return
	}
	t := cs.tool
	a.deps.router.Dispatch(r.ctx, c.ActorSystem().Root, &servers.CallTool{
		ID:         r.id + "/" + cs.id,
		Tool:       t.Display,
		Resolved:   &t,
		Args:       cs.args,
		ProgressTo: c.Self(),
		Origin:     servers.CallOrigin{Conversation: a.id, Run: r.id, Call: cs.id},
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
		Output: output, IsError: isError, Denied: denied, Elapsed: elapsed, ServerElapsed: cs.inServer, Media: cs.media})
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
		a.history = append(a.history, toolcall.CommandsMessage(outputs))
	}
	r.calls, r.segment = nil, nil
}
