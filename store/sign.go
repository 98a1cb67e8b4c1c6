package store

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"sync"
	"time"
)

// Signing. The rows of the log that decide what runs without asking (the
// "always allow" grants and the tools' pinned definitions), and the tool
// lists saved for servers that connect on demand (whose descriptions the
// model reads before the server is there), each carry an
// HMAC-SHA256 under this install's log key (keys.LogKey: in the keyring,
// or a file in Deckhand's data folder that every sandbox hides). A row
// whose signature is missing or wrong was not written by Deckhand: it is
// never honoured, and Foreign lists it. The events are chained under the
// same key (see chain.go).
//
// A log from before signing (schema version 5 or older) is adopted once,
// by the migration to version 6, in the same transaction that starts
// signing: its pins are signed and its events chained as they are; its
// grants only when this install's key was made for this very open (the
// first run of a Deckhand that signs: the upgrade). An old-format log met
// later (a backup given with --db, or one put in place of the real log)
// keeps its grants unsigned: listed as not written by Deckhand, never
// honoured. Every row written after the migration must be signed.

// Options configure OpenWith.
type Options struct {
	// Key is the log key (at least 16 bytes). Nil: this install's
	// (keys.LogKey, found through the data folder).
	Key []byte
	// AdoptGrants: the migration to signing takes an older log's
	// grants as Deckhand's. With Key nil it is set when this open made
	// the install's key.
	AdoptGrants bool
}

// setKey makes key the log key, with a pool of signers keyed with it.
func (db *DB) setKey(key []byte) {
	db.key, db.macs = key, &sync.Pool{}
}

// signer is an HMAC keyed with the log key, and a buffer that strings are
// fed to it through: converted to []byte for Write, a string is copied
// whole, and a check of the log (Foreign, at each run's start) reads every
// saved tool list and pinned definition (8 MB of copies with 5,000 tools).
type signer struct {
	h   hash.Hash
	buf [4 << 10]byte
	sum [sha256.Size]byte
}

// mac is the hex HMAC-SHA256 of parts under the log key, each part
// length-prefixed so that no two lists of parts sign alike.
func (db *DB) mac(parts ...string) string {
	var s *signer
	if db.macs != nil {
		s, _ = db.macs.Get().(*signer)
		defer func() { s.h.Reset(); db.macs.Put(s) }()
	}
	if s == nil {
		s = &signer{h: hmac.New(sha256.New, db.key)}
	}
	for _, p := range parts {
		binary.BigEndian.PutUint64(s.buf[:8], uint64(len(p)))
		s.h.Write(s.buf[:8])
		for len(p) > 0 {
			n := copy(s.buf[:], p)
			s.h.Write(s.buf[:n])
			p = p[n:]
		}
	}
	return hex.EncodeToString(s.h.Sum(s.sum[:0]))
}

