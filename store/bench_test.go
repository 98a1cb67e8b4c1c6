package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// millionEvents opens a log of 1,000 sessions, 10 runs each, 100 events a
// run: a million events. It is built once and kept in the temporary
// directory for later runs.
func millionEvents(b *testing.B) *DB {
	b.Helper()
	path := filepath.Join(os.TempDir(), fmt.Sprintf("deckhand-bench-1m-v%d.db", SchemaVersion))
	db, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	var n int
	db.sql.QueryRow(`SELECT count(*) FROM events`).Scan(&n)
	if n != 1_000_000 {
		db.Close()
		os.Remove(path)
		db, err = Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		for s := range 1000 {
			if err := RawInsert(context.Background(), db, fmt.Sprintf("conv-%04d", s), 1000); err != nil {
				b.Fatal(err)
			}
		}
		db.sql.Exec(`UPDATE sessions SET runs = 10, updated_at = created_at + cast(substr(session_id, 6) as integer)`)
		db.sql.Exec(`ANALYZE`)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func plan(b *testing.B, db *DB, query string, args ...any) string {
	rows, err := db.sql.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var out string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		rows.Scan(&id, &parent, &notused, &detail)
		out += detail + "; "
	}
	return out
}

// BenchmarkMillionEvents times what `deckhand sessions` and `deckhand logs`
// read from a log of a million events, and logs the query plans (which
// index each uses).
func BenchmarkMillionEvents(b *testing.B) {
	db := millionEvents(b)
	ctx := context.Background()
	run := "conv-0500-run-5"
	b.Run("sessions", func(b *testing.B) {
		b.Log(plan(b, db, `SELECT `+sessionCols+` FROM sessions ORDER BY updated_at DESC LIMIT ?`, 50))
		for b.Loop() {
			if list, err := db.Sessions(ctx, 50); err != nil || len(list) != 50 {
				b.Fatal(len(list), err)
			}
		}
	})
	b.Run("run-events", func(b *testing.B) {
		b.Log(plan(b, db, `SELECT rowid FROM events WHERE run_id = ? ORDER BY ts, rowid`, run))
		for b.Loop() {
			if events, err := db.Events(ctx, Filter{RunID: run}); err != nil || len(events) != 100 {
				b.Fatal(len(events), err)
			}
		}
	})
	b.Run("session-events", func(b *testing.B) {
		b.Log(plan(b, db, `SELECT rowid FROM events WHERE session_id = ? ORDER BY ts, rowid`, "conv-0500"))
		for b.Loop() {
			if events, err := db.Events(ctx, Filter{SessionID: "conv-0500"}); err != nil || len(events) != 1000 {
				b.Fatal(len(events), err)
			}
		}
	})
}
