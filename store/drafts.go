package store

import (
	"context"
	"fmt"
	"time"
)

// Drafts: what the person typed in a chat's message box and has not sent,
// kept so that it survives switching chats, a quit and a restart. A draft
// is the person's own text, on this computer only: it is never sent to a
// model, nor part of a session's events or its chain. Like the commands
// of manage.go, it is written directly, not through the store actor.

// NewChatDraft is the session id of the draft of the new chat, the one
// not yet a session.
const NewChatDraft = ""

// MaxDraft is the most of a draft kept, in bytes; the message box holds
// less (a longer paste becomes an attachment).
const MaxDraft = 1 << 20

// SaveDraft keeps text as session's draft (NewChatDraft: the new chat's);
// an empty text forgets it.
func (db *DB) SaveDraft(ctx context.Context, session, text string) error {
	var err error
	if text == "" {
		_, err = db.sql.ExecContext(ctx, `DELETE FROM drafts WHERE session_id = ?`, session)
	} else {
		if len(text) > MaxDraft {
			return fmt.Errorf("saving the draft: %d bytes, at most %d are kept", len(text), MaxDraft)
		}
		_, err = db.sql.ExecContext(ctx, `INSERT INTO drafts (session_id, text, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (session_id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
			session, text, time.Now().UnixMilli())
	}
	if err != nil {
		return fmt.Errorf("saving the draft: %w", err)
	}
	return nil
}

// Drafts are the drafts kept, by session (NewChatDraft: the new chat's).
func (db *DB) Drafts(ctx context.Context) (map[string]string, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT session_id, text FROM drafts`)
	if err != nil {
		return nil, fmt.Errorf("reading the drafts: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, fmt.Errorf("reading the drafts: %w", err)
		}
		out[id] = text
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the drafts: %w", err)
	}
	return out, nil
}
