package conversation

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/policy"
	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/tools"
)

// Calls from a tool's view (an MCP App, package apps): a view may call the
// tools of its own server, and each call passes the same gate as the
// model's (the policy, the tool's pin, the session's and the person's
// grants, the config's rules, else the person is asked), shown and logged
// as "from the view of server.tool". It is no part of any run: the model
// does not see it, and it goes on between runs, each on a goroutine of its
// own (as a run is), which shares with the actor only what is safe: the
// immutable view, the pins and the "always" grants; its question's answer
// comes to it directly (ApprovalRequested.Reply), as a run's does. The session's grants belong to a run while one is in
// progress: a view's call then sees the "always" grants and the rules
// only (it is asked more, never less), and its "allow for this session"
// is kept until the run hands the grants back.

type (
	// CallFromView asks the conversation to call a tool for a view.
	CallFromView struct {
		View  string // server.tool whose view makes the call
		Tool  string // the tool's name on the view's server
		Args  json.RawMessage
		Reply chan<- ViewCallResult // given exactly one result; buffered by the caller
	}
	// ViewCallResult answers CallFromView: the server's result, or a
	// result with IsError saying why the call was refused or denied; Err
	// is a failure to get any result.
	ViewCallResult struct {
		Result *sdk.CallToolResult
		Err    error
	}
	// ViewCallFinished is a view's call ended (run, failed, refused or
	// denied): an event for the log and the window.
	ViewCallFinished struct {
		Conversation, Call, Tool string
		Origin                   string // "the view of server.tool"
		Arguments                json.RawMessage
		Output                   string
		IsError, Denied          bool
		// Refused: Deckhand refused it before it could run (a tool it
		// does not know or withholds, arguments its schema refuses, the
		// policy, the gate), as ToolCallFinished.Refused; not a denial.
		Refused bool
	}
	// viewGranted: the person allowed a view's call for this session.
	viewGranted struct{ tool string }
)

// viewCalls are the views' calls of one conversation.
type viewCalls struct {
	ctx    context.Context // ended when the conversation stops
	cancel context.CancelFunc
	n      int      // calls so far (the actor's)
	held   []string // session grants given while a run held the grants (the actor's)
}

func (a *conversationActor) viewCalls() *viewCalls {
	if a.views == nil {
		ctx, cancel := context.WithCancel(context.Background())
		a.views = &viewCalls{ctx: ctx, cancel: cancel}
	}
	return a.views
}

// stopViewCalls ends the views' calls in flight and their questions (the
// conversation stops).
func (a *conversationActor) stopViewCalls() {
	if a.views != nil {
		a.views.cancel()
	}
}

// viewGrant keeps a view's "allow for this session": in the session's
// grants, or until the run that holds them hands them back.
func (a *conversationActor) viewGrant(m *viewGranted) {
	if a.grants == nil {
		a.viewCalls().held = append(a.viewCalls().held, m.tool)
		return
	}
	a.grants[m.tool] = true
}

// mergeViewGrants adds the grants held while a run had the session's.
func (a *conversationActor) mergeViewGrants() {
	if a.views == nil || a.grants == nil {
		return
	}
	for _, t := range a.views.held {
		a.grants[t] = true
	}
	a.views.held = nil
}

// callFromView starts a view's call on a goroutine of its own.
func (a *conversationActor) callFromView(c actor.Context, m *CallFromView) {
	vc := a.viewCalls()
	vc.n++
	a.mergeViewGrants()
	root, self := c.ActorSystem().Root, c.Self()
	call := a.deps.call
	if call == nil {
		router := a.deps.router
		call = func(ctx context.Context, m *servers.CallTool, progress func(*servers.ToolProgress)) (*servers.ToolResult, error) {
			return router.Call(ctx, root, m, progress)
		}
	}
	r := &viewCallRun{
		id: fmt.Sprintf("view-%d", vc.n), conv: a.id, m: m, deps: a.deps, v: a.view.Load(), grants: maps.Clone(a.grants),
		calls: vc, call: call, send: root.Send, granted: func(tool string) { root.Send(self, &viewGranted{tool: tool}) },
	}
	if r.grants == nil {
		r.grants = approval.Grants{}
	}
	go r.run(vc.ctx)
}

// viewCallRun is one view's call, on its own goroutine.
type viewCallRun struct {
	id, conv string
	m        *CallFromView
	deps     convDeps
	v        *view
	grants   approval.Grants // a copy of the session's at the start
	calls    *viewCalls
	call     callFunc
	send     func(*actor.PID, any)
	granted  func(tool string) // tells the actor of a session grant
}

// ViewOrigin begins the Origin of a view's call: "the view of server.tool".
const ViewOrigin = "the view of "

func (r *viewCallRun) emit(msg any) {
	for _, w := range r.v.watchers {
		r.send(w, msg)
	}
}

