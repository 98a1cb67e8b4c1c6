package servers

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/tools"
)

// ServerTools is a server's current tool list, sent by its actor to the
// registry when it connects and when the server announces a change.
type ServerTools struct {
	Alias  string
	Server config.Server
	PID    *actor.PID
	Tools  []*sdk.Tool
	// NotLoaded are the tools the server left out itself, and why
	// (Options.NotLoaded).
	NotLoaded []tools.Rejected
}

// GetCatalog asks the registry for the merged catalog; the answer is a
// *tools.Catalog, immutable and safe to share.
type GetCatalog struct{}

// WatchCatalog subscribes PID to *CatalogChanged; the current catalog is
// sent at once.
type WatchCatalog struct{ PID *actor.PID }

// CatalogChanged carries a new catalog after any server's tools changed.
type CatalogChanged struct{ Catalog *tools.Catalog }

// SetDisabledTools changes which tools of a server the catalog leaves out
// (config.Server.DisabledTools, by the server's names for them), at once.
type SetDisabledTools struct {
	Alias string
	Tools []string
}

// ReviewTool says the person releases a quarantined tool (by display
// name) as it is now, having read it: it is offered to the model from now
// on. Only an explicit choice sends it (mcp review's yes, the tools page's
// Offer it to the model), never showing the tool. The answer
// is a *Done (Err when the tool is unknown).
type ReviewTool struct{ Tool string }

// Settle says a burst of changes is over (a start, with every server
// ready): the registry lets go of what only the next change reads, the
// catalog builders' indexes (tools.Builder.Settle) and the memo of
// definitions' flags, made again by that change. The answer is a *Done.
type Settle struct{}

// GetServerListing asks the registry for a server's whole listing, the
// tools its disabled_tools leave out of the catalog included; the answer is
// a *ServerListing.
type GetServerListing struct{ Alias string }

// ServerListing answers GetServerListing.
type ServerListing struct {
	Tools    []tools.Tool    // sorted by name
	Disabled map[string]bool // by the server's name for the tool
	// Quarantined: tools with a high-risk flag the person has not looked
	// at, not offered to the model (by the server's name for the tool).
	Quarantined map[string]bool
}

type (
	serverSpawned struct {
		alias  string
		server config.Server
		pid    *actor.PID
		line   *serverLine
		cached []*sdk.Tool // the server's tools of its last connection, offered until it lists its own
	}
	serverRemoved struct{ alias string }
)

type registryEntry struct {
	pid       *actor.PID
	line      *serverLine
	server    config.Server
	tools     []*sdk.Tool
	notLoaded []tools.Rejected
	listed    bool // tools have been listed at least once (or come from the last connection)
	cached    bool // tools come from the last connection: not listed by this one yet
}

// registryActor keeps the merged catalog: when a server's tools change it
// changes that server's part (tools.Builder: the work grows with that
// server's tools, not with the catalog) and swaps the new, immutable
// catalog into the router (router.go), which routes the calls; it is on no
// call's path.
type registryActor struct {
	log     *slog.Logger
	router  *Router
	pins    *Pins // nil: no pins kept
	servers map[string]*registryEntry
	catalog *tools.Catalog // what the model is offered: disabled, quarantined and app-only tools left out
	full    *tools.Catalog // every listed tool: for pins and the servers panel
	// quarantined: tools of full with a high-risk flag the person has not
	// released (by display name); replaced, never changed, once published.
	quarantined map[string]bool
	// quarantinedBy: the same by server, to replace one server's share.
	quarantinedBy map[string][]string
	watchers      []*actor.PID
	// fullB builds full; offeredB builds catalog while some server has
	// tools left out (leftOut), and is nil (catalog is full) otherwise.
	fullB, offeredB *tools.Builder
	leftOut         map[string]bool
	// memo keeps each definition's own flags for the round of one change:
	// both builders read a new definition once.
	memo *tools.Memo
}

