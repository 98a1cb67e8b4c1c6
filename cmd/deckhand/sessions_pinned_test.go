package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/store"
	"deckhand/testutil"
)

// TestSessionsMarksPinned: `deckhand sessions` lists a pinned chat first
// and marks it as the sidebar does (📌), and --json says "pinned"; it
// listed pinned chats first with no mark, so the order looked wrong.
func TestSessionsMarksPinned(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("One.")},
		testutil.ModelResponse{Body: testutil.TextChunks("Two.")},
	)
	cfg := modelConfig(t, model, "")
	dbPath := filepath.Join(t.TempDir(), "log.db")
	dh := func(args ...string) result {
		return deckhand(t, nil, "", append([]string{"--config", cfg, "--db", dbPath}, args...)...)
	}
	for _, p := range []string{"older chat", "newer chat"} {
		if r := dh("chat", "-p", p); r.code != exitOK {
			t.Fatalf("chat %q: exit %d, %s", p, r.code, r.stderr)
		}
	}
	var list []struct {
		ID     string `json:"id"`
		Title  string `json:"title"`
		Pinned bool   `json:"pinned"`
	}
	if err := json.Unmarshal([]byte(dh("sessions", "--json").stdout), &list); err != nil || len(list) != 2 || list[1].Title != "older chat" {
		t.Fatalf("sessions --json: %+v (%v)", list, err)
	}
	db, err := store.Open(t.Context(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PinSession(t.Context(), list[1].ID, true); err != nil {
		t.Fatal(err)
	}
	db.Close()

	r := dh("sessions")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "📌 older chat") || strings.Contains(lines[2], "📌") {
		t.Errorf("sessions, the older chat pinned: want it first and marked, the other not:\n%s", r.stdout)
	}
	json.Unmarshal([]byte(dh("sessions", "--json").stdout), &list)
	if len(list) != 2 || !list[0].Pinned || list[0].Title != "older chat" || list[1].Pinned {
		t.Errorf("sessions --json, the older chat pinned: %+v", list)
	}
}
