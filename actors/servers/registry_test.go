package servers

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/store"
)

func quietSystem(t *testing.T) *actor.ActorSystem {
	as := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	t.Cleanup(as.Shutdown)
	return as
}

// The registry's work (rebuilding the catalog, pinning, whatever its hooks
// do) runs on its own goroutine, never on the sender's: a window that sends
// it a message from its UI thread does not wait for it. The pins' save
// hook blocks here; the sends must return all the same, and the catalog
// comes once the hook lets go.
func TestRegistryNeverRunsOnTheSender(t *testing.T) {
	as := quietSystem(t)
	saving, release := make(chan struct{}, 16), make(chan struct{})
	pins, _ := NewPins(context.Background(), nil, func(store.Pin) {
		saving <- struct{}{}
		<-release
	})
	router := &Router{}
	registry := SpawnRegistry(as.Root, slog.New(slog.DiscardHandler), pins, router)
	listed := []*sdk.Tool{{Name: "echo", InputSchema: map[string]any{"type": "object"}}}

	sent := make(chan struct{})
	go func() {
		as.Root.Send(registry, &serverSpawned{alias: "t", server: config.Server{}, pid: actor.NewPID("nonhost", "t"), line: &serverLine{}, cached: listed})
		as.Root.Send(registry, &SetDisabledTools{Alias: "t", Tools: []string{"echo"}})
		close(sent)
	}()
	select {
	case <-saving:
	case <-time.After(5 * time.Second):
		t.Fatal("the registry never pinned the listed tool")
	}
	select {
	case <-sent:
	case <-time.After(2 * time.Second):
		close(release)
		t.Fatal("sending to the registry waited for its work: it ran on the sender's goroutine")
	}
	close(release)
	// Order is kept: the listing, then the disabling.
	res, err := as.Root.RequestFuture(registry, &GetServerListing{Alias: "t"}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if l := res.(*ServerListing); len(l.Tools) != 1 || !l.Disabled["echo"] {
		t.Errorf("listing = %+v", l)
	}
	if _, ok := router.Catalog().Lookup("t.echo"); ok {
		t.Error("the disabled tool is in the router's catalog after the registry answered")
	}
}

// Registering the same watcher twice delivers each change once (a watcher
// that asks again, restarted with the same PID, is not counted twice).
func TestWatchersOnce(t *testing.T) {
	as := quietSystem(t)
	sup, registry := startServers(t, as, "a")
	if err := done(t, as, sup, &AddServer{Alias: "a", Server: onDemand()}); err != nil {
		t.Fatal(err)
	}
	removed, changed := make(chan struct{}, 10), make(chan struct{}, 10)
	w := as.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch m := c.Message().(type) {
		case *ServerStatus:
			if m.Reason == "removed" {
				removed <- struct{}{}
			}
		case *CatalogChanged:
			if _, ok := m.Catalog.Lookup("a.echo"); !ok {
				changed <- struct{}{}
			}
		}
	}))
	for range 2 {
		as.Root.Send(sup, &WatchServers{PID: w})
		as.Root.Send(registry, &WatchCatalog{PID: w})
	}
	if err := done(t, as, sup, &RemoveServer{Alias: "a"}); err != nil {
		t.Fatal(err)
	}
	for name, ch := range map[string]chan struct{}{"removed status": removed, "catalog without a.echo": changed} {
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			t.Fatalf("no %s", name)
		}
		select {
		case <-ch:
			t.Errorf("the %s came twice", name)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// The registry resumes after a panic (here in its pins' save hook): what
// the servers told it before stays, where a fresh registry would have
// forgotten them.
func TestRegistryResumesAfterAPanic(t *testing.T) {
	as := quietSystem(t)
	panicked := false
	pins, _ := NewPins(context.Background(), nil, func(store.Pin) {
		if !panicked {
			panicked = true
			panic("a bug in saving a pin")
		}
	})
	router := &Router{}
	registry := SpawnRegistry(as.Root, slog.New(slog.DiscardHandler), pins, router)
	listed := []*sdk.Tool{{Name: "echo", InputSchema: map[string]any{"type": "object"}}}
	as.Root.Send(registry, &serverSpawned{alias: "t", pid: actor.NewPID("nonhost", "t"), line: &serverLine{}, cached: listed})
	as.Root.Send(registry, &SetDisabledTools{Alias: "t"}) // rebuilds
	res, err := as.Root.RequestFuture(registry, &GetServerListing{Alias: "t"}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if !panicked {
		t.Fatal("the hook never ran")
	}
	if l := res.(*ServerListing); len(l.Tools) != 1 {
		t.Errorf("after the panic the registry lists %+v", l.Tools)
	}
	if _, ok := router.Catalog().Lookup("t.echo"); !ok {
		t.Error("after the panic the router's catalog lacks t.echo")
	}
}
