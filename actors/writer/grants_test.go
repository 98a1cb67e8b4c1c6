package writer

import (
	"database/sql"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/approval"
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
	var saved []string
	g := approval.NewAlways(func(gr approval.Grant) { saved = append(saved, gr.Tool) })
	if err := LoadGrants(t.Context(), db, g); err != nil {
		t.Fatal(err)
	}
	db.Close() // a query now would fail
	if !g.Allowed("mem.add") || g.Allowed("mem.echo") {
		t.Errorf("Allowed(mem.add, mem.echo) = %v, %v; want true, false without reading the log", g.Allowed("mem.add"), g.Allowed("mem.echo"))
	}
	g.Grant("mem.echo", "user")
	if !g.Allowed("mem.echo") || !slices.Equal(saved, []string{"mem.echo"}) {
		t.Errorf("a new grant: allowed %v, saved %v; want true, [mem.echo]", g.Allowed("mem.echo"), saved)
	}
}

// Through the store actor: grants and revocations reach the log in the
// order they were made, and the in-memory set follows them.
func TestGrantsByMessage(t *testing.T) {
	db := openLog(t)
	sys := actor.NewActorSystem()
	var pid *actor.PID
	g := approval.NewAlways(func(gr approval.Grant) { sys.Root.Send(pid, &SaveGrant{Grant: gr}) })
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

// A grant another program wrote into the log does not count; watchers
// (the window, the terminal) hear of each such row once: at once when they
// start watching, then of a new one when the grants are read again at a
// run start, never twice.
func TestForeignGrantIgnoredAndReportedOnce(t *testing.T) {
	db := openLog(t)
	if err := db.Write(t.Context(), &store.Batch{Grants: []store.Grant{{ID: "g1", Tool: "mem.add", Scope: "always", By: "user", Time: time.Now()}}}); err != nil {
		t.Fatal(err)
	}
	r, err := sql.Open("sqlite", "file:"+db.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	insert := func(tool string) {
		t.Helper()
		if _, err := r.Exec(`INSERT INTO approvals (approval_id, tool, scope, granted_by, granted_at) VALUES (?, ?, 'always', 'user', 1)`, "x-"+tool, tool); err != nil {
			t.Fatal(err)
		}
	}
	insert("local.shell")
	foreign, err := db.Foreign(t.Context())
	if err != nil {
		t.Fatal(err)
	}

	sys := actor.NewActorSystem()
	var pid *actor.PID
	g := approval.NewAlways(func(gr approval.Grant) { sys.Root.Send(pid, &SaveGrant{Grant: gr}) })
	if err := LoadGrants(t.Context(), db, g); err != nil {
		t.Fatal(err)
	}
	if !g.Allowed("mem.add") || g.Allowed("local.shell") {
		t.Errorf("Allowed(mem.add, local.shell) = %v, %v; want true, false", g.Allowed("mem.add"), g.Allowed("local.shell"))
	}
	pid = Spawn(sys.Root, Options{DB: db, Logger: slog.New(slog.DiscardHandler), Always: g, Foreign: foreign})
	t.Cleanup(func() { sys.Root.PoisonFuture(pid).Wait() })

	type mark struct{}
	heard := make(chan any, 16)
	watcher := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch m := c.Message().(type) {
		case *LogTampered, mark:
			heard <- m
		}
	}))
	// next is what the watcher heard up to now (a mark sent after the
	// store actor answered a SyncLog comes after anything it sent).
	next := func() []string {
		t.Helper()
		if _, err := sys.Root.RequestFuture(pid, &SyncLog{}, 30*time.Second).Result(); err != nil {
			t.Fatal(err)
		}
		sys.Root.Send(watcher, mark{})
		var got []string
		for {
			select {
			case m := <-heard:
				lt, ok := m.(*LogTampered)
				if !ok {
					return got
				}
				for _, row := range lt.Rows {
					got = append(got, row.Tool)
				}
				if !strings.Contains(lt.Text(), "Deckhand did not write") {
					t.Errorf("LogTampered.Text() = %q", lt.Text())
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the watcher heard nothing")
			}
		}
	}
	sys.Root.Send(pid, &WatchLog{Watcher: watcher})
	if got := next(); !slices.Equal(got, []string{"local.shell"}) {
		t.Errorf("on watching: heard %v, want [local.shell]", got)
	}
	insert("local.exec")
	sys.Root.Send(pid, &conversation.RunStarted{Conversation: "c", Run: "r1", Model: "m"})
	if got := next(); !slices.Equal(got, []string{"local.exec"}) {
		t.Errorf("after a run start: heard %v, want [local.exec] alone", got)
	}
	sys.Root.Send(pid, &conversation.RunStarted{Conversation: "c", Run: "r2", Model: "m"})
	if got := next(); len(got) != 0 {
		t.Errorf("after another run start: heard %v again", got)
	}
	if g.Allowed("local.exec") || g.Allowed("local.shell") || !g.Allowed("mem.add") {
		t.Errorf("after reloading: local.exec %v, local.shell %v, mem.add %v", g.Allowed("local.exec"), g.Allowed("local.shell"), g.Allowed("mem.add"))
	}
}
