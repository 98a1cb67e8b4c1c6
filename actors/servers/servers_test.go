package servers

import (
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
)

// startServers starts a registry and a servers supervisor whose servers
// connect on demand (none dials here): each alias in cached has a tool.
func startServers(t *testing.T, as *actor.ActorSystem, cached ...string) (sup, registry *actor.PID) {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	registry = SpawnRegistry(as.Root, log, nil, &Router{})
	tools := map[string][]*sdk.Tool{}
	for _, alias := range cached {
		tools[alias] = []*sdk.Tool{{Name: "echo", InputSchema: map[string]any{"type": "object"}}}
	}
	return Spawn(as.Root, Options{Registry: registry, Logger: log, Conns: &sync.WaitGroup{}, Cached: tools}), registry
}

func onDemand() config.Server {
	return config.Server{Command: "/bin/false", Connect: config.ConnectOnDemand}
}

func done(t *testing.T, as *actor.ActorSystem, pid *actor.PID, msg any) error {
	t.Helper()
	res, err := as.Root.RequestFuture(pid, msg, 5*time.Second).Result()
	if err != nil {
		t.Fatalf("%T: %v", msg, err)
	}
	return res.(*Done).Err
}

// A server removed and added again at once under the same alias starts:
// the new actor waits for the old one's name instead of failing to start.
func TestRemoveThenAddTheSameAlias(t *testing.T) {
	as := quietSystem(t)
	sup, _ := startServers(t, as, "a")
	if err := done(t, as, sup, &AddServer{Alias: "a", Server: onDemand()}); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		as.Root.Send(sup, &RemoveServer{Alias: "a"})
		if err := done(t, as, sup, &AddServer{Alias: "a", Server: onDemand()}); err != nil {
			t.Fatalf("round %d: AddServer after RemoveServer = %v", i, err)
		}
	}
	res, err := as.Root.RequestFuture(sup, &ListServers{}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	list := res.(*ServerList).Servers
	if len(list) != 1 || list[0].State == StateFailed {
		t.Errorf("servers = %+v", list)
	}
}

// A server whose actor cannot start is an error AddServer says, as a type:
// not a success with a failed status to find.
func TestAddServerThatCannotStart(t *testing.T) {
	as := quietSystem(t)
	sup, _ := startServers(t, as)
	// Take the actor's name, as a stuck old actor would.
	squatter, _ := as.ProcessRegistry.Get(actor.NewFuture(as, time.Minute).PID())
	if _, ok := as.ProcessRegistry.Add(squatter, sup.Id+"/taken"); !ok {
		t.Fatal("could not take the name")
	}
	err := done(t, as, sup, &AddServer{Alias: "taken", Server: onDemand()})
	var serr *StartError
	if !errors.Is(err, ErrNotStarted) || !errors.As(err, &serr) || serr.Alias != "taken" {
		t.Fatalf("AddServer = %v; want a *StartError", err)
	}
	// Not added: adding it again is not "already exists".
	if err := done(t, as, sup, &AddServer{Alias: "taken", Server: onDemand()}); !errors.Is(err, ErrNotStarted) {
		t.Errorf("AddServer again = %v; want ErrNotStarted again", err)
	}
}

// An elicitation during a call is the calling conversation's, named in the
// call (CallTool.Origin), whatever the sender's actor is called.
func TestCallOriginFromTheMessage(t *testing.T) {
	call := &inflight{sender: actor.NewPID("nonhost", "$42"), req: &CallTool{ID: "run-1/c1",
		Origin: CallOrigin{Conversation: "conv-7", Run: "run-1", Call: "c1"}}}
	if conv, run, id := callOrigin(call); conv != "conv-7" || run != "run-1" || id != "c1" {
		t.Errorf("callOrigin = %q %q %q", conv, run, id)
	}
	if conv, _, _ := callOrigin(&inflight{req: &CallTool{ID: "cli-1"}}); conv != "" {
		t.Errorf("a command's call is a conversation's: %q", conv)
	}
}