func newRegistry(log *slog.Logger, pins *Pins, r *Router) *registryActor {
	memo := &tools.Memo{}
	return &registryActor{
		log:     log.With("actor", "registry"),
		router:  r,
		pins:    pins,
		servers: map[string]*registryEntry{},
		memo:    memo,
		catalog: tools.NewCatalog(nil),
		full:    tools.NewCatalog(nil),
		fullB:   tools.NewBuilder(memo),

		quarantinedBy: map[string][]string{},
		leftOut:       map[string]bool{},
	}
}

func (a *registryActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *serverSpawned:
		a.servers[m.alias] = &registryEntry{pid: m.pid, line: m.line, server: m.server}
		if len(m.cached) > 0 {
			e := a.servers[m.alias]
			e.tools, e.listed, e.cached = m.cached, true, true
			a.rebuild(c, m.alias)
		} else {
			a.publish()
		}
	case *serverRemoved:
		if e, ok := a.servers[m.alias]; ok {
			delete(a.servers, m.alias)
			if e.listed {
				a.rebuild(c, m.alias)
			} else {
				a.publish()
			}
		}
	case *ServerTools:
		e, ok := a.servers[m.Alias]
		if !ok || !e.pid.Equal(m.PID) {
			return // from a server that has been removed (or replaced)
		}
		e.tools, e.notLoaded, e.listed, e.cached = m.Tools, m.NotLoaded, true, false
		a.rebuild(c, m.Alias)
	case *SetDisabledTools:
		if e, ok := a.servers[m.Alias]; ok {
			e.server.DisabledTools = slices.Clone(m.Tools)
			if e.listed {
				a.rebuild(c, m.Alias)
			} else {
				a.publish()
			}
		}
	case *ReviewTool:
		t, ok := a.full.Lookup(m.Tool)
		if !ok {
			c.Respond(&Done{Err: fmt.Errorf("unknown tool %q", m.Tool)})
			return
		}
		if a.pins != nil && a.pins.Quarantined(t) {
			a.pins.Review(t)
			a.log.Info("a quarantined tool was released: offered from now on", "tool", t.Display)
			a.rebuild(c, t.Server)
		}
		c.Respond(&Done{})
	case *Settle:
		a.fullB.Settle()
		if a.offeredB != nil {
			a.offeredB.Settle()
		}
		a.memo.Round()
		a.memo.Round() // what the last round used goes too
		c.Respond(&Done{})
	case *GetServerListing:
		out := &ServerListing{Tools: a.full.Server(m.Alias), Disabled: map[string]bool{}, Quarantined: map[string]bool{}}
		for _, t := range out.Tools {
			if a.quarantined[t.Display] {
				out.Quarantined[t.Name] = true
			}
		}
		if e, ok := a.servers[m.Alias]; ok {
			for _, name := range e.server.DisabledTools {
				out.Disabled[name] = true
			}
		}
		c.Respond(out)
	case *GetCatalog:
		c.Respond(a.catalog)
	case *WatchCatalog:
		// Once per watcher: one that asks again (restarted, with the same
		// PID) gets the catalog again, and each change once.
		if !slices.ContainsFunc(a.watchers, m.PID.Equal) {
			a.watchers = append(a.watchers, m.PID)
			c.Watch(m.PID)
		}
		c.Send(m.PID, &CatalogChanged{Catalog: a.catalog})
	case *actor.Terminated:
		a.watchers = slices.DeleteFunc(a.watchers, func(p *actor.PID) bool { return p.Equal(m.Who) })
	case *CallTool:
		// The router's work, for a sender that asks the registry.
		a.router.Dispatch(context.Background(), c.ActorSystem().Root, m, c.Sender())
	case *CancelCall:
		a.router.Cancel(c.ActorSystem().Root, m.ID, m.Tool)
	}
}

