package actors

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/toolcall"
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

// GetServerListing asks the registry for a server's whole listing, the
// tools its disabled_tools leave out of the catalog included; the answer is
// a *ServerListing.
type GetServerListing struct{ Alias string }

// ServerListing answers GetServerListing.
type ServerListing struct {
	Tools    []tools.Tool    // sorted by name
	Disabled map[string]bool // by the server's name for the tool
}

type (
	serverSpawned struct {
		alias  string
		server config.Server
		pid    *actor.PID
		cached []*sdk.Tool // an on-demand server's tools of its last connection
	}
	serverRemoved struct{ alias string }
)

type registryEntry struct {
	pid    *actor.PID
	server config.Server
	tools  []*sdk.Tool
	listed bool // tools have been listed at least once
}

// registryActor keeps the merged catalog and routes tool calls to servers.
type registryActor struct {
	log      *slog.Logger
	pins     *pinBook // nil: no pins kept
	servers  map[string]*registryEntry
	catalog  *tools.Catalog // what the model is offered: disabled tools left out
	full     *tools.Catalog // every listed tool: for pins and the servers panel
	watchers []*actor.PID
}

func newRegistry(log *slog.Logger, pins *pinBook) *registryActor {
	return &registryActor{
		log:     log.With("actor", "registry"),
		pins:    pins,
		servers: map[string]*registryEntry{},
		catalog: tools.NewCatalog(nil),
		full:    tools.NewCatalog(nil),
	}
}

func (a *registryActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *serverSpawned:
		a.servers[m.alias] = &registryEntry{pid: m.pid, server: m.server}
		if len(m.cached) > 0 {
			a.servers[m.alias].tools, a.servers[m.alias].listed = m.cached, true
			a.rebuild(c)
		}
	case *serverRemoved:
		if e, ok := a.servers[m.alias]; ok {
			delete(a.servers, m.alias)
			if e.listed {
				a.rebuild(c)
			}
		}
	case *ServerTools:
		e, ok := a.servers[m.Alias]
		if !ok || !e.pid.Equal(m.PID) {
			return // from a server that has been removed (or replaced)
		}
		e.tools, e.listed = m.Tools, true
		a.rebuild(c)
	case *SetDisabledTools:
		if e, ok := a.servers[m.Alias]; ok {
			e.server.DisabledTools = slices.Clone(m.Tools)
			if e.listed {
				a.rebuild(c)
			}
		}
	case *GetServerListing:
		out := &ServerListing{Tools: a.full.Server(m.Alias), Disabled: map[string]bool{}}
		if e, ok := a.servers[m.Alias]; ok {
			for _, name := range e.server.DisabledTools {
				out.Disabled[name] = true
			}
		}
		c.Respond(out)
	case *GetCatalog:
		c.Respond(a.catalog)
	case *WatchCatalog:
		a.watchers = append(a.watchers, m.PID)
		c.Watch(m.PID)
		c.Send(m.PID, &CatalogChanged{Catalog: a.catalog})
	case *actor.Terminated:
		a.watchers = slices.DeleteFunc(a.watchers, func(p *actor.PID) bool { return p.Equal(m.Who) })
	case *CallTool:
		a.route(c, m)
	case *CancelCall:
		alias, _, _ := strings.Cut(m.Tool, ".")
		if t, ok := a.catalog.Lookup(m.Tool); ok {
			alias = t.Server
		}
		if e, ok := a.servers[alias]; ok {
			c.Send(e.pid, m)
		}
	}
}

