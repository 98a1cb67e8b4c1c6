package actors

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/store"
	"deckhand/testutil"
)

func TestOnDemandServer(t *testing.T) {
	l := testutil.NewLMCP(t, "")
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	cfg := &config.Config{MCP: config.MCP{Servers: map[string]config.Server{
		"od": {URL: l.URL, Connect: config.ConnectOnDemand},
	}}}
	cfg.ApplyDefaults()
	start := func() (*System, *store.DB) {
		db, err := store.Open(t.Context(), dbPath)
		if err != nil {
			t.Fatal(err)
		}
		sys := Start(Options{Config: cfg, Log: db})
		return sys, db
	}
	stop := func(sys *System, db *store.DB) {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		sys.Shutdown(ctx)
		db.Close()
	}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()

	// No saved tools yet: it connects at start, and its tools are kept.
	sys, db := start()
	list, err := sys.ServerStatuses(ctx, true)
	if err != nil || len(list) != 1 || list[0].State != servers.StateReady {
		t.Fatalf("first start: %+v, %v; want od ready", list, err)
	}
	if err := sys.SyncLog(ctx); err != nil {
		t.Fatal(err)
	}
	saved, err := db.Catalogs(ctx)
	if err != nil || !strings.Contains(string(saved["od"].Tools), `"add"`) {
		t.Fatalf("saved catalogs = %v, %v", saved, err)
	}
	stop(sys, db)
	before := len(l.Methods())

	// Next start: idle, with the saved tools, and nothing sent to it.
	sys, db = start()
	defer stop(sys, db)
	list, err = sys.ServerStatuses(ctx, true)
	if err != nil || list[0].State != servers.StateIdle || list[0].Tools != len(testutil.LMCPTools) {
		t.Fatalf("second start: %+v, %v; want od idle with its tools", list, err)
	}
	testutil.Eventually(t, wait, func() bool {
		cat, _ := sys.Catalog(ctx)
		_, ok := cat.Lookup("od.add")
		return ok
	}, "od.add in the catalog before od connects")
	if got := l.Methods()[before:]; len(got) != 0 {
		t.Errorf("an idle on-demand server was sent %v", got)
	}

	// The first call connects it and goes ahead.
	res, err := sys.CallTool(ctx, "od.add", json.RawMessage(`{"a": 2, "b": 3}`), nil)
	if err != nil || res.Err != nil || res.Result.IsError {
		t.Fatalf("the first call: %+v, %v", res, err)
	}
	if got := l.Methods()[before:]; !slices.Contains(got, "initialize") || !slices.Contains(got, "tools/call") {
		t.Errorf("the first call sent %v, want a handshake then the call", got)
	}
	testutil.Eventually(t, time.Second, func() bool {
		list, _ := sys.ServerStatuses(ctx, false)
		return list[0].State == servers.StateReady
	}, "od ready after its first call")
}

func TestOnDemandServerThatFailsToConnect(t *testing.T) {
	l := testutil.NewLMCP(t, "")
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	db, err := store.Open(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tools, _ := json.Marshal(testutil.LMCPTools)
	if err := db.Write(t.Context(), &store.Batch{Catalogs: []store.ServerCatalog{{Alias: "od", Tools: tools, Time: time.Now()}}}); err != nil {
		t.Fatal(err)
	}
	l.Close() // gone since its tools were saved
	cfg := &config.Config{MCP: config.MCP{Servers: map[string]config.Server{
		"od": {URL: l.URL, Connect: config.ConnectOnDemand, ConnectTimeout: 2 * time.Second},
	}}}
	cfg.ApplyDefaults()
	sys := Start(Options{Config: cfg, Log: db})
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		sys.Shutdown(ctx)
	}()
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if list, _ := sys.ServerStatuses(ctx, true); list[0].State != servers.StateIdle {
		t.Fatalf("od = %+v, want idle", list[0])
	}
	res, err := sys.CallTool(ctx, "od.add", json.RawMessage(`{"a": 2, "b": 3}`), nil)
	if err != nil || res.Err == nil || !strings.Contains(res.Err.Error(), "server od: connecting") {
		t.Errorf("a call to an on-demand server that cannot connect: %+v, %v", res, err)
	}
}
