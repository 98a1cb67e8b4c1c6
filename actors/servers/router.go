package servers

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/toolcall"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// router routes tool calls to their servers without an actor in the way.
// The registry actor builds each catalog and swaps it in whole (routes is
// immutable once stored); callers resolve and dispatch on their own
// goroutine. A call to a server that is connected runs on that server's
// live connection (line.go) straight away; any other goes to the server's
// actor, which queues it for a connection under way or says why it cannot
// be made. Safe for concurrent use; a nil *Router routes nothing.
type Router struct {
	v atomic.Pointer[routes]
}

// routes is one catalog and where each of its servers is.
type routes struct {
	catalog *tools.Catalog // what the model is offered: disabled, quarantined and app-only tools left out
	full    *tools.Catalog // every listed tool
	// quarantined: tools of full kept from the model until the person has
	// looked at them (by display name; read only).
	quarantined map[string]bool
	servers     map[string]route
}

// route is one server, as the registry last saw it.
type route struct {
	pid      *actor.PID
	line     *serverLine // its live connection, when it has one
	disabled []string    // by the server's name for the tool
	listed   bool        // its tools have been listed (or come from its last connection)
}

var emptyRoutes = &routes{catalog: tools.NewCatalog(nil), full: tools.NewCatalog(nil)}

func (r *Router) load() *routes {
	if r == nil {
		return emptyRoutes
	}
	if v := r.v.Load(); v != nil {
		return v
	}
	return emptyRoutes
}

func (r *Router) store(v *routes) { r.v.Store(v) }

// Catalog is the catalog the model is offered now.
func (r *Router) Catalog() *tools.Catalog { return r.load().catalog }

// target is where a resolved call goes.
type target struct {
	route   route
	tool    string // the server's name for it
	display string
}

// resolve finds a call's server and tool. A call that cannot be made (an
// unknown or disabled tool, a definition changed since it was checked) is
// answered with res.
func (r *Router) resolve(m *CallTool) (t target, res *ToolResult) {
	rs := r.load()
	refuse := func(display string, err error) (target, *ToolResult) {
		return target{}, &ToolResult{ID: m.ID, Tool: display, Err: err}
	}
	if want := m.Resolved; want != nil {
		if rs.disabled(want.Server, want.Name) {
			return refuse(want.Display, errDisabled(want.Display))
		}
		if rs.quarantined[want.Display] {
			return refuse(want.Display, ErrQuarantined(want.Display))
		}
		// In the full catalog: an app-only tool, which the model is not
		// offered, is called by its views (the gate decides who may call
		// what, approval.Decide).
		cur, ok := rs.full.Lookup(want.Display)
		e, known := rs.servers[want.Server]
		if !ok || !known || cur.Server != want.Server || cur.Name != want.Name || !toolcall.Same(cur.Def, want.Def) {
			return refuse(want.Display, fmt.Errorf("%s: %w", want.Display, toolcall.ErrChanged))
		}
		return target{e, want.Name, want.Display}, nil
	}
	if cur, ok := rs.catalog.Lookup(m.Tool); ok {
		return target{rs.servers[cur.Server], cur.Name, cur.Display}, nil
	}
	if cur, ok := rs.full.Lookup(m.Tool); ok && rs.disabled(cur.Server, cur.Name) {
		return refuse(cur.Display, errDisabled(cur.Display))
	}
	if cur, ok := rs.full.Lookup(m.Tool); ok && rs.quarantined[cur.Display] {
		return refuse(cur.Display, ErrQuarantined(cur.Display))
	}
	if cur, ok := rs.full.Lookup(m.Tool); ok && !cur.Visibility.ForModel() {
		return refuse(cur.Display, ErrAppOnly(cur.Display))
	}
	alias, name, found := strings.Cut(m.Tool, ".")
	if found && rs.disabled(alias, name) {
		return refuse(m.Tool, errDisabled(m.Tool))
	}
	if e, ok := rs.servers[alias]; ok && found && !e.listed {
		// Not connected yet: the server actor says why, and calls a tool
		// it cannot check.
		return target{e, name, m.Tool}, nil
	}
	err := fmt.Errorf("unknown tool %q", m.Tool)
	if found {
		if _, ok := rs.servers[alias]; !ok {
			err = fmt.Errorf("unknown tool %q: no server named %q", m.Tool, alias)
		} else {
			err = fmt.Errorf("unknown tool %q: server %s has no tool named %q", m.Tool, alias, name)
		}
	}
	if s := rs.catalog.Suggest(m.Tool, 3); len(s) > 0 {
		err = fmt.Errorf("%w (did you mean %s?)", err, strings.Join(s, ", "))
	}
	return refuse(m.Tool, err)
}

func errDisabled(display string) error {
	return fmt.Errorf("tool %s is disabled (disabled_tools in the config)", display)
}

// ErrQuarantined says why a tool is not offered, and how to release it.
func ErrQuarantined(display string) error {
	return fmt.Errorf("tool %s is quarantined: its definition has high-risk flags and has not been looked at (%s)", display, HowToRelease(display))
}

// ErrAppOnly says why the model may not call a tool an MCP App's server
// made for its views only.
func ErrAppOnly(display string) error {
	return fmt.Errorf("tool %s is for its server's views only (_meta.ui.visibility [\"app\"]): it is not offered to the model, and only a view may call it", display)
}

// AppTool is the tool a view may call by its display name (server.tool)
// that the model is not offered: an app-only tool of the full catalog,
// neither disabled nor quarantined. ok is false for any other.
func (r *Router) AppTool(display string) (t tools.Tool, ok bool) {
	rs := r.load()
	t, ok = rs.full.Lookup(display)
	if !ok || t.Display != display || t.Visibility.ForModel() || rs.disabled(t.Server, t.Name) || rs.quarantined[t.Display] {
		return tools.Tool{}, false
	}
	return t, true
}

