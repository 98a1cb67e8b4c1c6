package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"syscall"
	"time"

	"modernc.org/sqlite"
)

// Event kinds. The first fifteen are the design's; the rest say how a run
// ended, or what a person should see, in more detail.
const (
	KindSessionCreated    = "session.created"
	KindRunStarted        = "run.started"
	KindPromptBuilt       = "prompt.built"
	KindAssistantDelta    = "assistant.delta"
	KindAssistantMessage  = "assistant.message"
	KindToolRequested     = "tool.requested"
	KindApprovalAsked     = "approval.asked"
	KindApprovalGranted   = "approval.granted"
	KindApprovalDenied    = "approval.denied"
	KindToolInvoked       = "tool.invoked"
	KindToolSucceeded     = "tool.succeeded"
	KindToolFailed        = "tool.failed"
	KindToolTask          = "tool.task"          // the server made a task of the call: its id and each new status (data: call, tool, task, status)
	KindCapabilityGranted = "capability.granted" // the policy allowed a path or command (data: capability, target, rule)
	KindCapabilityDenied  = "capability.denied"  // the policy refused it
	KindRunSucceeded      = "run.succeeded"
	KindRunFailed         = "run.failed"
	KindRunStopped        = "run.stopped"
	KindRunInterrupted    = "run.interrupted"
	KindRunRemoved        = "run.removed" // the person took a finished run out of its conversation (delete); its events stay
	KindRunChosen         = "run.chosen"  // the person chose which version of a message shows (and the model sees)
	KindNotice            = "notice"
	KindToolsLoaded       = "tools.loaded"   // lazy tools whose schemas the model gets from now on
	KindToolsUnloaded     = "tools.unloaded" // lazy tools whose schemas the model no longer gets (data: unloaded, reason)
	// The model's view of the conversation was compacted: its first turns
	// summarised (data: turns, tokens_before, tokens_after, summary, and
	// from, the run the kept turns begin with).
	KindContextCompacted = "context.compacted"
	KindToolChanged      = "tool.definition_changed"
	KindToolReviewed     = "tool.reviewed" // the person released a quarantined tool: it is offered (data: tool, hash; no session)
	// A server asked the person something (MCP elicitation), and how it
	// ended: the fields asked and answered, never the values.
	KindElicitationAsked    = "elicitation.asked"
	KindElicitationAnswered = "elicitation.answered"
)

// Event is one row of the append-only log.
type Event struct {
	Seq       int64 // the row's position in the file, set on read
	ID        string
	SessionID string
	RunID     string
	Time      time.Time
	Kind      string
	Data      json.RawMessage
	// Foreign, on read: the event does not check against its chain (no
	// place in it, or a hash that does not match its content and the
	// event before it): not written by Deckhand as it is. What decides
	// anything (a session grant read back) ignores it.
	Foreign bool
}

// Run statuses.
const (
	RunRunning     = "running"
	RunSucceeded   = "succeeded"
	RunFailed      = "failed"
	RunStopped     = "stopped"
	RunInterrupted = "interrupted"
)

// Usage is what a run or session used.
type Usage struct {
	InputTokens  int
	OutputTokens int
	CostUSD      float64
	Estimated    bool // some figure was estimated: the server sent no usage
}

// Batch is what the store actor writes in one transaction.
type Batch struct {
	NewSessions []NewSession
	NewRuns     []NewRun
	Events      []Event
	Finished    []FinishedRun
	Titles      []Title
	Grants      []Grant
	Catalogs    []ServerCatalog
	Pins        []Pin
}

// Pin is a tool's definition as the person last accepted it (or as it was
// first seen): its hash, and the definition itself, to show what changed.
type Pin struct {
	Tool       string // alias.tool
	Hash       string
	Definition json.RawMessage
	Time       time.Time // when pinned or last accepted
	FirstSeen  time.Time // when the tool was first seen (zero before schema v5)
	// Added: the tool appeared on a server whose other tools were known
	// already (not in its first listing).
	Added bool
	// Gone is when the server's listing was first seen without the tool
	// (zero while it is listed).
	Gone time.Time
}

