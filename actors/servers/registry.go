package servers

import (
	"context"
	"fmt"
	"log/slog"
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

// ReviewTool says the person has looked at a quarantined tool (by display
// name) as it is now: it is offered to the model from now on. The answer
// is a *Done (Err when the tool is unknown).
type ReviewTool struct{ Tool string }

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
	pid    *actor.PID
	line   *serverLine
	server config.Server
	tools  []*sdk.Tool
	listed bool // tools have been listed at least once (or come from the last connection)
	cached bool // tools come from the last connection: not listed by this one yet
}

// registryActor keeps the merged catalog: it rebuilds it when a server's
// tools change and swaps it into the router (router.go), which routes the
// calls; it is on no call's path.
type registryActor struct {
	log     *slog.Logger
	router  *Router
	pins    *Pins // nil: no pins kept
	servers map[string]*registryEntry
	catalog *tools.Catalog // what the model is offered: disabled and quarantined tools left out
	full    *tools.Catalog // every listed tool: for pins and the servers panel
	// quarantined: tools of full with a high-risk flag the person has not
	// looked at (by display name).
	quarantined map[string]bool
	watchers    []*actor.PID
	// memo keeps each definition's own flags between rebuilds: a server's
	// change reads only its new definitions.
	memo *tools.Memo
}

func newRegistry(log *slog.Logger, pins *Pins, r *Router) *registryActor {
	return &registryActor{
		log:     log.With("actor", "registry"),
		router:  r,
		pins:    pins,
		servers: map[string]*registryEntry{},
		memo:    &tools.Memo{},
		catalog: tools.NewCatalog(nil),
		full:    tools.NewCatalog(nil),
	}
}

func (a *registryActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *serverSpawned:
		a.servers[m.alias] = &registryEntry{pid: m.pid, line: m.line, server: m.server}
		if len(m.cached) > 0 {
			e := a.servers[m.alias]
			e.tools, e.listed, e.cached = m.cached, true, true
			a.rebuild(c)
		} else {
			a.publish()
		}
	case *serverRemoved:
		if e, ok := a.servers[m.alias]; ok {
			delete(a.servers, m.alias)
			if e.listed {
				a.rebuild(c)
			} else {
				a.publish()
			}
		}
	case *ServerTools:
		e, ok := a.servers[m.Alias]
		if !ok || !e.pid.Equal(m.PID) {
			return // from a server that has been removed (or replaced)
		}
		e.tools, e.listed, e.cached = m.Tools, true, false
		a.rebuild(c)
	case *SetDisabledTools:
		if e, ok := a.servers[m.Alias]; ok {
			e.server.DisabledTools = slices.Clone(m.Tools)
			if e.listed {
				a.rebuild(c)
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
			a.log.Info("a quarantined tool was reviewed: offered from now on", "tool", t.Display)
			a.rebuild(c)
		}
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

func (a *registryActor) rebuild(c actor.Context) {
	sources := make(map[string]tools.Source, len(a.servers))
	for alias, e := range a.servers {
		sources[alias] = tools.Source{Tools: e.tools, Trusted: e.server.Trusted, ReadOnly: e.server.ReadOnly.Has, Cached: e.cached}
	}
	a.memo.Round()
	a.full = tools.NewCatalogMemo(sources, a.memo)
	a.quarantined = map[string]bool{}
	for _, t := range a.full.Tools() {
		if a.pins.Quarantined(t) {
			a.quarantined[t.Display] = true
		}
	}
	offered := make(map[string]tools.Source, len(a.servers))
	leftOut := false
	for alias, e := range a.servers {
		src := sources[alias]
		if len(e.server.DisabledTools) > 0 || len(a.quarantined) > 0 {
			src.Tools = slices.DeleteFunc(slices.Clone(src.Tools), func(t *sdk.Tool) bool {
				return t != nil && (slices.Contains(e.server.DisabledTools, t.Name) || a.quarantined[alias+"."+t.Name])
			})
			leftOut = leftOut || len(src.Tools) < len(e.tools)
		}
		offered[alias] = src
	}
	a.catalog = a.full
	if leftOut {
		// Disabled and quarantined tools are neither offered nor found by
		// tool_search, and calls to them are refused; they stay pinned.
		a.catalog = tools.NewCatalogMemo(offered, a.memo)
	}
	if a.pins != nil {
		var listed []string
		for alias, e := range a.servers {
			if e.listed {
				listed = append(listed, alias)
			}
		}
		news := a.pins.observe(a.full, listed)
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

// publish swaps the current catalog and servers into the router.
func (a *registryActor) publish() {
	rs := &routes{catalog: a.catalog, full: a.full, quarantined: a.quarantined, servers: make(map[string]route, len(a.servers))}
	for alias, e := range a.servers {
		rs.servers[alias] = route{pid: e.pid, line: e.line, disabled: slices.Clone(e.server.DisabledTools), listed: e.listed}
	}
	a.router.store(rs)
}
