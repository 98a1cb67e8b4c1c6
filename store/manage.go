package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"modernc.org/sqlite"
)

// A person's commands on sessions: rename, delete, search. Like RevokeGrant
// they write directly, not through the store actor: they are a person's
// commands, and a rename or a delete must not wait behind a batch.

// MaxTitle is the longest title a person may give a session, in characters.
const MaxTitle = 200

// Errors of RenameSession and DeleteSession. Their text is for people.
var (
	ErrEmptyTitle     = errors.New("a session's title cannot be empty")
	ErrTitleTooLong   = fmt.Errorf("a session's title can be at most %d characters", MaxTitle)
	ErrSessionRunning = errors.New("the session is still running; stop it first")
)

// CleanTitle is a title as RenameSession stores it: on one line, its runs
// of spaces and line breaks made one space, trimmed. It fails when nothing
// is left or more than MaxTitle characters are.
func CleanTitle(title string) (string, error) {
	t := strings.Join(strings.Fields(strings.ToValidUTF8(title, "\uFFFD")), " ")
	switch {
	case t == "":
		return "", ErrEmptyTitle
	case utf8.RuneCountInString(t) > MaxTitle:
		return "", ErrTitleTooLong
	}
	return t, nil
}

// RenameSession gives a session the title a person chose (see CleanTitle).
// A later run keeps it: the store actor only titles sessions that have no
// title yet (Batch.Titles).
func (db *DB) RenameSession(ctx context.Context, id, title string) error {
	t, err := CleanTitle(title)
	if err != nil {
		return err
	}
	res, err := db.sql.ExecContext(ctx, `UPDATE sessions SET title = ? WHERE session_id = ?`, t, id)
	if err != nil {
		return fmt.Errorf("renaming the session: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("no session %q: %w", id, ErrNotFound)
	}
	return nil
}

// PinSession pins a session to the top of the list (pinned) or unpins it.
func (db *DB) PinSession(ctx context.Context, id string, pinned bool) error {
	at := int64(0)
	if pinned {
		at = max(1, time.Now().UnixMilli())
	}
	res, err := db.sql.ExecContext(ctx, `UPDATE sessions SET pinned_at = ? WHERE session_id = ?`, at, id)
	if err != nil {
		return fmt.Errorf("pinning the session: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("no session %q: %w", id, ErrNotFound)
	}
	return nil
}

// DeleteSession removes a session from the log, in one transaction: its
// events, its runs and its row; then the whole results kept for it
// (KeepResult). Other sessions, their totals and the
// "always allow" grants are untouched. A session with a run still running
// (in a live process) is refused with ErrSessionRunning; a run whose
// process is gone does not hold it.
func (db *DB) DeleteSession(ctx context.Context, id string) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("deleting the session: %w", err)
	}
	defer tx.Rollback()
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE session_id = ?`, id).Scan(&one); err != nil {
		return fmt.Errorf("deleting the session: %w", err)
	}
	if one == 0 {
		return fmt.Errorf("no session %q: %w", id, ErrNotFound)
	}
	rows, err := tx.QueryContext(ctx, `SELECT coalesce(owner, '') FROM runs WHERE session_id = ? AND status = ?`, id, RunRunning)
	if err != nil {
		return fmt.Errorf("deleting the session: %w", err)
	}
	running := false
	for rows.Next() {
		var owner string
		if err := rows.Scan(&owner); err != nil {
			rows.Close()
			return err
		}
		running = running || liveStatus(RunRunning, owner) == RunRunning
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if running {
		return ErrSessionRunning
	}
	// Events name their session; an event of one of its runs that did not
	// would go too.
	if _, err := tx.ExecContext(ctx, `DELETE FROM events WHERE session_id = ?1 OR run_id IN (SELECT run_id FROM runs WHERE session_id = ?1)`, id); err != nil {
		return fmt.Errorf("deleting the session's events: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM chain_heads WHERE chain = ?`, chainOf(id)); err != nil {
		return fmt.Errorf("deleting the session's chain: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE session_id = ?`, id); err != nil {
		return fmt.Errorf("deleting the session's runs: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE session_id = ?`, id); err != nil {
		return fmt.Errorf("deleting the session: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM drafts WHERE session_id = ?`, id); err != nil {
		return fmt.Errorf("deleting the session's draft: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("deleting the session: %w", err)
	}
	// Its tools' whole results, kept beside the log, go with it.
	return db.removeResults(id)
}

// Search limits: a query's words beyond maxSearchWords, and the bytes of a
// word beyond maxSearchWord, are not looked for (a pasted page must not
// become a query of thousands of clauses).
const (
	maxSearchWords = 16
	maxSearchWord  = 256
)

// SearchWords are the words a query looks for: split at spaces, folded to
// lower case, each once, at most maxSearchWords of at most maxSearchWord
// bytes.
func SearchWords(query string) []string {
	var out []string
	for _, w := range strings.Fields(fold(query)) {
		if len(w) > maxSearchWord {
			w = strings.ToValidUTF8(w[:maxSearchWord], "")
		}
		if w == "" || contains(out, w) {
			continue
		}
		out = append(out, w)
		if len(out) == maxSearchWords {
			break
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fold is how search compares text: lower case, any invalid UTF-8 replaced.
func fold(s string) string { return strings.ToLower(strings.ToValidUTF8(s, "\uFFFD")) }

// SearchedKinds are the events whose text search reads: what the person
// wrote, what the model answered (streamed text is kept as
// assistant.delta when a run ended before the whole message), and the
// tools' results (ResultKinds), which the chat shows and its find bar
// finds in: a person looks for what a tool returned too.
var SearchedKinds = append(slices.Clone(MessageKinds), ResultKinds...)

// MessageKinds are the searched events that are a message, their text
// the data's text.
var MessageKinds = []string{KindRunStarted, KindAssistantMessage, KindAssistantDelta}

// ResultKinds are the searched events that are a tool's result, its text
// the data's output (the log holds it with secrets already removed, as
// every event).
var ResultKinds = []string{KindToolSucceeded, KindToolFailed}

// searchResultRunes is how much of a tool's result search reads: its
// start, as its card shows first, so that a result of megabytes does
// not slow every search.
const searchResultRunes = 16 << 10

// searchedText is the SQL for the text of an event that search reads (of
// the table or alias e, its data valid JSON): a message's text, or the
// start of a tool's result. The kinds are constants of this package, not
// input.
func searchedText(e string) string {
	return fmt.Sprintf(`CASE WHEN %[1]s.kind IN ('%[2]s', '%[3]s') THEN substr(json_extract(%[1]s.data_json, '$.output'), 1, %[4]d)
		ELSE json_extract(%[1]s.data_json, '$.text') END`, e, ResultKinds[0], ResultKinds[1], searchResultRunes)
}

// searchedProse is searchedText as search reads it: a message without its
// fence lines, as the chat's find bar reads it (deckhand_prose); a tool's
// result as its card shows it, whole.
func searchedProse(e string) string {
	return fmt.Sprintf(`CASE WHEN %[1]s.kind IN ('%[2]s', '%[3]s') THEN substr(json_extract(%[1]s.data_json, '$.output'), 1, %[4]d)
		ELSE deckhand_prose(json_extract(%[1]s.data_json, '$.text')) END`, e, ResultKinds[0], ResultKinds[1], searchResultRunes)
}

func init() {
	// deckhand_has(x, word) is whether fold(x) holds word (folded), for
	// SQL: SQLite's own lower() and LIKE fold ASCII only. One call that
	// answers yes or no, where instr(deckhand_fold(x), word) copied each
	// text folded back into SQLite to scan it there.
	sqlite.MustRegisterDeterministicScalarFunction("deckhand_has", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		// The word comes as a blob: a text's value stops at its first NUL.
		if containsFold(argText(args[0]), argText(args[1])) {
			return int64(1), nil
		}
		return int64(0), nil
	})
}

// argText is an SQL function's argument as text: a text, a blob's bytes,
// "" for NULL.
func argText(v driver.Value) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// containsFold is strings.Contains(fold(s), word) for a folded word,
// without folding s when it is ASCII (most text): there it compares
// s's bytes in lower case as it goes.
func containsFold(s, word string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(fold(s), word)
		}
	}
	n := len(word)
	if n == 0 {
		return true
	}
	first := word[0]
	for i := 0; i+n <= len(s); i++ {
		if lowerASCII(s[i]) != first {
			continue
		}
		j := 1
		for j < n && lowerASCII(s[i+j]) == word[j] {
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// SearchSessions lists the sessions, most recently active first, whose
// title, messages (the person's and the model's) or tools' results
// (their first searchResultRunes) contain every word of
// query, ignoring case (see SearchWords). An empty query lists them all, as
// Sessions does. The query only ever reaches SQLite as parameters of
// deckhand_has, which has no wildcards: %, _ and \ are plain characters.
func (db *DB) SearchSessions(ctx context.Context, query string, limit int) ([]Session, error) {
	words := SearchWords(query)
	if len(words) == 0 {
		return db.Sessions(ctx, limit)
	}
	if limit <= 0 {
		limit = 1000
	}
	var where []string
	var args []any
	// The messages are read first, the tools' results (longer, and
	// more of them) only for a word no message holds.
	messages, results := strings.Repeat("?, ", len(MessageKinds)-1)+"?", strings.Repeat("?, ", len(ResultKinds)-1)+"?"
	for _, w := range words {
		where = append(where, `(deckhand_has(title, ?) OR EXISTS (
			SELECT 1 FROM events e WHERE e.session_id = sessions.session_id AND e.kind IN (`+messages+`)
			AND deckhand_has_prose(CASE WHEN json_valid(e.data_json) THEN json_extract(e.data_json, '$.text') END, ?)) OR EXISTS (
			SELECT 1 FROM events e WHERE e.session_id = sessions.session_id AND e.kind IN (`+results+`)
			AND deckhand_has(CASE WHEN json_valid(e.data_json) THEN `+searchedText("e")+` END, ?)))`)
		args = append(args, []byte(w)) // a blob: a text parameter stops at a NUL
		for _, k := range MessageKinds {
			args = append(args, k)
		}
		args = append(args, []byte(w))
		for _, k := range ResultKinds {
			args = append(args, k)
		}
		args = append(args, []byte(w))
	}
	args = append(args, limit)
	out, err := db.querySessions(ctx, `SELECT `+sessionCols+` FROM sessions WHERE `+strings.Join(where, " AND ")+
		` ORDER BY `+sessionOrder+` LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("searching the sessions: %w", err)
	}
	for i := range out {
		if out[i].Match, err = db.searchMatch(ctx, out[i].ID, words, fold(strings.TrimSpace(query))); err != nil {
			return nil, fmt.Errorf("searching the sessions: %w", err)
		}
	}
	return out, nil
}
