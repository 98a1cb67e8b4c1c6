package servers

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/policy"
)

// An in-process server connects and lists its tools in milliseconds: on a
// loaded machine, before the supervisor's goroutine, which spawned its
// actor, runs again. Its tools reach the catalog all the same. Here the
// supervisor is held after each spawn until the server's tools have gone
// to the registry, as a busy core held it in CI; before, the supervisor
// told the registry of the server only then, and the registry dropped the
// tools of a server it did not know (as a removed one's): the window's
// tests waited in vain for "the in-process server's tools" (30 s).
func TestToolsOfAServerFasterThanItsSupervisor(t *testing.T) {
	as := quietSystem(t)
	log := slog.New(slog.DiscardHandler)
	router := &Router{}
	registry := SpawnRegistry(as.Root, log, nil, router)
	// The registry as the servers see it: what they send it goes on to
	// it, and a server's tools are announced on listed.
	listed := make(chan string, 4)
	proxy := as.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch m := c.Message().(type) {
		case *ServerTools:
			c.Forward(registry)
			listed <- m.Alias
		case actor.AutoReceiveMessage, actor.SystemMessage:
		default:
			c.Forward(registry)
		}
	}))
	// hold keeps the supervisor from going on after spawning a server
	// until that server's tools went to the registry.
	through := make(chan struct{})
	hold := actor.WithSpawnMiddleware(func(next actor.SpawnFunc) actor.SpawnFunc {
		return func(sys *actor.ActorSystem, id string, props *actor.Props, parent actor.SpawnerContext) (*actor.PID, error) {
			pid, err := next(sys, id, props, parent)
			if err == nil {
				select {
				case <-listed:
					close(through)
				case <-time.After(10 * time.Second):
					t.Error("the server never listed its tools")
				}
			}
			return pid, err
		}
	})
	srv := sdk.NewServer(&sdk.Implementation{Name: "echo", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	})
	conns := &sync.WaitGroup{}
	sup := as.Root.Spawn(serversProps(Options{
		Registry:  proxy,
		Logger:    log,
		Conns:     conns,
		Policy:    func() *policy.Policy { return nil },
		Servers:   map[string]config.Server{"s": {}},
		InProcess: map[string]func() (*sdk.Server, error){"s": func() (*sdk.Server, error) { return srv, nil }},
	}, hold))
	t.Cleanup(func() { as.Root.PoisonFuture(sup).Wait(); conns.Wait() })

	select {
	case <-through:
	case <-time.After(15 * time.Second):
		t.Fatal("the supervisor never spawned s")
	}
	// The registry's mailbox is first in, first out: once it answers, it
	// has taken the tools, sent it before.
	if _, err := as.Root.RequestFuture(registry, &GetCatalog{}, 5*time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	if _, ok := router.Catalog().Lookup("s.echo"); !ok {
		res, err := as.Root.RequestFuture(sup, &ListServers{}, 5*time.Second).Result()
		t.Fatalf("s.echo is not in the catalog once s listed it; the servers: %+v (%v)", res, err)
	}
}
