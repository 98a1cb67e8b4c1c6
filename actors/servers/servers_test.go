package servers

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/policy"
)

// startInProcess starts a registry and a servers supervisor with one
// in-process server, srv as alias, with no policy; more sets further
// options. They end with the test.
func startInProcess(t *testing.T, as *actor.ActorSystem, alias string, srv *sdk.Server, more func(*Options)) (sup, registry *actor.PID, router *Router) {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	router = &Router{}
	registry = SpawnRegistry(as.Root, log, nil, router)
	conns := &sync.WaitGroup{}
	o := Options{
		Registry:  registry,
		Logger:    log,
		Conns:     conns,
		Policy:    func() *policy.Policy { return nil },
		Servers:   map[string]config.Server{alias: {}},
		InProcess: map[string]func() (*sdk.Server, error){alias: func() (*sdk.Server, error) { return srv, nil }},
	}
	if more != nil {
		more(&o)
	}
	sup = Spawn(as.Root, o)
	t.Cleanup(func() { as.Root.PoisonFuture(sup).Wait(); conns.Wait() })
	return sup, registry, router
}

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

// Once a server has listed its own tools, those of its last connection
// (kept in the log, offered while it connected) are let go: the servers
// actor held every server's for the process's life (1.3 MB of a start
// with 100 servers of 50 tools).
func TestCachedToolsLetGoOnceListed(t *testing.T) {
	as := quietSystem(t)
	object := map[string]any{"type": "object"}
	srv := sdk.NewServer(&sdk.Implementation{Name: "echo", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "echo", InputSchema: object}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	})
	cachedTool := &sdk.Tool{Name: "echo", Description: "an older echo", InputSchema: object}
	cached := weak.Make(cachedTool)
	sup, registry, router := startInProcess(t, as, "s", srv, func(o *Options) { o.Cached = map[string][]*sdk.Tool{"s": {cachedTool}} })
	cachedTool = nil
	// Ready, and the registry has the server's own listing.
	for deadline := time.Now().Add(10 * time.Second); ; {
		res, err := as.Root.RequestFuture(sup, &ListServers{}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		list := res.(*ServerList).Servers
		tl, ok := router.Catalog().Lookup("s.echo")
		if len(list) == 1 && list[0].State == StateReady && ok && !tl.Cached {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("s is not ready with its own tools: %+v", list)
		}
		runtime.Gosched()
	}
	// As chat does once its servers are ready: the builders' indexes,
	// which keep replaced entries until remade, go too.
	if _, err := as.Root.RequestFuture(registry, &Settle{}, 5*time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	if cached.Value() != nil {
		t.Error("the last connection's definition is still held once the server listed its own")
	}
}
