package conversation

import (
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/keys"
	"deckhand/testutil"
	"deckhand/tools"
)

// startBare starts the conversations supervisor with a stand-in registry
// (an empty catalog) and key resolver, and a model that refuses requests
// without its key (so that the resolver is asked), and one conversation
// whose events go to the returned channel.
func startBare(t *testing.T, findKey KeyResolver) (*actor.RootContext, *actor.PID, chan any) {
	t.Helper()
	as := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	t.Cleanup(as.Shutdown)
	root := as.Root
	registry := root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if m, ok := c.Message().(*servers.WatchCatalog); ok {
			c.Send(m.PID, &servers.CatalogChanged{Catalog: tools.NewCatalog(nil)})
		}
	}))
	events := make(chan any, 1000)
	watcher := root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch c.Message().(type) {
		case *actor.Started, *actor.Stopping, *actor.Stopped:
		default:
			events <- c.Message()
		}
	}))
	model := testutil.NewModelServer(t)
	model.RequireKey("sk-wanted")
	cfg := &config.Config{Model: config.Model{BaseURL: model.URL, Name: "m", APIKeyEnv: "DECKHAND_TEST_NO_SUCH_KEY"}}
	cfg.ApplyDefaults()
	sup := Spawn(root, Deps{
		Config:    cfg,
		LookupEnv: func(string) (string, bool) { return "", false },
		FindKey:   findKey,
		Registry:  registry,
		Router:    &servers.Router{},
		Always:    &approval.Always{},
		Logger:    slog.New(slog.DiscardHandler),
	})
	res, err := root.RequestFuture(sup, &StartConversation{Options: ConversationOptions{Watchers: []*actor.PID{watcher}}}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	started := res.(*ConversationStarted)
	if started.Err != nil {
		t.Fatal(started.Err)
	}
	return root, started.PID, events
}

func next[T any](t *testing.T, events chan any, within time.Duration) T {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case m := <-events:
			if v, ok := m.(T); ok {
				return v
			}
		case <-deadline:
			var zero T
			t.Fatalf("no %T within %v", zero, within)
			return zero
		}
	}
}

// A Stop while the first request still reads the API key (a keyring that
// waits for an unlock, up to keys.Timeout) stops the run at once: the
// lookup runs off the conversation's Receive.
func TestStopDuringSlowKeyringLookup(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release) })
	slow := func(config.Model, func(string) (string, bool)) (keys.Key, error) {
		close(entered)
		<-release
		return keys.Key{}, nil
	}
	root, conv, events := startBare(t, slow)
	root.Send(conv, &UserMessage{Text: "hello"})
	next[*RunStarted](t, events, 5*time.Second)
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the key was never looked up")
	}
	root.Send(conv, &StopRun{})
	fin := next[*RunFinished](t, events, 2*time.Second)
	if !fin.Stopped {
		t.Errorf("the run ended, not stopped: %+v", fin)
	}
}

// A key that cannot be read still fails the run, with the reason, now that
// it is read on the stream's goroutine.
func TestKeyLookupFailureFailsTheRun(t *testing.T) {
	missing := func(config.Model, func(string) (string, bool)) (keys.Key, error) { return keys.Key{}, nil }
	root, conv, events := startBare(t, missing)
	root.Send(conv, &UserMessage{Text: "hello"})
	fin := next[*RunFinished](t, events, 5*time.Second)
	if fin.Err == nil || fin.Stopped {
		t.Fatalf("want the run failed for want of a key: %+v", fin)
	}
}

// A panic in the model request (a bug; here in finding the key) fails the
// run with the error instead of ending the process, and the conversation
// carries on: the next message runs.
func TestStreamPanicFailsTheRun(t *testing.T) {
	buggy := func(config.Model, func(string) (string, bool)) (keys.Key, error) {
		panic("a bug while reading the key")
	}
	root, conv, events := startBare(t, buggy)
	root.Send(conv, &UserMessage{Text: "hello"})
	fin := next[*RunFinished](t, events, 5*time.Second)
	if fin.Err == nil || fin.Stopped {
		t.Fatalf("want the run failed: %+v", fin)
	}
	root.Send(conv, &UserMessage{Text: "again"})
	next[*RunStarted](t, events, 5*time.Second)
	next[*RunFinished](t, events, 5*time.Second)
}