func (a *registryActor) rebuild(c actor.Context) {
	sources := make(map[string]tools.Source, len(a.servers))
	offered := make(map[string]tools.Source, len(a.servers))
	someDisabled := false
	for alias, e := range a.servers {
		src := tools.Source{Tools: e.tools, Trusted: e.server.Trusted, ReadOnly: e.server.ReadOnly.Has}
		sources[alias] = src
		if len(e.server.DisabledTools) > 0 {
			src.Tools = slices.DeleteFunc(slices.Clone(src.Tools), func(t *sdk.Tool) bool {
				return t != nil && slices.Contains(e.server.DisabledTools, t.Name)
			})
			someDisabled = someDisabled || len(src.Tools) < len(e.tools)
		}
		offered[alias] = src
	}
	a.full = tools.NewCatalog(sources)
	a.catalog = a.full
	if someDisabled {
		// Disabled tools are neither offered nor found by tool_search,
		// and calls to them are refused; they stay pinned.
		a.catalog = tools.NewCatalog(offered)
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
	for _, w := range a.watchers {
		c.Send(w, &CatalogChanged{Catalog: a.catalog})
	}
}

// route resolves a call's tool and hands it to the server's actor, which
// answers the original sender directly.
func (a *registryActor) route(c actor.Context, m *CallTool) {
	if want := m.Resolved; want != nil {
		if a.disabled(want.Server, want.Name) {
			c.Respond(&ToolResult{ID: m.ID, Tool: want.Display, Err: fmt.Errorf("tool %s is disabled (disabled_tools in the config)", want.Display)})
			return
		}
		t, ok := a.catalog.Lookup(want.Display)
		e := a.servers[want.Server]
		if !ok || e == nil || t.Server != want.Server || t.Name != want.Name || !toolcall.Same(t.Def, want.Def) {
			c.Respond(&ToolResult{ID: m.ID, Tool: want.Display, Err: fmt.Errorf("%s: %w", want.Display, toolcall.ErrChanged)})
			return
		}
		c.RequestWithCustomSender(e.pid, &serverCall{req: m, tool: want.Name}, c.Sender())
		return
	}
	if t, ok := a.catalog.Lookup(m.Tool); ok {
		c.RequestWithCustomSender(a.servers[t.Server].pid, &serverCall{req: m, tool: t.Name}, c.Sender())
		return
	}
	if t, ok := a.full.Lookup(m.Tool); ok && a.disabled(t.Server, t.Name) {
		c.Respond(&ToolResult{ID: m.ID, Tool: t.Display, Err: fmt.Errorf("tool %s is disabled (disabled_tools in the config)", t.Display)})
		return
	}
	alias, name, found := strings.Cut(m.Tool, ".")
	if found && a.disabled(alias, name) {
		c.Respond(&ToolResult{ID: m.ID, Tool: m.Tool, Err: fmt.Errorf("tool %s is disabled (disabled_tools in the config)", m.Tool)})
		return
	}
	if e, ok := a.servers[alias]; ok && found && !e.listed {
		// Not connected yet: the server actor says why, and calls a tool
		// it cannot check.
		c.RequestWithCustomSender(e.pid, &serverCall{req: m, tool: name}, c.Sender())
		return
	}
	err := fmt.Errorf("unknown tool %q", m.Tool)
	if found {
		if _, ok := a.servers[alias]; !ok {
			err = fmt.Errorf("unknown tool %q: no server named %q", m.Tool, alias)
		} else {
			err = fmt.Errorf("unknown tool %q: server %s has no tool named %q", m.Tool, alias, name)
		}
	}
	if s := a.catalog.Suggest(m.Tool, 3); len(s) > 0 {
		err = fmt.Errorf("%w (did you mean %s?)", err, strings.Join(s, ", "))
	}
	c.Respond(&ToolResult{ID: m.ID, Tool: m.Tool, Err: err})
}

// disabled reports whether the config disables the server's tool name.
func (a *registryActor) disabled(alias, name string) bool {
	e, ok := a.servers[alias]
	return ok && slices.Contains(e.server.DisabledTools, name)
}

// ServerListing is a server's whole listing, its disabled tools included
// and marked.
func (s *System) ServerListing(ctx context.Context, alias string) (*ServerListing, error) {
	return ask[*ServerListing](ctx, s, s.Registry, &GetServerListing{Alias: alias})
}

// SetDisabledTools leaves the named tools of a server out of the catalog
// from now on (the config file is the caller's to change).
func (s *System) SetDisabledTools(alias string, names []string) {
	s.Root.Send(s.Registry, &SetDisabledTools{Alias: alias, Tools: slices.Clone(names)})
}
