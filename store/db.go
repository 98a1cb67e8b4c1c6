// Package store owns Deckhand's local log: one SQLite file (modernc.org/sqlite,
// no cgo) in WAL mode with sessions, runs, an append-only events table, and
// the "always allow" grants. Schema versions live in PRAGMA user_version and
// are migrated at open; a file from a newer Deckhand is refused. Grants and
// pins are signed, and events chained, under this install's log key
// (sign.go, chain.go): a row Deckhand did not write never counts, and Verify
// finds where a chain was changed.
//
// Reads (lists, timelines, resume) go straight to the database from any
// goroutine. Writes come from one place per process, the store actor, which
// batches them into transactions; several processes may share a file (SQLite's
// locking, with a busy timeout, serializes their writes).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver

	"deckhand/keys"
)

// DB is an open log file.
type DB struct {
	sql  *sql.DB
	path string
	key  []byte // the log key: signs grants and pins, chains events
	// otherKey: the log was signed with another key than key.
	otherKey bool
	// adoptGrants: a migration to signing takes the grants too.
	adoptGrants bool
	// macs are signers (HMACs keyed with key, and their buffers), for
	// reuse (keying one costs two blocks of SHA-256).
	macs *sync.Pool
}

// ErrNewerSchema is returned by Open for a file written by a newer Deckhand.
var ErrNewerSchema = errors.New("the database was created by a newer Deckhand")

// DefaultPath is $XDG_DATA_HOME/deckhand/deckhand.db, or
// ~/.local/share/deckhand/deckhand.db.
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the data directory: %w", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "deckhand", "deckhand.db"), nil
}

// Open opens (creating it if needed) the log at path and brings its schema up
// to date, signing with this install's log key. Empty path means
// DefaultPath.
func Open(ctx context.Context, path string) (*DB, error) {
	return OpenWith(ctx, path, Options{})
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, path string, o Options) (*DB, error) {
	if path == "" {
		p, err := DefaultPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating the data directory: %w", err)
	}
	found := keys.LogKeys{Keys: [][]byte{o.Key}, Made: o.AdoptGrants}
	if o.Key == nil {
		def, err := DefaultPath()
		if err != nil {
			return nil, err
		}
		if found, err = keys.FindLogKeys(filepath.Dir(def)); err != nil {
			return nil, fmt.Errorf("finding the log's signing key: %w", err)
		}
	}
	for _, k := range found.Keys {
		if len(k) < 16 {
			return nil, errors.New("the log's signing key is shorter than 16 bytes")
		}
	}
	q := url.Values{}
	// cache_size: 512 KiB of pages a connection, not SQLite's 2 MB. The
	// pool opens several at a start (the pins, the saved tool lists and
	// the grants are read at once), and what their caches held stays
	// with the C heap's allocator (modernc.org/memory keeps freed regions
	// for reuse): with 100 servers of 50 tools, the host's RSS at the
	// first model request 79–85 → 77–79 MB (make bench-peers).
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(1)", "cache_size(-512)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate") // writers take the lock at BEGIN: no deadlock between two processes upgrading
	sdb, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	// A log from before signing is adopted (migrate) with the install's
	// first key; a signed one is read with the key it was signed with.
	db := &DB{sql: sdb, path: path, adoptGrants: found.Made}
	db.setKey(found.Keys[0])
	// Two processes opening a new file at once race to switch it to WAL,
	// and SQLite answers the loser "busy" without waiting: try again.
	deadline := time.Now().Add(10 * time.Second)
	for {
		err = db.migrate(ctx)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-time.After(50 * time.Millisecond):
			continue
		}
		break
	}
	if err != nil {
		sdb.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	os.Chmod(path, 0o600) // the log holds conversations
	id, err := readKeyID(ctx, sdb)
	if err != nil {
		sdb.Close()
		return nil, fmt.Errorf("%s: reading the log's key id: %w", path, err)
	}
	matched := false
	for _, k := range found.Keys {
		if (&DB{key: k}).keyID() == id {
			db.setKey(k)
			matched = true
			break
		}
	}
	db.otherKey = !matched
	return db, nil
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (or its extended codes).
func isBusy(err error) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == 5
}

// Path is the file's path.
func (db *DB) Path() string { return db.path }

// Close closes the file.
func (db *DB) Close() error { return db.sql.Close() }

// IntegrityCheck runs PRAGMA integrity_check and returns its verdict ("ok"
// when the file is sound).
func (db *DB) IntegrityCheck(ctx context.Context) (string, error) {
	var s string
	err := db.sql.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&s)
	return s, err
}

