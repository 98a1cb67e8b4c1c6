package writer

import (
	"path/filepath"
	"testing"
	"time"

	"deckhand/store"
)

func openLog(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "deckhand.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// The gate's "always allow" answers come from memory: the log is read at
// start and refreshed in the background, never while a conversation waits.
func TestAlwaysGrantsInMemory(t *testing.T) {
	db := openLog(t)
	if err := db.Write(t.Context(), &store.Batch{Grants: []store.Grant{{ID: "g1", Tool: "mem.add", Scope: "always", By: "user", Time: time.Now()}}}); err != nil {
		t.Fatal(err)
	}
	g := NewAlways(func(any) {})
	if err := g.Load(t.Context(), db); err != nil {
		t.Fatal(err)
	}
	db.Close() // a query now would fail
	if !g.Allowed("mem.add") || g.Allowed("mem.echo") {
		t.Errorf("Allowed(mem.add, mem.echo) = %v, %v; want true, false without reading the log", g.Allowed("mem.add"), g.Allowed("mem.echo"))
	}
	g.Grant("mem.echo", "user")
	if !g.Allowed("mem.echo") {
		t.Error("a new grant does not count at once")
	}
}
