package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"deckhand/actors"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/store"
	"deckhand/testutil"
)

// The built-in tools server is built when first needed, yet a definition
// added is never missed: while it waits (its tools offered from its last
// connection), a definition written into its folder connects it, and one
// written while Deckhand was not running connects it at start.
func TestLocalBuiltWhenFirstNeeded(t *testing.T) {
	dir := t.TempDir()
	cfgPath := writeConfig(t, "[tools]\nenabled = true\ndir = "+`"`+dir+`"`+"\n")
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "log.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) (string, bool) { return "", false }, log: slog.New(slog.DiscardHandler), logDB: db}
	state := func(sys *actors.System) servers.ServerStatus {
		list, _ := sys.ServerStatuses(t.Context(), false)
		for _, s := range list {
			if s.Alias == config.LocalAlias {
				return s
			}
		}
		return servers.ServerStatus{}
	}
	offers := func(sys *actors.System, tool string) bool {
		cat, _ := sys.Catalog(t.Context())
		_, ok := cat.Lookup(tool)
		return ok
	}
	start := func() *actors.System {
		sys := e.startApp(cfg)
		t.Cleanup(func() { e.stopSystem(sys) })
		return sys
	}
	const wait = 20 * time.Second

	// First start: nothing kept yet, so it is built and connects.
	sys := start()
	testutil.Eventually(t, wait, func() bool { return state(sys).State == servers.StateReady }, "local never ready at the first start")
	if err := sys.SyncLog(t.Context()); err != nil {
		t.Fatal(err)
	}
	e.stopSystem(sys)

	// Next start: not built; a definition written now connects it.
	sys = start()
	testutil.Eventually(t, wait, func() bool { return state(sys).State == servers.StateIdle }, "local not idle at the next start")
	if st := state(sys); st.Tools == 0 || e.local.isBuilt() {
		t.Fatalf("local = %+v (built: %v), want the tools of its last connection and not built", st, e.local.isBuilt())
	}
	def := `{"name": "hello", "description": "Says hello.", "command": "echo", "synchronous": true}`
	if err := os.WriteFile(filepath.Join(dir, "hello.json"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, wait, func() bool { return offers(sys, "local.hello") }, "a definition added while local waited was not offered")
	if err := sys.SyncLog(t.Context()); err != nil {
		t.Fatal(err)
	}
	e.stopSystem(sys)

	// A definition written while Deckhand was not running: connected at start.
	future := time.Now().Add(time.Hour) // after the kept catalog, whatever the clock's step
	os.WriteFile(filepath.Join(dir, "bye.json"), []byte(`{"name": "bye", "description": "Says bye.", "command": "echo", "synchronous": true}`), 0o644)
	os.Chtimes(filepath.Join(dir, "bye.json"), future, future)
	sys = start()
	testutil.Eventually(t, wait, func() bool { return offers(sys, "local.bye") }, "a definition added while Deckhand was off was not offered")
}

// Turning shell commands on or off (policy.allow_exec, in Settings) offers
// or withdraws the built-in shell at once: from the server built, and from
// one not yet built, whose tools kept from its last connection stand in.
func TestShellFollowsAllowExec(t *testing.T) {
	cfgPath := writeConfig(t, "[tools]\nenabled = true\ndir = "+`"`+t.TempDir()+`"`+"\n")
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	on := *cfg
	on.Policy.AllowExec = true
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "log.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) (string, bool) { return "", false }, log: slog.New(slog.DiscardHandler), logDB: db}
	offers := func(sys *actors.System) bool {
		cat, _ := sys.Catalog(t.Context())
		_, ok := cat.Lookup("local.shell")
		return ok
	}
	const wait = 20 * time.Second
	for _, built := range []bool{true, false} {
		sys := e.startApp(cfg)
		if built {
			// The first start: nothing kept, so it is built at once.
			testutil.Eventually(t, wait, e.local.isBuilt, "local never built")
			testutil.Eventually(t, wait, func() bool { cat, _ := sys.Catalog(t.Context()); _, ok := cat.Lookup("local.files_read"); return ok }, "local's tools never offered")
		} else if e.local.isBuilt() {
			t.Fatal("local was built at the next start, with its tools kept")
		}
		if offers(sys) {
			t.Fatalf("built %v: the shell is offered without allow_exec", built)
		}
		sys.UpdateConfig(&on)
		testutil.Eventually(t, wait, func() bool { return offers(sys) }, "built %v: allow_exec turned on, the shell is not offered", built)
		sys.UpdateConfig(cfg)
		testutil.Eventually(t, wait, func() bool { return !offers(sys) }, "built %v: allow_exec turned off, the shell is still offered", built)
		if err := sys.SyncLog(t.Context()); err != nil {
			t.Fatal(err)
		}
		e.stopSystem(sys)
	}
}
