package store

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// manyChats opens a log of 500 chats of 20 turns each: the person's
// message, a tool's result of about 2 KB and the model's answer of about
// 500 bytes (30,000 events), built once and kept in the temporary
// directory for later runs.
func manyChats(b *testing.B) *DB {
	b.Helper()
	path := filepath.Join(os.TempDir(), fmt.Sprintf("deckhand-bench-chats-v%d.db", SchemaVersion))
	const chats, turns = 500, 20
	db, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	var n int
	db.sql.QueryRow(`SELECT count(*) FROM events`).Scan(&n)
	if n == chats*turns*3 {
		b.Cleanup(func() { db.Close() })
		return db
	}
	db.Close()
	os.Remove(path)
	if db, err = Open(context.Background(), path); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	t0 := time.UnixMilli(1_800_000_000_000)
	line := "Line %d of the listing: drwxr-xr-x 2 user user 4096 Nov 27 12:00 folder-%d with some words in it\n"
	for c := range chats {
		batch := &Batch{NewSessions: []NewSession{{ID: fmt.Sprintf("chat-%04d", c), Time: t0}}}
		for r := range turns {
			run := fmt.Sprintf("chat-%04d-run-%02d", c, r)
			at := t0.Add(time.Duration(c*turns+r) * time.Second)
			batch.NewRuns = append(batch.NewRuns, NewRun{ID: run, SessionID: batch.NewSessions[0].ID, Time: at})
			var out strings.Builder
			for i := range 20 {
				fmt.Fprintf(&out, line, i, c*1000+r*20+i)
			}
			for i, e := range []struct {
				kind string
				data map[string]any
			}{
				{KindRunStarted, map[string]any{"text": fmt.Sprintf("Please list the folder number %d and tell me what is in it", r)}},
				{KindToolSucceeded, map[string]any{"call": "c", "tool": "fs.list", "output": out.String()}},
				{KindAssistantMessage, map[string]any{"text": strings.Repeat("The folder holds twenty entries, each a folder of its own. ", 8)}},
			} {
				raw, _ := json.Marshal(e.data)
				batch.Events = append(batch.Events, Event{ID: fmt.Sprintf("%s-%d", run, i), SessionID: batch.NewSessions[0].ID, RunID: run,
					Time: at.Add(time.Duration(i)), Kind: e.kind, Data: raw})
			}
		}
		if err := db.Write(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
	}
	db.sql.Exec(`ANALYZE`)
	return db
}

// BenchmarkSearchSessions times the sidebar's search on a log of 500
// chats: a word no chat holds (every text read), a word every answer
// holds (the first match ends each chat's search), and two words of which
// one is in a tool's result only.
func BenchmarkSearchSessions(b *testing.B) {
	db := manyChats(b)
	ctx := context.Background()
	for _, q := range []struct{ name, query string }{
		{"absent", "zebra"},
		{"every-answer", "twenty entries"},
		{"in-a-result", "folder-4242"},
	} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := db.SearchSessions(ctx, q.query, 50); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
