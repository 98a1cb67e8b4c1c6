// Package serverstest offers typed helpers for tests of MCP servers'
// actors, so that a test says which event it expects rather than polling
// for it: Start runs a registry and a servers supervisor with a Watcher
// subscribed to both, Expect awaits the next event of a type and
// ExpectStatus (or Await, with the catalog) the next status of a server
// in a state, in the way tailscale's eventbustest does.
//
// The Watcher is conversationtest's (it knows nothing of either domain).
// Who owns its state: the actors Start runs own theirs, as in Deckhand;
// the Watcher is safe for concurrent use. Everything here works inside a testing/synctest bubble: its deadlines
// are the bubble's clock, and Start's cleanup stops the actors and waits
// for every connection to close before the bubble ends.
package serverstest

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation/conversationtest"
	"deckhand/actors/servers"
	"deckhand/policy"
)

// Wait is how long Expect waits for an event.
const Wait = conversationtest.Wait

// Watcher collects events, in the order they come.
type Watcher = conversationtest.Watcher

// Expect returns the next event of type T, skipping the events of other
// types before it; the test fails when none comes within Wait.
func Expect[T any](t testing.TB, w *Watcher) T {
	t.Helper()
	return conversationtest.Expect[T](t, w)
}

// ExpectStatus returns the next status of alias in state, skipping the
// events before it; the test fails when none comes within Wait.
func ExpectStatus(t testing.TB, w *Watcher, alias string, state servers.State) *servers.ServerStatus {
	t.Helper()
	deadline := time.Now().Add(Wait)
	for time.Now().Before(deadline) {
		st := Expect[*servers.ServerStatus](t, w)
		if st.Alias == alias && st.State == state {
			return st
		}
	}
	t.Fatalf("no status of %s %s within %v", alias, state, Wait)
	return nil
}

const throttle = time.Millisecond

// System is a registry and a servers supervisor under test.
type System struct {
	AS       *actor.ActorSystem
	Servers  *actor.PID
	Registry *actor.PID
	Router   *servers.Router
	// Events has every *ServerStatus and *servers.CatalogChanged, from
	// before the first server's first status.
	Events *Watcher
}

// Start spawns a registry and a supervisor of o.Servers on a fresh actor
// system. o's Registry, Logger, Conns and Policy are filled in when zero.
func Start(t testing.TB, o servers.Options) *System {
	t.Helper()
	// The dead letters' throttle runs a timer goroutine for its interval
	// after each first dead letter: short, so that the cleanup can outlast
	// it (a synctest bubble must end with no goroutine of its own).
	as := actor.NewActorSystem(
		actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }),
		actor.WithDeadLetterThrottleInterval(throttle))
	s := &System{AS: as, Router: &servers.Router{}}
	// Registered first, so run last: after the watcher has stopped.
	t.Cleanup(func() {
		as.Root.PoisonFuture(s.Servers).Wait()
		o.Conns.Wait()
		as.Shutdown()
		time.Sleep(2 * throttle) // not a wait for an event: see throttle
	})
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Conns == nil {
		o.Conns = &sync.WaitGroup{}
	}
	if o.Policy == nil {
		o.Policy = func() *policy.Policy { return nil } // mcp.Dial's default
	}
	if o.Registry == nil {
		o.Registry = servers.SpawnRegistry(as.Root, o.Logger, nil, s.Router)
	}
	s.Registry = o.Registry
	s.Events = conversationtest.Spawn(t, as.Root)
	// Subscribed before any server starts, which are then added one by
	// one: the watcher sees every status of each.
	add := o.Servers
	o.Servers = nil
	s.Servers = servers.Spawn(as.Root, o)
	as.Root.Send(s.Servers, &servers.WatchServers{PID: s.Events.PID})
	as.Root.Send(s.Registry, &servers.WatchCatalog{PID: s.Events.PID})
	for _, alias := range slices.Sorted(maps.Keys(add)) {
		res, err := as.Root.RequestFuture(s.Servers, &servers.AddServer{Alias: alias, Server: add[alias]}, Wait).Result()
		if err != nil {
			t.Fatalf("adding %s: %v", alias, err)
		}
		if err := res.(*servers.Done).Err; err != nil {
			t.Fatalf("adding %s: %v", alias, err)
		}
	}
	return s
}

// Await awaits alias's next status in state and then the catalog of the
// tools it gave the registry, which the router holds from then on.
func (s *System) Await(t testing.TB, alias string, state servers.State) *servers.ServerStatus {
	t.Helper()
	st := ExpectStatus(t, s.Events, alias, state)
	// The server sent its tools to the registry before its status: the
	// registry answers this once it has built the catalog of them.
	if _, err := s.AS.Root.RequestFuture(s.Registry, &servers.GetCatalog{}, Wait).Result(); err != nil {
		t.Fatalf("the catalog after %s was %s: %v", alias, state, err)
	}
	return st
}

// InProcess is an Options.InProcess entry that hands over srv at each
// connection.
func InProcess(srv *sdk.Server) func() (*sdk.Server, error) {
	return func() (*sdk.Server, error) { return srv, nil }
}

// Call makes one call through the router, as a conversation's run does,
// and returns its result.
func (s *System) Call(ctx context.Context, req *servers.CallTool) *servers.ToolResult {
	res, err := s.Router.Call(ctx, s.AS.Root, req, nil)
	if err != nil {
		return &servers.ToolResult{ID: req.ID, Tool: req.Tool, Err: err}
	}
	return res
}