// migrations[i] brings the schema from version i to i+1.
var migrations = [...]string{
	// 1: Bosun's M0 schema, as its specification gives it.
	`CREATE TABLE IF NOT EXISTS sessions (
		session_id TEXT PRIMARY KEY,
		created_at INTEGER NOT NULL,
		updated_at INTEGER NOT NULL,
		title TEXT
	);
	CREATE TABLE IF NOT EXISTS runs (
		run_id TEXT PRIMARY KEY,
		session_id TEXT NOT NULL,
		created_at INTEGER NOT NULL,
		status TEXT NOT NULL,
		model TEXT,
		input_tokens INTEGER,
		output_tokens INTEGER,
		cost_usd REAL,
		error TEXT,
		FOREIGN KEY(session_id) REFERENCES sessions(session_id)
	);
	CREATE TABLE IF NOT EXISTS events (
		event_id TEXT PRIMARY KEY,
		session_id TEXT,
		run_id TEXT,
		ts INTEGER NOT NULL,
		kind TEXT NOT NULL,
		data_json TEXT NOT NULL,
		FOREIGN KEY(session_id) REFERENCES sessions(session_id),
		FOREIGN KEY(run_id) REFERENCES runs(run_id)
	);
	CREATE INDEX IF NOT EXISTS idx_events_session_ts ON events(session_id, ts);
	CREATE INDEX IF NOT EXISTS idx_events_run_ts ON events(run_id, ts);`,

	// 2: Deckhand's additions: session totals (so that listing sessions
	// never reads events), run bookkeeping, "always allow" grants, and the
	// indexes that keep lists and timelines fast.
	`ALTER TABLE sessions ADD COLUMN model TEXT;
	ALTER TABLE sessions ADD COLUMN runs INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE sessions ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE sessions ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE sessions ADD COLUMN cost_usd REAL NOT NULL DEFAULT 0;
	ALTER TABLE sessions ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE runs ADD COLUMN finished_at INTEGER;
	ALTER TABLE runs ADD COLUMN requests INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE runs ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE runs ADD COLUMN owner TEXT;
	UPDATE sessions SET
		runs = (SELECT count(*) FROM runs r WHERE r.session_id = sessions.session_id),
		input_tokens = (SELECT coalesce(sum(input_tokens), 0) FROM runs r WHERE r.session_id = sessions.session_id),
		output_tokens = (SELECT coalesce(sum(output_tokens), 0) FROM runs r WHERE r.session_id = sessions.session_id),
		cost_usd = (SELECT coalesce(sum(cost_usd), 0) FROM runs r WHERE r.session_id = sessions.session_id);
	CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at);
	CREATE INDEX IF NOT EXISTS idx_runs_session ON runs(session_id, created_at);
	CREATE INDEX IF NOT EXISTS idx_runs_status ON runs(status);
	CREATE TABLE IF NOT EXISTS approvals (
		approval_id TEXT PRIMARY KEY,
		tool TEXT NOT NULL UNIQUE,
		scope TEXT NOT NULL,
		granted_by TEXT NOT NULL,
		granted_at INTEGER NOT NULL,
		session_id TEXT
	);`,
	// v3: the tools of each server's last connection, for servers that
	// connect on demand.
	`CREATE TABLE IF NOT EXISTS server_catalogs (
		alias TEXT PRIMARY KEY,
		tools_json TEXT NOT NULL,
		updated_at INTEGER NOT NULL
	);`,
	// v4: pinned tool definitions (trust on first use): the hash of each
	// tool's whole definition when first seen or last accepted.
	`CREATE TABLE IF NOT EXISTS tool_pins (
		tool TEXT PRIMARY KEY,
		hash TEXT NOT NULL,
		definition TEXT NOT NULL,
		pinned_at INTEGER NOT NULL
	);`,
	// v5: when each tool was first seen, whether it was added to a server
	// already known, and since when its server's listing lacks it.
	`ALTER TABLE tool_pins ADD COLUMN first_seen INTEGER NOT NULL DEFAULT 0;
	 ALTER TABLE tool_pins ADD COLUMN added INTEGER NOT NULL DEFAULT 0;
	 ALTER TABLE tool_pins ADD COLUMN gone_at INTEGER NOT NULL DEFAULT 0;`,
	// v6: grants and pins signed, events chained (see sign.go and
	// chain.go); what the file held before is adopted by adopt, in the
	// same transaction.
	`ALTER TABLE approvals ADD COLUMN sig TEXT;
	 ALTER TABLE tool_pins ADD COLUMN sig TEXT;
	 ALTER TABLE server_catalogs ADD COLUMN sig TEXT;
	 ALTER TABLE events ADD COLUMN chain_seq INTEGER;
	 ALTER TABLE events ADD COLUMN chain_hash TEXT;
	 CREATE INDEX IF NOT EXISTS idx_events_chain ON events(session_id, chain_seq);
	 CREATE TABLE IF NOT EXISTS chain_heads (
		chain TEXT PRIMARY KEY,
		seq INTEGER NOT NULL,
		hash TEXT NOT NULL
	 );
	 CREATE TABLE IF NOT EXISTS log_meta (
		name TEXT PRIMARY KEY,
		value TEXT NOT NULL
	 );`,
	// v7: a chat pinned to the top of the list (when; 0: not pinned).
	`ALTER TABLE sessions ADD COLUMN pinned_at INTEGER NOT NULL DEFAULT 0;`,
	// v8: what the person typed in a chat's message box and has not sent
	// (drafts.go); session_id '' is the new chat's.
	`CREATE TABLE IF NOT EXISTS drafts (
		session_id TEXT PRIMARY KEY,
		text TEXT NOT NULL,
		updated_at INTEGER NOT NULL
	);`,
}

// SchemaVersion is the version this Deckhand writes.
const SchemaVersion = len(migrations)

func (db *DB) migrate(ctx context.Context) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var version int
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("reading the schema version: %w", err)
	}
	if version > SchemaVersion {
		return fmt.Errorf("%w (schema version %d; this one knows up to %d): upgrade Deckhand, or use another --db", ErrNewerSchema, version, SchemaVersion)
	}
	for version < SchemaVersion {
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrating: %w", err)
		}
		// Another process may have migrated while we waited for the lock.
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
			tx.Rollback()
			return err
		}
		if version >= SchemaVersion {
			tx.Rollback()
			break
		}
		if _, err := tx.ExecContext(ctx, migrations[version]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrating to schema version %d: %w", version+1, err)
		}
		if version+1 == 6 {
			if err := db.adopt(ctx, tx, db.adoptGrants); err != nil {
				tx.Rollback()
				return fmt.Errorf("migrating to schema version 6 (signing what the log holds): %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", version+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrating to schema version %d: %w", version+1, err)
		}
		version++
	}
	return nil
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}
