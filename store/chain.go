package store

import (
	"context"
	"crypto/hmac"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// The chain. Each session's events form a chain, and the events of no
// session (the servers') another: an event carries its place in its chain
// (chain_seq, from 1) and chain_hash, the HMAC-SHA256 under the log key of
// its content (id, session, run, time, kind, data), its place, and the
// hash of the event before it. chain_heads keeps each chain's last place
// and hash, so that the next event is chained to what Deckhand last wrote
// even when a later row was taken away.
//
// What the chain proves depends on who the forger is:
//
//   - Someone who can write the log but not read the key (a sandboxed
//     server given write = ["~"]: the key is in the keyring, or in the data
//     folder every sandbox hides) cannot make a valid hash: an event
//     edited, inserted, moved or taken out of the middle of a chain, or
//     taken off its end while the head stays, breaks it, and Verify says
//     where. What it cannot see: a whole session taken away (what Delete
//     does), and the log cut back to an earlier state of its own (its last
//     events and the heads rolled back together, or an older copy of the
//     file put back).
//   - Someone who can read the key (a program running as you, unconfined)
//     can rewrite any chain whole, consistently: against them the chain
//     proves nothing beyond a careless edit.

// chainOf is the chain an event belongs to: its session, or "" for the
// servers' events.
func chainOf(session string) string { return session }

// eventHash is an event's chain hash.
func (db *DB) eventHash(chain string, seq int64, id, session, run string, ts int64, kind, data, prev string) string {
	return db.mac("event", chain, itoa(seq), id, session, run, itoa(ts), kind, data, prev)
}

type chainHead struct {
	seq  int64
	hash string
}

type querier interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

func readHead(ctx context.Context, q querier, chain string) (chainHead, error) {
	var h chainHead
	err := q.QueryRowContext(ctx, `SELECT seq, hash FROM chain_heads WHERE chain = ?`, chain).Scan(&h.seq, &h.hash)
	if errors.Is(err, sql.ErrNoRows) {
		return chainHead{}, nil
	}
	return h, err
}

// appendEvents inserts events at the ends of their chains, in tx (whose
// write lock, taken at BEGIN, keeps two processes from chaining to the
// same head).
func (db *DB) appendEvents(ctx context.Context, tx *sql.Tx, events []Event) error {
	if len(events) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO events (event_id, session_id, run_id, ts, kind, data_json, chain_seq, chain_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	heads := map[string]chainHead{}
	var order []string
	for _, e := range events {
		chain := chainOf(e.SessionID)
		h, ok := heads[chain]
		if !ok {
			if h, err = readHead(ctx, tx, chain); err != nil {
				return fmt.Errorf("reading the chain of %q: %w", chain, err)
			}
			order = append(order, chain)
		}
		h.seq++
		h.hash = db.eventHash(chain, h.seq, e.ID, e.SessionID, e.RunID, ms(e.Time), e.Kind, string(e.Data), h.hash)
		heads[chain] = h
		if _, err := stmt.ExecContext(ctx, e.ID, nullable(e.SessionID), nullable(e.RunID), ms(e.Time), e.Kind, string(e.Data), h.seq, h.hash); err != nil {
			return fmt.Errorf("writing event %s: %w", e.Kind, err)
		}
	}
	for _, chain := range order {
		h := heads[chain]
		if _, err := tx.ExecContext(ctx, `INSERT INTO chain_heads (chain, seq, hash) VALUES (?, ?, ?)
			ON CONFLICT (chain) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`, chain, h.seq, h.hash); err != nil {
			return fmt.Errorf("writing the chain of %q: %w", chain, err)
		}
	}
	return nil
}

// chainExisting chains every event of a log from before signing, in the
// order written (time, then position), inside the migration.
func (db *DB) chainExisting(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT rowid, event_id, coalesce(session_id, ''), coalesce(run_id, ''), ts, kind, data_json FROM events ORDER BY ts, rowid`)
	if err != nil {
		return err
	}
	type row struct {
		rowid                        int64
		id, session, run, kind, data string
		ts                           int64
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.rowid, &r.id, &r.session, &r.run, &r.ts, &r.kind, &r.data); err != nil {
			rows.Close()
			return err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	heads := map[string]chainHead{}
	for _, r := range all {
		chain := chainOf(r.session)
		h := heads[chain]
		h.seq++
		h.hash = db.eventHash(chain, h.seq, r.id, r.session, r.run, r.ts, r.kind, r.data, h.hash)
		heads[chain] = h
		if _, err := tx.ExecContext(ctx, `UPDATE events SET chain_seq = ?, chain_hash = ? WHERE rowid = ?`, h.seq, h.hash, r.rowid); err != nil {
			return err
		}
	}
	for chain, h := range heads {
		if _, err := tx.ExecContext(ctx, `INSERT INTO chain_heads (chain, seq, hash) VALUES (?, ?, ?)`, chain, h.seq, h.hash); err != nil {
			return err
		}
	}
	return nil
}

// Break is where a chain of the log breaks: what is wrong, and where.
type Break struct {
	Chain   string // the session, "" for the servers' events
	Seq     int64  // the place in the chain (0 when the event has none)
	EventID string // "" when the event is missing
	Kind    string // the event's kind, when there is one
	What    string // in plain words
}

func (b Break) String() string {
	where := "session " + b.Chain
	if b.Chain == "" {
		where = "the servers' events"
	}
	switch {
	case b.EventID != "" && b.Seq > 0:
		return fmt.Sprintf("%s: event %s (place %d, %s): %s", where, b.EventID, b.Seq, b.Kind, b.What)
	case b.EventID != "":
		return fmt.Sprintf("%s: event %s (%s): %s", where, b.EventID, b.Kind, b.What)
	case b.Seq > 0:
		return fmt.Sprintf("%s: place %d: %s", where, b.Seq, b.What)
	}
	return fmt.Sprintf("%s: %s", where, b.What)
}

// ChainReport is what Verify found.
type ChainReport struct {
	Chains, Events int
	Breaks         []Break
	Foreign        []Foreign // grants and pins not written by Deckhand
	OtherKey       bool      // signed with another key than this install's
}

// Intact reports whether nothing is wrong.
func (r ChainReport) Intact() bool {
	return len(r.Breaks) == 0 && len(r.Foreign) == 0 && !r.OtherKey
}

// Verify checks every chain of the log, and the signatures of its grants
// and pins.
func (db *DB) Verify(ctx context.Context) (ChainReport, error) {
	var rep ChainReport
	rep.OtherKey = db.otherKey
	var chains []string
	rows, err := db.sql.QueryContext(ctx, `SELECT coalesce(session_id, '') FROM events UNION SELECT chain FROM chain_heads`)
	if err != nil {
		return rep, fmt.Errorf("reading the chains: %w", err)
	}
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			rows.Close()
			return rep, err
		}
		chains = append(chains, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return rep, err
	}
	slices.Sort(chains)
	chains = slices.Compact(chains)
	for _, c := range chains {
		breaks, n, err := db.verifyChain(ctx, c)
		if err != nil {
			return rep, err
		}
		rep.Chains++
		rep.Events += n
		rep.Breaks = append(rep.Breaks, breaks...)
	}
	if rep.Foreign, err = db.Foreign(ctx); err != nil {
		return rep, err
	}
	return rep, nil
}

// VerifySession checks one session's chain: nil when it is intact.
func (db *DB) VerifySession(ctx context.Context, id string) ([]Break, error) {
	breaks, _, err := db.verifyChain(ctx, chainOf(id))
	if err == nil && db.otherKey {
		breaks = append(breaks, Break{Chain: id, What: "the log was signed with another key than this install's (moved from another machine, or the key was lost): it cannot be checked"})
	}
	return breaks, err
}

// verifyChain walks one chain in order of place, checking each event's
// hash against the stored hash of the one before it (so that one edited
// event is reported once, not with everything after it), the places for
// gaps and doubles, and the end against the chain's head.
func (db *DB) verifyChain(ctx context.Context, chain string) ([]Break, int, error) {
	where := "session_id = ?"
	args := []any{chain}
	if chain == "" {
		where, args = "session_id IS NULL", nil
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT event_id, coalesce(session_id, ''), coalesce(run_id, ''), ts, kind, data_json, chain_seq, coalesce(chain_hash, '')
		FROM events WHERE `+where+` ORDER BY chain_seq IS NULL, chain_seq, rowid`, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the chain of %q: %w", chain, err)
	}
	type row struct {
		id, session, run, kind, data, hash string
		ts                                 int64
		seq                                sql.NullInt64
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.session, &r.run, &r.ts, &r.kind, &r.data, &r.seq, &r.hash); err != nil {
			rows.Close()
			return nil, 0, err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	head, err := readHead(ctx, db.sql, chain)
	if err != nil {
		return nil, 0, err
	}
	var breaks []Break
	prev, expect := "", int64(1)
	for i := 0; i < len(all); {
		r := all[i]
		if !r.seq.Valid {
			breaks = append(breaks, Break{Chain: chain, EventID: r.id, Kind: r.kind, What: "inserted: it has no place in the chain (not written by Deckhand)"})
			i++
			continue
		}
		seq := r.seq.Int64
		j := i
		for j < len(all) && all[j].seq.Valid && all[j].seq.Int64 == seq {
			j++
		}
		same := all[i:j]
		i = j
		if head.seq > 0 && seq > head.seq {
			// Past the head: no event Deckhand wrote is there.
			for _, r := range same {
				breaks = append(breaks, Break{Chain: chain, Seq: seq, EventID: r.id, Kind: r.kind, What: fmt.Sprintf("inserted: after the last event Deckhand wrote (place %d)", head.seq)})
			}
			continue
		}
		gap := seq > expect
		if gap {
			what := fmt.Sprintf("event %d is missing (deleted)", expect)
			if seq-expect > 1 {
				what = fmt.Sprintf("events %d to %d are missing (deleted)", expect, seq-1)
			}
			breaks = append(breaks, Break{Chain: chain, Seq: expect, What: what})
		}
		good := -1
		if !gap {
			for k, r := range same {
				if hmacEqual(r.hash, db.eventHash(chain, seq, r.id, r.session, r.run, r.ts, r.kind, r.data, prev)) {
					good = k
					break
				}
			}
		}
		for k, r := range same {
			switch {
			case k == good, gap && k == 0:
				// In order (or unverifiable after a gap: what follows is
				// checked against its stored hash).
			case good >= 0 || (gap && k > 0):
				breaks = append(breaks, Break{Chain: chain, Seq: seq, EventID: r.id, Kind: r.kind, What: "inserted: a second event at this place (not written by Deckhand)"})
			default:
				breaks = append(breaks, Break{Chain: chain, Seq: seq, EventID: r.id, Kind: r.kind, What: "edited: its content does not match its hash"})
			}
		}
		if good >= 0 {
			prev = same[good].hash
		} else {
			prev = same[0].hash
		}
		expect = seq + 1
	}
	last := expect - 1
	switch {
	case head.seq == 0 && last > 0:
		breaks = append(breaks, Break{Chain: chain, What: "the chain's head is missing (removed outside Deckhand)"})
	case head.seq > last:
		what := fmt.Sprintf("event %d, the last Deckhand wrote, is missing (deleted)", head.seq)
		if head.seq-last > 1 {
			what = fmt.Sprintf("events %d to %d, the last Deckhand wrote, are missing (deleted)", last+1, head.seq)
		}
		breaks = append(breaks, Break{Chain: chain, Seq: last + 1, What: what})
	case head.seq == last && last > 0 && !hmacEqual(head.hash, prev):
		breaks = append(breaks, Break{Chain: chain, Seq: last, What: "the chain's head does not match its last event"})
	}
	return breaks, len(all), nil
}

func hmacEqual(a, b string) bool { return hmac.Equal([]byte(a), []byte(b)) }

// Tampered says, for a person, that a session's record was changed
// outside Deckhand and where first (breaks from VerifySession, at least
// one).
func Tampered(breaks []Break) string {
	more := ""
	if len(breaks) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(breaks)-1)
	}
	return fmt.Sprintf("this session's record was changed outside Deckhand: %s%s; deckhand logs --verify checks the whole log", breaks[0], more)
}
