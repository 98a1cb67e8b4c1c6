package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotFound is returned for an id that matches nothing.
var ErrNotFound = errors.New("not found")

// Session is one conversation's summary.
type Session struct {
	ID      string
	Title   string
	Model   string
	Created time.Time
	Updated time.Time // last activity
	Runs    int
	Usage   Usage
	// LastRun is the status of the session's latest run ("" when it has
	// none): RunRunning only while the process running it is alive, read as
	// RunInterrupted once that process is gone.
	LastRun string
	// Match is where SearchSessions found its words in the messages.
	Match Match
	// Pinned: the person pinned the chat to the top of the list
	// (PinSession); lists give pinned sessions first.
	Pinned bool
}

const sessionCols = `session_id, coalesce(title, ''), coalesce(model, ''), created_at, updated_at, runs, input_tokens, output_tokens, cost_usd, estimated, pinned_at > 0,
	coalesce((SELECT status || char(31) || coalesce(owner, '') FROM runs r WHERE r.session_id = sessions.session_id ORDER BY created_at DESC LIMIT 1), '')`

func scanSession(row interface{ Scan(...any) error }) (Session, error) {
	var s Session
	var created, updated int64
	var last string
	err := row.Scan(&s.ID, &s.Title, &s.Model, &created, &updated, &s.Runs, &s.Usage.InputTokens, &s.Usage.OutputTokens, &s.Usage.CostUSD, &s.Usage.Estimated, &s.Pinned, &last)
	s.Created, s.Updated = fromMS(created), fromMS(updated)
	status, owner, _ := strings.Cut(last, "\x1f")
	s.LastRun = liveStatus(status, owner)
	return s, err
}

// liveStatus is a run's status as a reader should see it: a run marked
// running whose process is gone (killed, crashed, the machine restarted) is
// interrupted, whether or not a later Deckhand has closed it yet.
func liveStatus(status, owner string) string {
	if status == RunRunning && !OwnerAlive(owner) {
		return RunInterrupted
	}
	return status
}