// ServerCatalog is the tools/list answer of a server's last connection.
type ServerCatalog struct {
	Alias string
	Tools json.RawMessage // the tools, a JSON array
	Time  time.Time
}

// NewSession creates a session row (ignored when it exists).
type NewSession struct {
	ID    string
	Time  time.Time
	Model string
}

// NewRun creates a run row in status running.
type NewRun struct {
	ID, SessionID string
	Time          time.Time
	Model         string
	Owner         string // the process running it, for interrupted-run detection
}

// FinishedRun records how a run ended and adds its usage to its session.
type FinishedRun struct {
	ID, SessionID string
	Time          time.Time
	Status        string
	Error         string
	Requests      int
	Usage         Usage
}

// Title sets a session's title if it has none yet.
type Title struct{ SessionID, Title string }

// Write applies a batch in one transaction: sessions and runs first, then
// events, then run results, so that every event's session and run exist.
func (db *DB) Write(ctx context.Context, b *Batch) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("writing the log: %w", err)
	}
	defer tx.Rollback()
	for _, s := range b.NewSessions {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO sessions (session_id, created_at, updated_at, model) VALUES (?, ?, ?, ?) ON CONFLICT (session_id) DO NOTHING`,
			s.ID, ms(s.Time), ms(s.Time), s.Model); err != nil {
			return fmt.Errorf("writing session %s: %w", s.ID, err)
		}
	}
	for _, r := range b.NewRuns {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO runs (run_id, session_id, created_at, status, model, owner) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO NOTHING`,
			r.ID, r.SessionID, ms(r.Time), RunRunning, r.Model, r.Owner); err != nil {
			return fmt.Errorf("writing run %s: %w", r.ID, err)
		}
		if _, err := tx.ExecContext(ctx,
			`UPDATE sessions SET runs = runs + 1, updated_at = max(updated_at, ?), model = ? WHERE session_id = ?`,
			ms(r.Time), r.Model, r.SessionID); err != nil {
			return err
		}
	}
	for _, c := range b.Catalogs {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO server_catalogs (alias, tools_json, updated_at, sig) VALUES (?, ?, ?, ?)
			 ON CONFLICT (alias) DO UPDATE SET tools_json = excluded.tools_json, updated_at = excluded.updated_at, sig = excluded.sig`,
			c.Alias, string(c.Tools), ms(c.Time), db.mac("catalog", c.Alias, string(c.Tools), itoa(ms(c.Time)))); err != nil {
			return fmt.Errorf("writing the tools of %s: %w", c.Alias, err)
		}
	}
	for _, t := range b.Titles {
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET title = ? WHERE session_id = ? AND (title IS NULL OR title = '')`, t.Title, t.SessionID); err != nil {
			return err
		}
	}
	if len(b.Events) > 0 {
		if err := db.appendEvents(ctx, tx, b.Events); err != nil {
			return err
		}
		var last = map[string]int64{}
		for _, e := range b.Events {
			if e.Kind == KindRunChosen {
				continue // looking at another version is not activity
			}
			last[e.SessionID] = max(last[e.SessionID], ms(e.Time))
		}
		for id, t := range last {
			if _, err := tx.ExecContext(ctx, `UPDATE sessions SET updated_at = max(updated_at, ?) WHERE session_id = ?`, t, id); err != nil {
				return err
			}
		}
	}
	for _, f := range b.Finished {
		if _, err := tx.ExecContext(ctx,
			`UPDATE runs SET status = ?, error = ?, finished_at = ?, requests = ?, input_tokens = ?, output_tokens = ?, cost_usd = ?, estimated = ?
			 WHERE run_id = ?`,
			f.Status, nullable(f.Error), ms(f.Time), f.Requests, f.Usage.InputTokens, f.Usage.OutputTokens, f.Usage.CostUSD, f.Usage.Estimated, f.ID); err != nil {
			return fmt.Errorf("finishing run %s: %w", f.ID, err)
		}
		if _, err := tx.ExecContext(ctx,
			`UPDATE sessions SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, cost_usd = cost_usd + ?,
			 estimated = max(estimated, ?), updated_at = max(updated_at, ?) WHERE session_id = ?`,
			f.Usage.InputTokens, f.Usage.OutputTokens, f.Usage.CostUSD, f.Usage.Estimated, ms(f.Time), f.SessionID); err != nil {
			return err
		}
	}
	for _, g := range b.Grants {
		if g.Revoke {
			if _, err := tx.ExecContext(ctx, `DELETE FROM approvals WHERE tool = ?`, g.Tool); err != nil {
				return fmt.Errorf("revoking the grant for %s: %w", g.Tool, err)
			}
			continue
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO approvals (approval_id, tool, scope, granted_by, granted_at, session_id, sig) VALUES (?, ?, ?, ?, ?, ?, ?)
			 ON CONFLICT (tool) DO UPDATE SET scope = excluded.scope, granted_by = excluded.granted_by, granted_at = excluded.granted_at,
			   session_id = excluded.session_id, sig = excluded.sig`,
			g.ID, g.Tool, g.Scope, g.By, ms(g.Time), nullable(g.SessionID), db.grantSig(g.Tool, g.Scope, g.By, g.SessionID, ms(g.Time))); err != nil {
			return fmt.Errorf("writing the grant for %s: %w", g.Tool, err)
		}
	}
	for _, p := range b.Pins {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO tool_pins (tool, hash, definition, pinned_at, first_seen, added, gone_at, sig) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			 ON CONFLICT (tool) DO UPDATE SET hash = excluded.hash, definition = excluded.definition, pinned_at = excluded.pinned_at,
			   first_seen = excluded.first_seen, added = excluded.added, gone_at = excluded.gone_at, sig = excluded.sig`,
			p.Tool, p.Hash, string(p.Definition), ms(p.Time), msOrZero(p.FirstSeen), p.Added, msOrZero(p.Gone),
			db.pinSig(p.Tool, p.Hash, string(p.Definition), ms(p.Time), msOrZero(p.FirstSeen), p.Added, msOrZero(p.Gone))); err != nil {
			return fmt.Errorf("pinning %s: %w", p.Tool, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("writing the log: %w", err)
	}
	return nil
}

func msOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return ms(t)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Merge puts b's rows after older's, for a batch that could not be written
// (a full disk) to go again with the next: older's rows come first, as
// they happened. Is the write atomic, a failed batch left nothing behind.
func (b *Batch) Merge(older *Batch) {
	b.NewSessions = append(older.NewSessions, b.NewSessions...)
	b.NewRuns = append(older.NewRuns, b.NewRuns...)
	b.Events = append(older.Events, b.Events...)
	b.Finished = append(older.Finished, b.Finished...)
	b.Titles = append(older.Titles, b.Titles...)
	b.Grants = append(older.Grants, b.Grants...)
	b.Catalogs = append(older.Catalogs, b.Catalogs...)
	b.Pins = append(older.Pins, b.Pins...)
}

// Rows counts the rows b would write.
func (b *Batch) Rows() int {
	return len(b.NewSessions) + len(b.NewRuns) + len(b.Events) + len(b.Finished) + len(b.Titles) + len(b.Grants) + len(b.Catalogs) + len(b.Pins)
}

// IsFull reports whether a write failed for want of room or because the
// disk failed (SQLITE_FULL, SQLITE_IOERR): what may go once there is room
// again, unlike a row the log refuses.
func IsFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case 13, 10: // SQLITE_FULL, SQLITE_IOERR
			return true
		}
	}
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EIO)
}