func (db *DB) verifies(sig string, parts ...string) bool {
	return hmac.Equal([]byte(sig), []byte(db.mac(parts...)))
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// grantSig signs a grant as stored (its id is only a handle, left out).
func (db *DB) grantSig(tool, scope, by, session string, at int64) string {
	return db.mac("grant", tool, scope, by, session, itoa(at))
}

// pinSig signs a pin as stored.
func (db *DB) pinSig(tool, hash, def string, at, first int64, added bool, gone int64) string {
	a := "0"
	if added {
		a = "1"
	}
	return db.mac("pin", tool, hash, def, itoa(at), itoa(first), a, itoa(gone))
}

// keyID names the log key without giving it away: it tells a log signed
// with another install's key from a forged one.
func (db *DB) keyID() string { return db.mac("deckhand log key id")[:16] }

// KeyMismatch reports whether the log was signed with another key than
// this install's (moved from another machine, or the key was lost): none
// of its grants and pins count, and its chain cannot be checked.
func (db *DB) KeyMismatch() bool { return db.otherKey }

// readKeyID reads the key id the log was signed with ("" before signing).
func readKeyID(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (string, error) {
	// Before schema 6 (or in a new file) there is no log_meta.
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'log_meta'`).Scan(&n); err != nil || n == 0 {
		return "", err
	}
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM log_meta WHERE name = 'key_id'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// Foreign is a row of the log's gate that Deckhand did not write: a grant,
// a pin or a saved tool list whose signature is missing or wrong. It is
// ignored.
type Foreign struct {
	Table string // "approvals", "tool_pins" or "server_catalogs"
	Tool  string // alias.tool (alias.* for a server's tool list)
	What  string // "an always-allow grant", "a pinned definition", "a saved tool list"
}

func (f Foreign) String() string {
	return fmt.Sprintf("%s for %s (table %s)", f.What, f.Tool, f.Table)
}

// Foreign lists the grants and pins of the log that Deckhand did not
// write (see Foreign), by table and tool.
func (db *DB) Foreign(ctx context.Context) ([]Foreign, error) {
	grants, err := db.Grants(ctx)
	if err != nil {
		return nil, err
	}
	var out []Foreign
	for _, g := range grants {
		if g.Foreign {
			out = append(out, Foreign{Table: "approvals", Tool: g.Tool, What: "an always-allow grant"})
		}
	}
	cats, err := db.sql.QueryContext(ctx, `SELECT alias, tools_json, updated_at, coalesce(sig, '') FROM server_catalogs ORDER BY alias`)
	if err != nil {
		return nil, fmt.Errorf("reading server catalogs: %w", err)
	}
	for cats.Next() {
		var alias, tools, sig string
		var at int64
		if err := cats.Scan(&alias, &tools, &at, &sig); err != nil {
			cats.Close()
			return nil, err
		}
		if !db.verifies(sig, "catalog", alias, tools, itoa(at)) {
			out = append(out, Foreign{Table: "server_catalogs", Tool: alias + ".*", What: "a saved tool list"})
		}
	}
	cats.Close()
	if err := cats.Err(); err != nil {
		return nil, err
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT tool, hash, definition, pinned_at, first_seen, added, gone_at, coalesce(sig, '') FROM tool_pins ORDER BY tool`)
	if err != nil {
		return nil, fmt.Errorf("reading pinned tools: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var tool, hash, def, sig string
		var at, first, gone int64
		var added bool
		if err := rows.Scan(&tool, &hash, &def, &at, &first, &added, &gone, &sig); err != nil {
			return nil, err
		}
		if !db.verifies(sig, "pin", tool, hash, def, itoa(at), itoa(first), boolDigit(added), itoa(gone)) {
			out = append(out, Foreign{Table: "tool_pins", Tool: tool, What: "a pinned definition"})
		}
	}
	return out, rows.Err()
}

func boolDigit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// adopt signs a log from before signing, once, inside the migration to
// schema version 6 (see the signing note): every pin (and, with grantsToo,
// every grant) as it is, every event chained in the order it was
// written.
func (db *DB) adopt(ctx context.Context, tx *sql.Tx, grantsToo bool) error {
	type grant struct {
		id, tool, scope, by, session string
		at                           int64
	}
	var grants []grant
	rows, err := tx.QueryContext(ctx, `SELECT approval_id, tool, scope, granted_by, coalesce(session_id, ''), granted_at FROM approvals`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var g grant
		if err := rows.Scan(&g.id, &g.tool, &g.scope, &g.by, &g.session, &g.at); err != nil {
			rows.Close()
			return err
		}
		grants = append(grants, g)
	}
	rows.Close()
	if !grantsToo {
		grants = nil
	}
	for _, g := range grants {
		if _, err := tx.ExecContext(ctx, `UPDATE approvals SET sig = ? WHERE approval_id = ?`, db.grantSig(g.tool, g.scope, g.by, g.session, g.at), g.id); err != nil {
			return err
		}
	}
	type pin struct {
		tool, hash, def string
		at, first, gone int64
		added           bool
	}
	var pins []pin
	rows, err = tx.QueryContext(ctx, `SELECT tool, hash, definition, pinned_at, first_seen, added, gone_at FROM tool_pins`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var p pin
		if err := rows.Scan(&p.tool, &p.hash, &p.def, &p.at, &p.first, &p.added, &p.gone); err != nil {
			rows.Close()
			return err
		}
		pins = append(pins, p)
	}
	rows.Close()
	for _, p := range pins {
		if _, err := tx.ExecContext(ctx, `UPDATE tool_pins SET sig = ? WHERE tool = ?`, db.pinSig(p.tool, p.hash, p.def, p.at, p.first, p.added, p.gone), p.tool); err != nil {
			return err
		}
	}
	type catalog struct {
		alias, tools string
		at           int64
	}
	var cats []catalog
	rows, err = tx.QueryContext(ctx, `SELECT alias, tools_json, updated_at FROM server_catalogs`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var c catalog
		if err := rows.Scan(&c.alias, &c.tools, &c.at); err != nil {
			rows.Close()
			return err
		}
		cats = append(cats, c)
	}
	rows.Close()
	for _, c := range cats {
		if _, err := tx.ExecContext(ctx, `UPDATE server_catalogs SET sig = ? WHERE alias = ?`, db.mac("catalog", c.alias, c.tools, itoa(c.at)), c.alias); err != nil {
			return err
		}
	}
	if err := db.chainExisting(ctx, tx); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO log_meta (name, value) VALUES ('key_id', ?), ('signed_since', ?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`, db.keyID(), itoa(ms(time.Now())))
	return err
}