// Sessions lists sessions, the most recently active first. It reads only the
// sessions table (through idx_sessions_updated), however long the log.
func (db *DB) Sessions(ctx context.Context, limit int) ([]Session, error) {
	if limit <= 0 {
		limit = 1000
	}
	out, err := db.querySessions(ctx, `SELECT `+sessionCols+` FROM sessions ORDER BY `+sessionOrder+` LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("listing sessions: %w", err)
	}
	return out, nil
}

// sessionOrder lists sessions pinned first, most recently active first.
const sessionOrder = `pinned_at > 0 DESC, updated_at DESC`

// querySessions runs a query of sessionCols rows and reads them.
func (db *DB) querySessions(ctx context.Context, query string, args ...any) ([]Session, error) {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Session finds one session by id or unique id prefix.
func (db *DB) Session(ctx context.Context, id string) (Session, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+sessionCols+` FROM sessions WHERE session_id >= ? AND session_id < ? ORDER BY session_id LIMIT 2`, id, id+"\U0010FFFF")
	if err != nil {
		return Session{}, err
	}
	defer rows.Close()
	var found []Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return Session{}, err
		}
		found = append(found, s)
	}
	switch {
	case len(found) == 0:
		return Session{}, fmt.Errorf("no session %q: %w", id, ErrNotFound)
	case len(found) > 1 && found[0].ID != id:
		return Session{}, fmt.Errorf("%q matches more than one session; give more of the id", id)
	}
	return found[0], nil
}

// Run is one run's summary.
type Run struct {
	ID        string
	SessionID string
	Status    string
	Model     string
	Error     string
	Created   time.Time
	Finished  time.Time
	Requests  int
	Usage     Usage
	Owner     string
}

const runCols = `run_id, session_id, status, coalesce(model, ''), coalesce(error, ''), created_at, coalesce(finished_at, 0), requests,
	coalesce(input_tokens, 0), coalesce(output_tokens, 0), coalesce(cost_usd, 0), estimated, coalesce(owner, '')`

func scanRun(row interface{ Scan(...any) error }) (Run, error) {
	var r Run
	var created, finished int64
	err := row.Scan(&r.ID, &r.SessionID, &r.Status, &r.Model, &r.Error, &created, &finished, &r.Requests,
		&r.Usage.InputTokens, &r.Usage.OutputTokens, &r.Usage.CostUSD, &r.Usage.Estimated, &r.Owner)
	r.Created, r.Finished = fromMS(created), fromMS(finished)
	r.Status = liveStatus(r.Status, r.Owner)
	return r, err
}

func (db *DB) runs(ctx context.Context, where string, args ...any) ([]Run, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+runCols+` FROM runs WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Runs lists a session's runs, oldest first (idx_runs_session).
func (db *DB) Runs(ctx context.Context, sessionID string) ([]Run, error) {
	return db.runs(ctx, `session_id = ? ORDER BY created_at`, sessionID)
}

// Run finds one run by id or unique id prefix.
func (db *DB) Run(ctx context.Context, id string) (Run, error) {
	found, err := db.runs(ctx, `run_id >= ? AND run_id < ? ORDER BY run_id LIMIT 2`, id, id+"\U0010FFFF")
	switch {
	case err != nil:
		return Run{}, err
	case len(found) == 0:
		return Run{}, fmt.Errorf("no run %q: %w", id, ErrNotFound)
	case len(found) > 1 && found[0].ID != id:
		return Run{}, fmt.Errorf("%q matches more than one run; give more of the id", id)
	}
	return found[0], nil
}

// Filter selects events: of one session or one run, after a position.
type Filter struct {
	SessionID string
	RunID     string
	// Servers: the events of no session (what servers did on their own:
	// the connections a sandboxed server asked the egress proxy for).
	Servers bool
	After   *Event // only events after this one (for following a log)
	Limit   int    // 0: all
}

// Events reads events in the order they happened (time, then position),
// through idx_events_run_ts or idx_events_session_ts.
func (db *DB) Events(ctx context.Context, f Filter) ([]Event, error) {
	var where []string
	var args []any
	switch {
	case f.RunID != "":
		where, args = append(where, "run_id = ?"), append(args, f.RunID)
	case f.SessionID != "":
		where, args = append(where, "session_id = ?"), append(args, f.SessionID)
	case f.Servers:
		where = append(where, "session_id IS NULL")
	default:
		return nil, errors.New("events: a session, a run or the servers' events is needed")
	}
	if f.After != nil {
		where = append(where, "(ts, rowid) > (?, ?)")
		args = append(args, ms(f.After.Time), f.After.Seq)
	}
	q := `SELECT rowid, event_id, coalesce(session_id, ''), coalesce(run_id, ''), ts, kind, data_json, chain_seq, coalesce(chain_hash, '')
		FROM events WHERE ` + strings.Join(where, " AND ") + ` ORDER BY ts, rowid`
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("reading events: %w", err)
	}
	var out []Event
	type link struct {
		chain string
		seq   int64
	}
	hashes := map[link]string{} // the stored hash at each place read
	type unchecked struct {
		i         int
		seq       int64
		hash, raw string
		ts        int64
	}
	var check []unchecked
	for rows.Next() {
		var e Event
		var ts int64
		var data, hash string
		var seq sql.NullInt64
		if err := rows.Scan(&e.Seq, &e.ID, &e.SessionID, &e.RunID, &ts, &e.Kind, &data, &seq, &hash); err != nil {
			rows.Close()
			return nil, err
		}
		e.Time, e.Data = fromMS(ts), json.RawMessage(data)
		e.Foreign = !seq.Valid
		if seq.Valid {
			hashes[link{chainOf(e.SessionID), seq.Int64}] = hash
			check = append(check, unchecked{len(out), seq.Int64, hash, data, ts})
		}
		out = append(out, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Each event is checked against its chain as it is read: its hash
	// against its content and the stored hash of the event before it
	// (read here, or looked up when the filter left it out).
	for _, c := range check {
		e := &out[c.i]
		prev := ""
		if c.seq > 1 {
			var ok bool
			if prev, ok = hashes[link{chainOf(e.SessionID), c.seq - 1}]; !ok {
				err := db.sql.QueryRowContext(ctx, `SELECT coalesce(chain_hash, '') FROM events WHERE session_id IS ? AND chain_seq = ?`,
					nullable(e.SessionID), c.seq-1).Scan(&prev)
				if err != nil && !errors.Is(err, sql.ErrNoRows) {
					return nil, fmt.Errorf("reading events: %w", err)
				}
			}
		}
		e.Foreign = prev == "" && c.seq > 1 ||
			!hmacEqual(c.hash, db.eventHash(chainOf(e.SessionID), c.seq, e.ID, e.SessionID, e.RunID, c.ts, e.Kind, c.raw, prev))
	}
	return out, nil
}

// Grant is one "always allow".
type Grant struct {
	ID        string
	Tool      string // alias.tool
	Scope     string // "always"
	By        string
	SessionID string // where it was granted
	Time      time.Time
	// Revoke, in a Batch, deletes the tool's grant instead: a Batch's
	// Grants are grants and revocations in the order they were made.
	Revoke bool
	// Foreign, on read: the row was not written by Deckhand (its
	// signature is missing or wrong). It never counts.
	Foreign bool
}

// Grants lists the "always allow" rows of the log, by tool, each marked
// Foreign when Deckhand did not write it (only the others count).
func (db *DB) Grants(ctx context.Context) ([]Grant, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT approval_id, tool, scope, granted_by, coalesce(session_id, ''), granted_at, coalesce(sig, '') FROM approvals ORDER BY tool`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Grant
	for rows.Next() {
		var g Grant
		var t int64
		var sig string
		if err := rows.Scan(&g.ID, &g.Tool, &g.Scope, &g.By, &g.SessionID, &t, &sig); err != nil {
			return nil, err
		}
		g.Time = fromMS(t)
		g.Foreign = !db.verifies(sig, "grant", g.Tool, g.Scope, g.By, g.SessionID, itoa(t))
		out = append(out, g)
	}
	return out, rows.Err()
}

// Granted reports whether tool has an "always allow" that Deckhand wrote.
func (db *DB) Granted(ctx context.Context, tool string) (bool, error) {
	var scope, by, session, sig string
	var at int64
	err := db.sql.QueryRowContext(ctx, `SELECT scope, granted_by, coalesce(session_id, ''), granted_at, coalesce(sig, '') FROM approvals WHERE tool = ?`, tool).
		Scan(&scope, &by, &session, &at, &sig)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return db.verifies(sig, "grant", tool, scope, by, session, itoa(at)), nil
}

// RevokeGrant removes the grant with this id (or for this tool). It writes
// directly: revoking is a person's command, typically from another process
// than the one logging.
func (db *DB) RevokeGrant(ctx context.Context, idOrTool string) (Grant, error) {
	grants, err := db.Grants(ctx)
	if err != nil {
		return Grant{}, err
	}
	for _, g := range grants {
		if g.ID == idOrTool || g.Tool == idOrTool {
			if _, err := db.sql.ExecContext(ctx, `DELETE FROM approvals WHERE approval_id = ?`, g.ID); err != nil {
				return Grant{}, fmt.Errorf("revoking %s: %w", g.Tool, err)
			}
			return g, nil
		}
	}
	return Grant{}, fmt.Errorf("no grant %q: %w", idOrTool, ErrNotFound)
}

// Catalogs returns the tools of each server's last connection, by alias:
// those Deckhand wrote (a catalog it did not write, whose descriptions the
// model would read before the server connects, is left out, and Foreign
// lists it).
func (db *DB) Catalogs(ctx context.Context) (map[string]ServerCatalog, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT alias, tools_json, updated_at, coalesce(sig, '') FROM server_catalogs`)
	if err != nil {
		return nil, fmt.Errorf("reading server catalogs: %w", err)
	}
	defer rows.Close()
	out := map[string]ServerCatalog{}
	for rows.Next() {
		var c ServerCatalog
		var tools, sig string
		var at int64
		if err := rows.Scan(&c.Alias, &tools, &at, &sig); err != nil {
			return nil, err
		}
		if !db.verifies(sig, "catalog", c.Alias, tools, itoa(at)) {
			continue
		}
		c.Tools, c.Time = json.RawMessage(tools), fromMS(at)
		out[c.Alias] = c
	}
	return out, rows.Err()
}

// Pins returns every pinned tool definition Deckhand wrote, by tool
// (alias.tool); a row it did not write is left out, as if the tool had
// never been seen (Foreign lists it).
func (db *DB) Pins(ctx context.Context) (map[string]Pin, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT tool, hash, definition, pinned_at, first_seen, added, gone_at, coalesce(sig, '') FROM tool_pins`)
	if err != nil {
		return nil, fmt.Errorf("reading pinned tools: %w", err)
	}
	defer rows.Close()
	out := map[string]Pin{}
	for rows.Next() {
		var p Pin
		var def, sig string
		var at, first, gone int64
		if err := rows.Scan(&p.Tool, &p.Hash, &def, &at, &first, &p.Added, &gone, &sig); err != nil {
			return nil, err
		}
		if !db.verifies(sig, "pin", p.Tool, p.Hash, def, itoa(at), itoa(first), boolDigit(p.Added), itoa(gone)) {
			continue
		}
		p.Definition, p.Time = json.RawMessage(def), fromMS(at)
		if first > 0 {
			p.FirstSeen = fromMS(first)
		}
		if gone > 0 {
			p.Gone = fromMS(gone)
		}
		out[p.Tool] = p
	}
	return out, rows.Err()
}