func (r *viewCallRun) run(ctx context.Context) {
	m := r.m
	origin := ViewOrigin + m.View
	server, _, _ := strings.Cut(m.View, ".")
	display := server + "." + m.Tool
	args := m.Args
	refuse := func(output string, denied bool) {
		r.emit(&ViewCallFinished{Conversation: r.conv, Call: r.id, Tool: display, Origin: origin, Arguments: args,
			Output: output, IsError: true, Denied: denied, Refused: !denied})
		m.Reply <- viewRefusal(output)
	}
	t, ok := r.v.catalog.Lookup(display)
	if !ok && r.deps.router != nil {
		t, ok = r.deps.router.AppTool(display) // for its views only: the model is not offered it
	}
	if !ok || t.Server != server {
		if w, held := r.withheld(server, display); held {
			// Known but withheld: said with why, in the words the
			// model is told (names only, never the tool's text), which
			// the card and the export read back.
			refuse(w.Refusal(), false)
			return
		}
		refuse(fmt.Sprintf("%s has no tool %q", server, m.Tool), false)
		return
	}
	checked, refusal, ok := toolcall.Arguments(r.deps.validator, t, string(m.Args))
	if !ok {
		refuse(refusal, false)
		return
	}
	args = checked
	req := toolcall.Request(r.id, t, args)
	req.Origin = origin
	decisions := r.paths(t, args)
	req, err := approval.Check(req, decisions)
	if err != nil {
		refuse(err.Error(), false)
		return
	}
	pin := approval.Pin{}
	if r.deps.pins != nil {
		pin = r.deps.pins.Gate(t.Display)
	}
	before := req
	out := approval.Decide(req, t, pin, decisions, approval.Granted{Session: r.grants, Always: r.deps.always},
		approval.Rules(r.v.cfg.MCP.AutoApprove))
	req = out.Request
	if out.Changed(before) {
		r.emit(&ToolDefinitionChanged{Conversation: r.conv, Call: r.id, Tool: t.Display, Change: req.Change})
	}
	switch out.Verdict {
	case approval.Refuse:
		refuse(out.Err.Error(), false)
		return
	case approval.Allow:
		r.emit(&ApprovalDecided{Conversation: r.conv, Call: r.id, Tool: t.Display, Allowed: true, Scope: out.Scope(), By: out.By})
	default:
		ans, reason, ok := r.ask(ctx, req)
		if !ok {
			m.Reply <- ViewCallResult{Err: fmt.Errorf("the conversation was closed")}
			return
		}
		if !ans.Allowed() {
			text := toolcall.DeniedText
			if !reason.IsAnswered() {
				text = toolcall.DeniedBecause(string(reason))
			}
			refuse(text, true)
			return
		}
		switch ans {
		case approval.AllowSession:
			r.granted(t.Display)
		case approval.AllowAlways:
			r.deps.always.Grant(t.Display, "user")
		}
		if req.Change != "" && r.deps.pins != nil {
			r.deps.pins.Accept(t) // the person approved the new definition
		}
	}
	r.dispatch(ctx, t, args, origin)
}

// withheld says why the view may not call display, a tool of its own
// server (server) that Deckhand knows but withholds, as the model's call
// is told (run.resolve): left out of the catalog (its name, not loaded),
// quarantined, unchecked, or its server turned off. Of another server's
// tools it says nothing.
func (r *viewCallRun) withheld(server, display string) (toolcall.Withheld, bool) {
	w, ok := toolcall.LeftOut(r.v.catalog, display)
	if !ok && r.deps.router != nil {
		w, ok = withheld(r.deps.router, r.v.cfg.MCP.Servers, display)
	} else if !ok {
		w, ok = toolcall.Off(r.v.cfg.MCP.Servers, display)
	}
	return w, ok && w.Server == server
}

// paths are the policy's decisions on the paths the call names (a local
// server's tools only: a remote server's paths are on another machine).
func (r *viewCallRun) paths(t tools.Tool, args json.RawMessage) []policy.Decision {
	srv, configured := r.v.cfg.MCP.Servers[t.Server]
	if configured && !srv.IsStdio() {
		return nil
	}
	return r.v.pol.CheckPaths(srv, t.Def, args, t.ReadOnly)
}

// ask is the question to the person: ApprovalRequested, then its Reply,
// the timeout (a deny), or the conversation's end (ok false).
func (r *viewCallRun) ask(ctx context.Context, req approval.Request) (ans approval.Answer, reason approval.Reason, ok bool) {
	id := store.NewID("ask")
	timeout := r.v.cfg.MCP.ApprovalTimeout
	q := newQuestion()
	r.emit(&ApprovalRequested{Conversation: r.conv, ID: id, Request: req, Deadline: time.Now().Add(timeout), Reply: q.reply})
	a, ok := q.wait(ctx, timeout)
	if !ok {
		r.emit(&ApprovalClosed{Conversation: r.conv, ID: id, Answer: approval.Deny, Reason: "the conversation was closed"})
		return approval.Deny, "", false
	}
	ans, reason = a.ans, a.reason
	r.emit(&ApprovalDecided{Conversation: r.conv, Call: r.id, Tool: req.Display, Allowed: ans.Allowed(), Scope: ans.Scope(), By: reason.By()})
	r.emit(&ApprovalClosed{Conversation: r.conv, ID: id, Answer: ans, Reason: reason})
	return ans, reason, true
}

// dispatch runs an allowed call on its server, exactly as checked
// (Resolved), and gives the view the server's result.
func (r *viewCallRun) dispatch(ctx context.Context, t tools.Tool, args json.RawMessage, origin string) {
	secrets := r.deps.secrets.Get()
	res, err := r.call(ctx, &servers.CallTool{ID: "view/" + r.id, Tool: t.Display, Resolved: &t, Args: args,
		Origin: servers.CallOrigin{Conversation: r.conv, Call: r.id}}, nil)
	var result *sdk.CallToolResult
	if err == nil {
		result, err = res.Result, res.Err
	}
	output, failed := toolcall.Output(result, err, toolcall.Limit(r.v.cfg.MCP.MaxOutputBytes, r.v.cfg.Model.MaxContextTokens))
	if err != nil {
		r.m.Reply <- ViewCallResult{Err: fmt.Errorf("calling %s: %s", t.Display, secrets.String(err.Error()))}
	} else {
		r.m.Reply <- ViewCallResult{Result: result}
	}
	r.emit(&ViewCallFinished{Conversation: r.conv, Call: r.id, Tool: t.Display, Origin: origin, Arguments: args,
		Output: secrets.String(output), IsError: failed})
}

func viewRefusal(text string) ViewCallResult {
	return ViewCallResult{Result: &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}}
}