// rebuild changes the catalogs for one server's change (tools, settings,
// a review; gone when it is no longer in servers): its part, and those of
// the servers whose flags that changes (the builders say which).
func (a *registryActor) rebuild(c actor.Context, alias string) {
	a.memo.Round()
	e := a.servers[alias]
	if e == nil {
		a.full = a.fullB.Remove(alias)
	} else {
		a.full = a.fullB.Set(alias, a.source(e))
	}
	changed := slices.Clone(a.fullB.Changed())

	q := maps.Clone(a.quarantined)
	if q == nil {
		q = map[string]bool{}
	}
	for _, s := range changed {
		for _, d := range a.quarantinedBy[s] {
			delete(q, d)
		}
		delete(a.quarantinedBy, s)
		for _, t := range a.full.Server(s) {
			if a.pins.Quarantined(t) {
				q[t.Display] = true
				a.quarantinedBy[s] = append(a.quarantinedBy[s], t.Display)
			}
		}
	}
	a.quarantined = q

	// Disabled and quarantined tools are neither offered nor found by
	// tool_search, and calls to them are refused; they stay pinned.
	offered := map[string]tools.Source{}
	for _, s := range changed {
		src, out := a.offered(s)
		offered[s] = src
		if out {
			a.leftOut[s] = true
		} else {
			delete(a.leftOut, s)
		}
	}
	switch {
	case len(a.leftOut) == 0:
		a.offeredB, a.catalog = nil, a.full
	case a.offeredB == nil:
		a.offeredB = tools.NewBuilder(a.memo)
		for s := range a.servers {
			src, _ := a.offered(s)
			a.offeredB.Set(s, src)
		}
		a.catalog = a.offeredB.Catalog()
	default:
		for _, s := range changed {
			if a.servers[s] == nil {
				a.catalog = a.offeredB.Remove(s)
			} else {
				a.catalog = a.offeredB.Set(s, offered[s])
			}
		}
	}

	if a.pins != nil && e != nil && e.listed {
		news := a.pins.observe(a.full, []string{alias})
		for _, t := range news.Accepted {
			a.log.Info("a trusted server changed a tool's definition: accepted", "tool", t)
		}
		for _, t := range news.Added {
			a.log.Info("a known server added a tool", "tool", t)
		}
		for _, t := range news.Gone {
			a.log.Info("a tool is gone from its server's listing", "tool", t)
		}
	}
	a.publish()
	for _, w := range a.watchers {
		c.Send(w, &CatalogChanged{Catalog: a.catalog})
	}
}

// source is a server's tools for the full catalog.
func (a *registryActor) source(e *registryEntry) tools.Source {
	return tools.Source{Tools: e.tools, Trusted: e.server.Trusted, ReadOnly: e.server.ReadOnly.Has, Cached: e.cached, NotLoaded: e.notLoaded}
}

// offered is a server's tools for the catalog the model is offered, and
// whether any is left out (disabled, quarantined or app-only).
func (a *registryActor) offered(alias string) (tools.Source, bool) {
	e := a.servers[alias]
	if e == nil {
		return tools.Source{}, false
	}
	src := a.source(e)
	// An MCP App's app-only tool (_meta.ui.visibility ["app"]) is for its
	// views: the model is not offered it (the views' calls find it in the
	// full catalog, Router.AppTool).
	appOnly := func(t *sdk.Tool) bool { return tools.VisibilityOf(t).HiddenFromModel }
	if len(e.server.DisabledTools) == 0 && len(a.quarantinedBy[alias]) == 0 && !slices.ContainsFunc(src.Tools, appOnly) {
		return src, false
	}
	src.Tools = slices.DeleteFunc(slices.Clone(src.Tools), func(t *sdk.Tool) bool {
		return t != nil && (slices.Contains(e.server.DisabledTools, t.Name) || a.quarantined[alias+"."+t.Name] || appOnly(t))
	})
	return src, len(src.Tools) < len(e.tools)
}

// publish swaps the current catalog and servers into the router.
func (a *registryActor) publish() {
	rs := &routes{catalog: a.catalog, full: a.full, quarantined: a.quarantined, servers: make(map[string]route, len(a.servers))}
	for alias, e := range a.servers {
		rs.servers[alias] = route{pid: e.pid, line: e.line, disabled: slices.Clone(e.server.DisabledTools), listed: e.listed}
	}
	a.router.store(rs)
}
