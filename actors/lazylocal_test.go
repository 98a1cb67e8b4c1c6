package actors

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/store"
	"deckhand/testutil"
)

// An in-process server built when first needed (the built-in tools server):
// at the first start it is built and connected, and its tools kept; at the
// next it is not built at all, its tools are offered from the log, and the
// model's first call to one builds it (once) and runs. A server that cannot
// be built fails visibly, and the others carry on.
func TestInProcessBuiltWhenFirstNeeded(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	var builds atomic.Int32
	build := func() (*sdk.Server, error) {
		builds.Add(1)
		return testutil.NewServer("lazy"), nil
	}
	start := func(b map[string]func() (*sdk.Server, error)) *System {
		db, err := store.Open(t.Context(), dbPath)
		if err != nil {
			t.Fatal(err)
		}
		cfg := &config.Config{}
		cfg.ApplyDefaults()
		sys := Start(Options{Config: cfg, Log: db, BuildInProcess: b})
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			sys.Shutdown(ctx)
			db.Close()
		})
		return sys
	}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()

	first := start(map[string]func() (*sdk.Server, error){"local": build})
	waitState(t, first, "local", servers.StateReady)
	if err := first.SyncLog(ctx); err != nil {
		t.Fatal(err)
	}
	if n := builds.Load(); n != 1 {
		t.Fatalf("first start built it %d times, want 1 (nothing saved yet)", n)
	}
	first.Shutdown(ctx)

	sys := start(map[string]func() (*sdk.Server, error){"local": build})
	if st := waitState(t, sys, "local", servers.StateIdle); st.Tools == 0 {
		t.Errorf("local = %+v, want idle with the tools of its last connection", st)
	}
	cat, _ := sys.Catalog(ctx)
	if _, ok := cat.Lookup("local.echo"); !ok {
		t.Fatal("local.echo not offered before local is built")
	}
	if n := builds.Load(); n != 1 {
		t.Fatalf("the next start built it (%d builds): it should wait for a call", n)
	}
	for range 2 {
		res, err := sys.CallTool(ctx, "local.echo", json.RawMessage(`{"text":"hi"}`), nil)
		if err != nil || res.Err != nil || res.Result.IsError {
			t.Fatalf("a call to local.echo: %+v, %v", res, err)
		}
	}
	if n := builds.Load(); n != 2 {
		t.Errorf("builds = %d, want one more for the first call and none after", n)
	}

	// One that cannot be built says why, in its status.
	broken := start(map[string]func() (*sdk.Server, error){"bad": func() (*sdk.Server, error) {
		return nil, errors.New("no definitions folder")
	}})
	if st := waitState(t, broken, "bad", servers.StateFailed); !strings.Contains(st.Reason, "no definitions folder") {
		t.Errorf("bad = %+v, want failed with the reason", st)
	}
}
