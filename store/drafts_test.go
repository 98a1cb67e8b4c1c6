package store

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDrafts: a chat's draft and the new chat's are kept, replaced,
// forgotten when emptied, gone with their session, and still there in the
// file opened again.
func TestDrafts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.db")
	db := open(t, path)
	ctx := t.Context()
	twoSessions(t, db)
	for _, d := range []struct{ session, text string }{
		{"s1", "first words"},
		{"s1", "my unsent draft about tables"},
		{"s2", "to forget"},
		{"s2", ""},
		{NewChatDraft, "a new chat's words\nover two lines"},
	} {
		if err := db.SaveDraft(ctx, d.session, d.text); err != nil {
			t.Fatalf("SaveDraft(%q, %q) = %v", d.session, d.text, err)
		}
	}
	if err := db.SaveDraft(ctx, "s2", strings.Repeat("x", MaxDraft+1)); err == nil {
		t.Errorf("SaveDraft of %d bytes = nil, want an error", MaxDraft+1)
	}
	want := map[string]string{"s1": "my unsent draft about tables", "": "a new chat's words\nover two lines"}
	got, err := db.Drafts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Drafts (-want +got):\n%s", diff)
	}
	db.Close()

	db = open(t, path)
	if got, _ := db.Drafts(ctx); !cmp.Equal(want, got) {
		t.Errorf("reopened, Drafts = %q, want %q", got, want)
	}
	if err := db.DeleteSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	delete(want, "s1")
	if got, _ := db.Drafts(ctx); !cmp.Equal(want, got) {
		t.Errorf("after deleting s1, Drafts = %q, want %q", got, want)
	}
}