// HowToRelease says how a person releases a quarantined tool.
func HowToRelease(display string) string {
	return "run `deckhand mcp review " + display + "`, or open it in the window's servers panel"
}

// Quarantined lists the tools kept from the model until the person has
// looked at them, by display name.
func (r *Router) Quarantined() []tools.Tool {
	rs := r.load()
	var out []tools.Tool
	for _, t := range rs.full.Tools() {
		if rs.quarantined[t.Display] {
			out = append(out, t)
		}
	}
	return out
}

// Full is every listed tool, quarantined and disabled ones included.
func (r *Router) Full() *tools.Catalog { return r.load().full }

// disabled reports whether the config disables the server's tool name.
func (rs *routes) disabled(alias, name string) bool {
	e, ok := rs.servers[alias]
	return ok && slices.Contains(e.disabled, name)
}

// dispatch starts a call; its ToolResult (and ToolProgress, to
// m.ProgressTo) goes to from. A call on a live connection runs in a worker
// goroutine and ends when ctx does; one that waits for its server's
// connection is cancelled with CancelCall. dispatch never blocks.
func (r *Router) Dispatch(ctx context.Context, root *actor.RootContext, m *CallTool, from *actor.PID) {
	t, res := r.resolve(m)
	if res != nil {
		root.Send(from, res)
		return
	}
	if l := t.route.line.live(); l != nil && l.start(ctx, root, from, m, t.tool) {
		return
	}
	root.RequestWithCustomSender(t.route.pid, &serverCall{req: m, tool: t.tool}, from)
}

// cancel cancels the call id (to tool, a display or wire name), whether it
// runs on a live connection or waits in its server's actor.
func (r *Router) Cancel(root *actor.RootContext, id, tool string) {
	rs := r.load()
	alias, _, _ := strings.Cut(tool, ".")
	if t, ok := rs.full.Lookup(tool); ok {
		alias = t.Server
	}
	e, ok := rs.servers[alias]
	if !ok {
		return
	}
	if l := e.line.live(); l != nil {
		l.cancel(id)
	}
	root.Send(e.pid, &CancelCall{ID: id, Tool: tool})
}

// Call runs req and waits for its result, for a caller that is not an
// actor (a terminal command, a test). On a connected server the call runs on
// the caller's goroutine; one that must wait for its server's connection
// goes through the server's actor. progress, if not nil, is called for each
// progress notification. Cancelling ctx cancels the call on the server.
func (r *Router) Call(ctx context.Context, root *actor.RootContext, req *CallTool, progress func(*ToolProgress)) (*ToolResult, error) {
	t, res := r.resolve(req)
	if res != nil {
		return res, nil
	}
	if l := t.route.line.live(); l != nil {
		var each func(mcp.Progress)
		if progress != nil {
			each = func(p mcp.Progress) { progress(&ToolProgress{ID: req.ID, Tool: t.display, Progress: p}) }
		}
		if res, ok := l.call(ctx, req, t.tool, each); ok {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return res, nil
		}
	}
	in := newInbox(root.ActorSystem().ProcessRegistry, 16)
	defer in.close()
	if progress != nil {
		req.ProgressTo = in.pid
	}
	root.RequestWithCustomSender(t.route.pid, &serverCall{req: req, tool: t.tool}, in.pid)
	for {
		m, err := in.receive(ctx)
		if err != nil {
			r.Cancel(root, req.ID, req.Tool)
			return nil, err
		}
		switch m := m.(type) {
		case *ToolProgress:
			if progress != nil {
				progress(m)
			}
		case *ToolResult:
			return m, nil
		}
	}
}

// Live is the connection of the server alias while it has one, for
// commands that speak to one server directly (deckhand mcp task); nil
// otherwise.
func (r *Router) Live(alias string) *mcp.Conn {
	e, ok := r.load().servers[alias]
	if !ok {
		return nil
	}
	if l := e.line.live(); l != nil {
		return l.conn
	}
	return nil
}

// Has reports whether the router knows server alias (its route is made
// when the registry first hears of it).
func (r *Router) Has(alias string) bool {
	_, ok := r.load().servers[alias]
	return ok
}

// FollowTask follows task id of call (display: alias.tool), made before
// Deckhand last stopped, to its end: it waits for the server's connection
// (until ctx ends), polls the task there (AwaitTask) within the server's
// call timeout, and returns its result, secrets removed. An error wrapping
// mcp.ErrTaskExpired says the server no longer knows the task.
func (r *Router) FollowTask(ctx context.Context, call, display, id string) (*ToolResult, error) {
	alias, _, _ := strings.Cut(display, ".")
	e, ok := r.load().servers[alias]
	if !ok || e.line == nil {
		return nil, fmt.Errorf("server %s is not configured", alias)
	}
	for {
		l, err := e.line.next(ctx, nil)
		if err != nil {
			return nil, err
		}
		cctx, inflight, cancelTimeout, ok := l.begin(ctx, nil, &CallTool{ID: call, Tool: display}, display)
		if !ok {
			// Closed as it was read: wait for the next connection.
			if _, err := e.line.next(ctx, l); err != nil {
				return nil, err
			}
			continue
		}
		res, err := l.conn.AwaitTask(cctx, &mcp.Task{ID: id}, nil)
		return l.end(cctx, inflight, cancelTimeout, res, err, display, time.Now()), nil
	}
}
