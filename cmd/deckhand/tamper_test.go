package main

import (
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/testutil"
)

// A log changed behind Deckhand's back says so: logs --verify names each
// break (an edited, a deleted and an inserted event) and exits 1; showing
// or resuming the session warns; an "always" row another program inserted
// is listed as not written by Deckhand, reported by chat, and not
// honoured, nor is a session grant planted among the session's events
// (the call is asked, which without a terminal is a deny).
func TestTamperedLog(t *testing.T) {
	call := testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c", Name: "s__add", Arguments: `{"a":1,"b":2}`})}
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("my bank password is hunter2")})
	cfg := modelConfig(t, model, "")
	dbPath := filepath.Join(t.TempDir(), "log.db")
	dh := func(args ...string) result {
		return deckhand(t, nil, "", append([]string{"--config", cfg, "--db", dbPath}, args...)...)
	}
	if r := dh("chat", "-p", "remember this"); r.code != exitOK {
		t.Fatalf("chat: exit %d, %s", r.code, r.stderr)
	}
	if r := dh("logs", "--verify"); r.code != exitOK || !strings.Contains(r.stdout, "Intact") {
		t.Fatalf("logs --verify on an intact log: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var sessions []struct{ ID string }
	json.Unmarshal([]byte(dh("sessions", "--json").stdout), &sessions)
	if len(sessions) != 1 {
		t.Fatalf("sessions: %v", sessions)
	}
	id := sessions[0].ID

	raw, err := sql.Open("sqlite", "file:"+dbPath+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var edited string
	raw.QueryRow(`SELECT event_id FROM events WHERE kind = 'assistant.message'`).Scan(&edited)
	for _, q := range []string{
		`UPDATE events SET data_json = replace(data_json, 'hunter2', 'nothing') WHERE kind = 'assistant.message'`,
		`DELETE FROM events WHERE kind = 'session.created'`,
		`INSERT INTO events (event_id, session_id, ts, kind, data_json) VALUES ('planted', '` + id + `', 1, 'approval.granted', '{}')`,
		`INSERT INTO approvals (approval_id, tool, scope, granted_by, granted_at) VALUES ('planted', 's.add', 'always', 'user', 1)`,
		// A session grant, which chat --resume would restore.
		`INSERT INTO events (event_id, session_id, run_id, ts, kind, data_json) SELECT 'planted-session', session_id, run_id, ts, 'approval.granted', '{"tool":"s.add","scope":"session","by":"user"}' FROM events WHERE kind = 'run.started'`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}

	r := dh("logs", "--verify")
	if r.code != exitFailure {
		t.Errorf("logs --verify on a tampered log: exit %d, want %d", r.code, exitFailure)
	}
	for _, want := range []string{
		"session " + id + ": event " + edited + " (place ", "assistant.message): edited: its content does not match its hash",
		"session " + id + ": place 1: event 1 is missing (deleted)",
		"event planted (approval.granted): inserted: it has no place in the chain",
		"an always-allow grant for s.add (table approvals): not written by Deckhand, ignored",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("logs --verify lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := dh("logs", "--verify", "--json"); r.code != exitFailure || !strings.Contains(r.stdout, `"intact": false`) {
		t.Errorf("logs --verify --json: exit %d\n%s", r.code, r.stdout)
	}
	if r := dh("logs", "--session", id); !strings.Contains(r.stderr, "this session's record was changed outside Deckhand") {
		t.Errorf("logs --session on a tampered session does not say so:\n%s", r.stderr)
	}
	if r := dh("approvals", "list"); !strings.Contains(r.stdout, "not written by Deckhand") {
		t.Errorf("approvals list does not mark the planted grant:\n%s", r.stdout)
	}
	model.Add(call, testutil.ModelResponse{Body: testutil.TextChunks("done")})
	r = dh("chat", "--resume", id, "-p", "add", "--approve", "ask", "--wait", "60s")
	if !strings.Contains(r.stderr, "this session's record was changed outside Deckhand") {
		t.Errorf("chat --resume of a tampered session does not say so:\n%s", r.stderr)
	}
	if strings.Count(r.stderr, "Deckhand did not write") != 1 || !strings.Contains(r.stderr, "always-allow grant for s.add") {
		t.Errorf("chat does not report the planted grant once:\n%s", r.stderr)
	}
	t.Logf("chat --resume:\n%s", r.stderr)
	if !strings.Contains(r.stderr, "denied") {
		t.Errorf("the planted grant was honoured: the call was not asked (denied without a terminal):\n%s", r.stderr)
	}
}
