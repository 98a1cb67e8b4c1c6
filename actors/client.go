package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/actors/writer"
	"deckhand/config"
	"deckhand/policy"
	"deckhand/toolcall"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// The blocking helpers below are for terminal commands and tests: each sends
// the same message the window would send and waits for the answer.

// ServerStatuses lists every server. With waitSettled it first waits (within
// ctx) until no server is on its first connection attempt; if ctx ends
// first, it lists the servers as they are.
func (s *System) ServerStatuses(ctx context.Context, waitSettled bool) ([]servers.ServerStatus, error) {
	if waitSettled {
		list, err := ask[*servers.ServerList](ctx, s, s.Servers, &servers.ListServers{WaitSettled: true})
		if err == nil {
			s.caughtUp()
			return list.Servers, nil
		}
		if ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
	}
	list, err := ask[*servers.ServerList](context.Background(), s, s.Servers, &servers.ListServers{})
	if err != nil {
		return nil, err
	}
	s.caughtUp()
	return list.Servers, nil
}

// caughtUp waits until the registry has taken every message sent to it
// before now: a server reports its tools to the registry before it reports
// itself ready, so that after a status (or AddServer, RemoveServer,
// SetDisabledTools) the router's catalog holds what it says. The registry
// has a mailbox of its own (first in, first out), so one question is
// enough.
func (s *System) caughtUp() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ask[*tools.Catalog](ctx, s, s.Registry, &servers.GetCatalog{})
}

// Catalog returns the merged tool catalog, with everything sent to the
// registry before the call applied.
func (s *System) Catalog(ctx context.Context) (*tools.Catalog, error) {
	return ask[*tools.Catalog](ctx, s, s.Registry, &servers.GetCatalog{})
}

// AddServer starts a server that was not in the config. An error that
// matches servers.ErrNotStarted (a *servers.StartError) means its actor
// could not be started: the server is not there, and adding it may be tried
// again.
func (s *System) AddServer(ctx context.Context, alias string, srv config.Server) error {
	s.addSecrets(&config.Config{MCP: config.MCP{Servers: map[string]config.Server{alias: srv}}})
	d, err := ask[*servers.Done](ctx, s, s.Servers, &servers.AddServer{Alias: alias, Server: srv})
	if err != nil {
		return err
	}
	s.caughtUp()
	return d.Err
}

// RemoveServer stops a server and forgets it.
func (s *System) RemoveServer(ctx context.Context, alias string) error {
	d, err := ask[*servers.Done](ctx, s, s.Servers, &servers.RemoveServer{Alias: alias})
	if err != nil {
		return err
	}
	s.caughtUp() // its tools are gone from the router's catalog
	return d.Err
}

// CallTool calls a tool by display or wire name and waits for the result.
// On a connected server the call runs on the caller's goroutine; one that
// must wait for its server's connection goes through the server's actor.
// progress, if not nil, is called for each progress notification.
// Cancelling ctx cancels the call on the server.
func (s *System) CallTool(ctx context.Context, tool string, args json.RawMessage, progress func(*servers.ToolProgress)) (*servers.ToolResult, error) {
	if len(args) > 0 && !json.Valid(args) {
		return nil, fmt.Errorf("arguments are not valid JSON")
	}
	id := "cli-" + strconv.FormatUint(s.ids.Add(1), 10)
	return s.router.Call(ctx, s.Root, &servers.CallTool{ID: id, Tool: tool, Args: args}, progress)
}

// StartTool is CallTool, but a call the server makes a task of is answered
// at once with the task (ToolResult.Task), not followed.
func (s *System) StartTool(ctx context.Context, tool string, args json.RawMessage, progress func(*servers.ToolProgress)) (*servers.ToolResult, error) {
	if len(args) > 0 && !json.Valid(args) {
		return nil, fmt.Errorf("arguments are not valid JSON")
	}
	id := "cli-" + strconv.FormatUint(s.ids.Add(1), 10)
	return s.router.Call(ctx, s.Root, &servers.CallTool{ID: id, Tool: tool, Args: args, NoWait: true}, progress)
}

// ServerConn is the live connection of the server alias, or nil while it
// has none.
func (s *System) ServerConn(alias string) *mcp.Conn { return s.router.Live(alias) }

// StartConversation opens a conversation whose events go to opts.Watchers.
func (s *System) StartConversation(ctx context.Context, opts conversation.ConversationOptions) (*actor.PID, string, error) {
	res, err := ask[*conversation.ConversationStarted](ctx, s, s.Conversations, &conversation.StartConversation{Options: opts})
	if err != nil {
		return nil, "", err
	}
	return res.PID, res.ID, res.Err
}

// SyncLog waits until everything recorded so far is on disk. Without a log
// it returns at once.
func (s *System) SyncLog(ctx context.Context) error {
	if s.Store == nil {
		return nil
	}
	d, err := ask[*servers.Done](ctx, s, s.Store, &writer.SyncLog{})
	if err != nil {
		return err
	}
	return d.Err
}

