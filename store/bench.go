package store

import (
	"context"
	"fmt"
	"time"
)

// RawInsert writes n events for one session (in runs of 100) with one
// prepared INSERT each in a single transaction: the baseline the store
// actor's throughput is measured against, and the quickest way to fill a
// large log for benchmarks.
func RawInsert(ctx context.Context, db *DB, session string, n int) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := time.Now()
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (session_id, created_at, updated_at, title) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, session, ms(now), ms(now), "bench"); err != nil {
		return err
	}
	runStmt, err := tx.PrepareContext(ctx, `INSERT INTO runs (run_id, session_id, created_at, status) VALUES (?, ?, ?, 'succeeded')`)
	if err != nil {
		return err
	}
	defer runStmt.Close()
	evStmt, err := tx.PrepareContext(ctx, `INSERT INTO events (event_id, session_id, run_id, ts, kind, data_json) VALUES (?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer evStmt.Close()
	kinds := []string{KindToolRequested, KindToolInvoked, KindToolSucceeded, KindAssistantMessage}
	data := []string{`{"call":"c","tool":"fs.read_text_file","arguments":{"path":"/tmp/a.txt"}}`, `{"call":"c","tool":"fs.read_text_file","arguments":{"path":"/tmp/a.txt"},"parallel":false}`,
		`{"call":"c","tool":"fs.read_text_file","output":"the file's first line\nand the second","denied":false,"elapsed_ms":1}`, `{"text":"Here is what the file says.","tool_calls":[],"incomplete":false,"usage":{"input_tokens":0,"output_tokens":0},"estimated":false}`}
	for i := range n {
		run := fmt.Sprintf("%s-run-%d", session, i/100)
		if i%100 == 0 {
			if _, err := runStmt.ExecContext(ctx, run, session, ms(now)+int64(i)); err != nil {
				return err
			}
		}
		if _, err := evStmt.ExecContext(ctx, fmt.Sprintf("%s-ev-%d", session, i), session, run, ms(now)+int64(i), kinds[i%4], data[i%4]); err != nil {
			return err
		}
	}
	return tx.Commit()
}
