package writer

import (
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/servers"
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
// start and at run starts by the store actor, never while a conversation
// waits.
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

// A revocation counts at once; a read of the log before its row is
// deleted does not bring the grant back, nor does a grant made before it
// that reaches the disk after it.
func TestRevokedStaysRevoked(t *testing.T) {
	db := openLog(t)
	if err := db.Write(t.Context(), &store.Batch{Grants: []store.Grant{{ID: "g1", Tool: "a.x", Scope: "always", By: "user", Time: time.Now()}}}); err != nil {
		t.Fatal(err)
	}
	g := NewAlways(func(any) {})
	if err := g.Load(t.Context(), db); err != nil || !g.Allowed("a.x") {
		t.Fatalf("loaded: %v, %v", g.Allowed("a.x"), err)
	}
	g.revoke("a.x")
	if g.Allowed("a.x") {
		t.Error("a revocation does not count at once")
	}
	if err := g.Load(t.Context(), db); err != nil || g.Allowed("a.x") {
		t.Errorf("a read of the log before the row is deleted brings the grant back: %v, %v", g.Allowed("a.x"), err)
	}
	g.Grant("a.y", "user")
	g.revoke("a.y")
	g.confirm("a.y") // the grant reaches the disk after the revocation was made
	if g.Allowed("a.y") {
		t.Error("a grant made before a revocation counts once written")
	}
	g.revoked("a.y")
	g.Grant("a.y", "user") // given again: counts
	if !g.Allowed("a.y") {
		t.Error("a grant given again after a revocation does not count")
	}
}

// Through the store actor: grants and revocations reach the log in the
// order they were made, and the in-memory set follows them.
func TestGrantsByMessage(t *testing.T) {
	db := openLog(t)
	sys := actor.NewActorSystem()
	var pid *actor.PID
	g := NewAlways(func(m any) { sys.Root.Send(pid, m) })
	pid = Spawn(sys.Root, Options{DB: db, Logger: slog.New(slog.DiscardHandler), Always: g})
	t.Cleanup(func() { sys.Root.PoisonFuture(pid).Wait() })
	ask := func(msg any) {
		t.Helper()
		res, err := sys.Root.RequestFuture(pid, msg, 30*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		if d := res.(*servers.Done); d.Err != nil {
			t.Fatal(d.Err)
		}
	}
	onDisk := func() []string {
		t.Helper()
		list, err := db.Grants(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var tools []string
		for _, gr := range list {
			tools = append(tools, gr.Tool)
		}
		return tools
	}

	g.Grant("a.x", "user") // on its way to the disk
	g.Grant("a.y", "user")
	ask(&RevokeGrant{Tool: "a.x"}) // after it
	if g.Allowed("a.x") || !g.Allowed("a.y") {
		t.Errorf("after revoking a.x: a.x %v, a.y %v", g.Allowed("a.x"), g.Allowed("a.y"))
	}
	if got := onDisk(); !slices.Equal(got, []string{"a.y"}) {
		t.Errorf("on disk: %v, want [a.y]", got)
	}

	sys.Root.Send(pid, &RevokeGrant{Tool: "a.y"})
	g.Grant("a.y", "user") // given again, after
	ask(&SyncLog{})
	if !g.Allowed("a.y") {
		t.Error("a grant given again after its revocation does not count")
	}
	if got := onDisk(); !slices.Equal(got, []string{"a.y"}) {
		t.Errorf("on disk: %v, want [a.y]", got)
	}
	ask(&RevokeGrant{Tool: "a.nothing"}) // not an error
}