// UpdateConfig gives conversations a new config (for the model, limits and
// approval rules; servers are added and removed with AddServer and
// RemoveServer).
func (s *System) UpdateConfig(cfg *config.Config) {
	p := policy.New(cfg, s.lookupEnv)
	s.policy.Store(p)
	s.addSecrets(cfg)
	s.Root.Send(s.Conversations, &conversation.ConfigChanged{Config: cfg})
	if hooks := s.policyHooks.Load(); hooks != nil {
		for _, f := range *hooks {
			f(p)
		}
	}
}

// OnPolicy calls f with the capability policy each time a change of config
// replaces it (UpdateConfig), on UpdateConfig's goroutine.
func (s *System) OnPolicy(f func(*policy.Policy)) {
	for {
		old := s.policyHooks.Load()
		var hooks []func(*policy.Policy)
		if old != nil {
			hooks = slices.Clone(*old)
		}
		hooks = append(hooks, f)
		if s.policyHooks.CompareAndSwap(old, &hooks) {
			return
		}
	}
}

// addSecrets makes the log and the conversations redact cfg's secrets too (a key or token that
// came with a change of config).
func (s *System) addSecrets(cfg *config.Config) {
	v := cfg.Secrets(s.lookupEnv)
	s.secrets.Add(v...)
	if s.Store != nil && len(v) > 0 {
		s.Root.Send(s.Store, &writer.AddSecrets{Values: v})
	}
}

// PinState is one tool's definition against its pin.
type PinState struct {
	Tool    tools.Tool
	Changed bool   // differs from its pinned definition
	Change  string // what changed, for people
	// New: added to a server already known, at Since (see NewToolWarning).
	New   bool
	Since time.Time
}

// GonePin is a pinned tool missing from its server's last listing.
type GonePin struct {
	Tool  string    // alias.tool
	Since time.Time // when its absence was first seen
}

// Gone lists the pinned tools missing from their server's last listing:
// of alias, or of every server when alias is "".
func (s *System) Gone(alias string) []GonePin {
	var out []GonePin
	for _, p := range s.pins.Gone(alias) {
		out = append(out, GonePin{Tool: p.Tool, Since: p.Gone})
	}
	return out
}

// Pins compares every tool of the catalog with its pinned definition.
func (s *System) Pins(ctx context.Context) ([]PinState, error) {
	cat, err := s.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	return s.PinStates(cat.Tools()), nil
}

// PinStates compares tools with their pinned definitions.
func (s *System) PinStates(list []tools.Tool) []PinState {
	var out []PinState
	for _, t := range list {
		st := PinState{Tool: t}
		if changed, before := s.pins.Changed(t); changed {
			st.Changed, st.Change = true, toolcall.Diff(before, t.Raw)
		}
		st.New, st.Since = s.pins.Fresh(t.Display)
		out = append(out, st)
	}
	return out
}

// AcceptPin pins a tool's current definition (the person accepts a
// change). It is written to the log with the next batch (SyncLog waits).
func (s *System) AcceptPin(ctx context.Context, tool string) error {
	cat, err := s.Catalog(ctx)
	if err != nil {
		return err
	}
	t, ok := cat.Lookup(tool)
	if !ok {
		return fmt.Errorf("unknown tool %q", tool)
	}
	s.pins.Accept(t)
	return nil
}

// ReviewTool records that the person releases a quarantined tool
// (alias.tool) as it is now, by an explicit choice (not by looking): it is offered to the model from the next
// catalog on, and the log keeps the review (written with the next batch;
// SyncLog waits). A tool not quarantined is left as it is.
func (s *System) ReviewTool(ctx context.Context, tool string) error {
	d, err := ask[*servers.Done](ctx, s, s.Registry, &servers.ReviewTool{Tool: tool})
	if err != nil {
		return err
	}
	return d.Err
}

// Quarantined lists the tools kept from the model until the person has
// released them (high-risk flags), by display name.
func (s *System) Quarantined(ctx context.Context) ([]tools.Tool, error) {
	if _, err := s.Catalog(ctx); err != nil { // what was sent before is applied
		return nil, err
	}
	return s.router.Quarantined(), nil
}

// AllTools is every listed tool, those disabled or quarantined included,
// with everything sent to the registry before the call applied.
func (s *System) AllTools(ctx context.Context) (*tools.Catalog, error) {
	if _, err := s.Catalog(ctx); err != nil {
		return nil, err
	}
	return s.router.Full(), nil
}

// HasQuarantined reports whether a server has quarantined tools now,
// without waiting (for the window's UI thread).
func (s *System) HasQuarantined(alias string) bool {
	for _, t := range s.router.Quarantined() {
		if t.Server == alias {
			return true
		}
	}
	return false
}
