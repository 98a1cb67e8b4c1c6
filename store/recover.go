package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// CostFunc prices a model's tokens in US dollars (nil: no price known).
type CostFunc func(model string, input, output int) float64

// CloseDeadRuns closes the runs left "running" by a process that is gone
// (killed, crashed, the machine restarted): each becomes interrupted, with a
// run.interrupted event, and the usage its events show is counted in the run
// and its session. Any process that opens the log may call it, and several
// may at once: a run is closed by exactly one of them. It returns how many
// runs it closed.
func (db *DB) CloseDeadRuns(ctx context.Context, cost CostFunc) (int, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT run_id, session_id, coalesce(model, ''), coalesce(owner, '') FROM runs WHERE status = ?`, RunRunning)
	if err != nil {
		return 0, fmt.Errorf("looking for interrupted runs: %w", err)
	}
	type dead struct{ id, session, model, owner string }
	var found []dead
	for rows.Next() {
		var d dead
		if err := rows.Scan(&d.id, &d.session, &d.model, &d.owner); err != nil {
			rows.Close()
			return 0, err
		}
		if !OwnerAlive(d.owner) {
			found = append(found, d)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	closed := 0
	for _, d := range found {
		events, err := db.Events(ctx, Filter{RunID: d.id})
		if err != nil {
			return closed, err
		}
		u := InterruptedUsage(events)
		if cost != nil {
			u.CostUSD = cost(d.model, u.InputTokens, u.OutputTokens)
		}
		at := time.Now()
		if n := len(events); n > 0 && !events[n-1].Time.Before(at) {
			at = events[n-1].Time.Add(time.Millisecond) // after the last word, whatever the clocks say
		}
		ok, err := db.closeRun(ctx, d.id, d.session, d.owner, at, u)
		if err != nil {
			return closed, err
		}
		if ok {
			closed++
		}
	}
	return closed, nil
}

// closeRun marks one run interrupted if it is still marked running.
func (db *DB) closeRun(ctx context.Context, id, session, owner string, now time.Time, u Usage) (bool, error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("closing run %s: %w", id, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx,
		`UPDATE runs SET status = ?, error = ?, finished_at = ?, input_tokens = ?, output_tokens = ?, cost_usd = ?, estimated = ?
		 WHERE run_id = ? AND status = ?`,
		RunInterrupted, "Deckhand stopped while the run was in progress", ms(now), u.InputTokens, u.OutputTokens, u.CostUSD, u.Estimated,
		id, RunRunning)
	if err != nil {
		return false, fmt.Errorf("closing run %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil // another process closed it first
	}
	data, _ := json.Marshal(map[string]any{"owner": owner, "input_tokens": u.InputTokens, "output_tokens": u.OutputTokens,
		"cost_usd": u.CostUSD, "estimated": u.Estimated})
	if err := db.appendEvents(ctx, tx, []Event{{ID: fmt.Sprintf("ev-interrupted-%s", id), SessionID: session, RunID: id, Time: now,
		Kind: KindRunInterrupted, Data: data}}); err != nil {
		return false, fmt.Errorf("closing run %s: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx,
		`UPDATE sessions SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, cost_usd = cost_usd + ?,
		 estimated = max(estimated, ?) WHERE session_id = ?`,
		u.InputTokens, u.OutputTokens, u.CostUSD, u.Estimated, session); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

// InterruptedUsage is what a run that never finished used, from its events:
// the usage of each answer that arrived whole, and for an answer cut off
// mid-stream an estimate (its prompt from the request's estimated size, its
// output from the text that had arrived, about four bytes a token).
func InterruptedUsage(events []Event) Usage {
	var u Usage
	prompt, streamed := 0, 0
	for _, e := range events {
		switch e.Kind {
		case KindPromptBuilt, KindAssistantDelta, KindAssistantMessage:
		default:
			continue
		}
		d, err := e.Decode()
		if err != nil {
			continue
		}
		switch e.Kind {
		case KindPromptBuilt:
			prompt, streamed = d.EstimatedTokens, 0
		case KindAssistantDelta:
			streamed += len(d.Text)
		case KindAssistantMessage:
			u.InputTokens += d.Usage.InputTokens
			u.OutputTokens += d.Usage.OutputTokens
			u.Estimated = u.Estimated || d.Estimated
			prompt, streamed = 0, 0
		}
	}
	if prompt > 0 || streamed > 0 {
		// A request was under way: it was sent, so it counts.
		u.InputTokens += prompt
		u.OutputTokens += (streamed + 3) / 4
		u.Estimated = true
	}
	return u
}
