package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func open(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open() = %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func version(t *testing.T, path string) int {
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var v int
	raw.QueryRow("PRAGMA user_version").Scan(&v)
	return v
}

func TestWriteAndRead(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	ctx := t.Context()
	t0 := time.UnixMilli(1_800_000_000_000)
	ev := func(id, run, kind string, at time.Duration, data string) Event {
		return Event{ID: id, SessionID: "s1", RunID: run, Time: t0.Add(at), Kind: kind, Data: json.RawMessage(data)}
	}
	if err := db.Write(ctx, &Batch{
		NewSessions: []NewSession{{ID: "s1", Time: t0, Model: "m"}},
		NewRuns:     []NewRun{{ID: "r1", SessionID: "s1", Time: t0, Model: "m", Owner: Owner()}},
		Titles:      []Title{{SessionID: "s1", Title: "first question"}},
		Events: []Event{
			ev("e1", "", KindSessionCreated, 0, `{}`),
			ev("e2", "r1", KindRunStarted, time.Millisecond, `{"text":"first question"}`),
			ev("e3", "r1", KindAssistantMessage, 2*time.Millisecond, `{"text":"answer"}`),
		},
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Write(ctx, &Batch{
		Titles:   []Title{{SessionID: "s1", Title: "a later title is ignored"}},
		Events:   []Event{ev("e4", "r1", KindRunSucceeded, 3*time.Millisecond, `{}`)},
		Finished: []FinishedRun{{ID: "r1", SessionID: "s1", Time: t0.Add(3 * time.Millisecond), Status: RunSucceeded, Requests: 2, Usage: Usage{InputTokens: 100, OutputTokens: 20, CostUSD: 0.5, Estimated: true}}},
		Grants:   []Grant{{ID: "g1", Tool: "fs.write_file", Scope: "always", By: "user", SessionID: "s1", Time: t0}},
	}); err != nil {
		t.Fatal(err)
	}

	sessions, err := db.Sessions(ctx, 0)
	if err != nil || len(sessions) != 1 {
		t.Fatalf("Sessions() = %v, %v", sessions, err)
	}
	s := sessions[0]
	if s.Title != "first question" || s.Runs != 1 || s.Usage != (Usage{100, 20, 0.5, true}) || !s.Updated.Equal(t0.Add(3*time.Millisecond)) {
		t.Errorf("session = %+v", s)
	}
	r, err := db.Run(ctx, "r")
	if err != nil || r.Status != RunSucceeded || r.Requests != 2 || r.Usage.InputTokens != 100 {
		t.Errorf("Run(r) = %+v, %v", r, err)
	}
	events, err := db.Events(ctx, Filter{RunID: "r1"})
	if err != nil || len(events) != 3 {
		t.Fatalf("Events(r1) = %d, %v", len(events), err)
	}
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Kind)
	}
	if strings.Join(kinds, ",") != "run.started,assistant.message,run.succeeded" {
		t.Errorf("kinds = %v", kinds)
	}
	after, _ := db.Events(ctx, Filter{SessionID: "s1", After: &events[0]})
	if len(after) != 2 || after[0].ID != "e3" {
		t.Errorf("events after e2 = %+v", after)
	}
	if ok, _ := db.Granted(ctx, "fs.write_file"); !ok {
		t.Errorf("grant not kept")
	}
	if g, err := db.RevokeGrant(ctx, "g1"); err != nil || g.Tool != "fs.write_file" {
		t.Errorf("RevokeGrant() = %+v, %v", g, err)
	}
	if ok, _ := db.Granted(ctx, "fs.write_file"); ok {
		t.Errorf("grant kept after revoke")
	}
	if _, err := db.RevokeGrant(ctx, "g1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("RevokeGrant(again) = %v", err)
	}
	if _, err := db.Session(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Session(nope) = %v", err)
	}
	if check, err := db.IntegrityCheck(ctx); check != "ok" || err != nil {
		t.Errorf("IntegrityCheck() = %q, %v", check, err)
	}
}

func TestAmbiguousPrefix(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	now := time.Now()
	db.Write(t.Context(), &Batch{NewSessions: []NewSession{{ID: "conv-1a", Time: now}, {ID: "conv-1b", Time: now}}})
	if _, err := db.Session(t.Context(), "conv-1"); err == nil || !strings.Contains(err.Error(), "more than one") {
		t.Errorf("Session(ambiguous) = %v", err)
	}
	if s, err := db.Session(t.Context(), "conv-1b"); err != nil || s.ID != "conv-1b" {
		t.Errorf("Session(exact) = %+v, %v", s, err)
	}
}

// A log written by Bosun's M0 schema (version 1) gains Deckhand's columns,
// with the session totals computed from its runs.
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := raw.ExecContext(ctx, migrations[0]); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO sessions VALUES ('old', 1000, 2000, 'an old chat')`,
		`INSERT INTO runs VALUES ('run-a', 'old', 1000, 'succeeded', 'm', 10, 5, 0.25, NULL)`,
		`INSERT INTO runs VALUES ('run-b', 'old', 1500, 'failed', 'm', 7, 1, 0.5, 'boom')`,
		`INSERT INTO events VALUES ('ev-1', 'old', 'run-a', 1000, 'run.started', '{"text":"hi"}')`,
		`PRAGMA user_version = 1`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatal(q, err)
		}
	}
	raw.Close()

	db := open(t, path)
	if v := version(t, path); v != SchemaVersion {
		t.Errorf("version after open = %d, want %d", v, SchemaVersion)
	}
	s, err := db.Session(ctx, "old")
	if err != nil || s.Runs != 2 || s.Usage.InputTokens != 17 || s.Usage.OutputTokens != 6 || s.Usage.CostUSD != 0.75 || s.Title != "an old chat" {
		t.Errorf("migrated session = %+v, %v", s, err)
	}
	events, _ := db.Events(ctx, Filter{RunID: "run-a"})
	if len(events) != 1 || string(events[0].Data) != `{"text":"hi"}` {
		t.Errorf("migrated events = %+v", events)
	}
	// Deckhand's own writes work on the migrated file.
	if err := db.Write(ctx, &Batch{Grants: []Grant{{ID: "g", Tool: "a.b", Scope: "always", By: "u", Time: time.Now()}}}); err != nil {
		t.Errorf("writing to a migrated log: %v", err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "future.db")
	raw, _ := sql.Open("sqlite", "file:"+path)
	raw.Exec("CREATE TABLE x (y)")
	raw.Exec("PRAGMA user_version = 99")
	raw.Close()
	_, err := Open(t.Context(), path)
	if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "schema version 99") {
		t.Errorf("Open(newer) = %v", err)
	}
}

func TestOwnerAlive(t *testing.T) {
	if !OwnerAlive(Owner()) {
		t.Errorf("this process is not alive by its own owner %q", Owner())
	}
	for _, o := range []string{"", "x", "999999999:1", "1:0"} {
		if OwnerAlive(o) {
			t.Errorf("OwnerAlive(%q) = true", o)
		}
	}
}

// Several openers of one new file at once all succeed (the race to switch it
// to WAL is retried).
func TestConcurrentOpen(t *testing.T) {
	for round := range 5 {
		path := filepath.Join(t.TempDir(), "new.db")
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				db, err := Open(context.Background(), path)
				if err == nil {
					db.Close()
				}
				errs <- err
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: Open() = %v", round, err)
			}
		}
	}
}

// Every connection of the pool keeps at most 512 KiB of pages: at
// SQLite's default of 2 MB each, the connections a start opens held
// megabytes of the host's memory after it (freed C memory is kept by
// its allocator for reuse).
func TestPageCacheSmall(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	ctx := t.Context()
	// Two connections at once: the second is opened with the same pragmas.
	c1, err := db.sql.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	c2, err := db.sql.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	for i, c := range []*sql.Conn{c1, c2} {
		var kib int
		if err := c.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&kib); err != nil {
			t.Fatal(err)
		}
		if kib != -512 {
			t.Errorf("connection %d: PRAGMA cache_size = %d, want -512 (512 KiB)", i+1, kib)
		}
	}
}
