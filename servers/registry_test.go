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
