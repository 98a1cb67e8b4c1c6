package connect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/config"
	"deckhand/sandbox"
)

// A server tried in the connect form that stops at start, sandboxed,
// unable to open a file is told that the sandbox lets it read only some
// folders and to add one under Also reads; the same server unconfined is
// not.
func TestTrialSandboxHint(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	notes := filepath.Join(t.TempDir(), "notes.txt") // not granted: the sandbox's /tmp is its own
	if err := os.WriteFile(notes, []byte("notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	hint := "It runs in Deckhand's sandbox, which lets it read only some folders: if what it could not open is elsewhere, add that folder under Also reads."
	cfg := &config.Config{}
	for _, tc := range []struct {
		name, sandbox, path string
		hint                bool
	}{
		{"sandboxed", "", notes, true},
		{"unconfined", "off", notes + ".missing", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := config.Server{Command: "sh", Args: []string{"-c", `cat "$NOTES" >/dev/null && exit 3; exit 1`}, Env: map[string]string{"NOTES": tc.path}, Sandbox: tc.sandbox}
			r := trial(t.Context(), os.LookupEnv, cfg, "notes", srv, nil)
			if r.err == nil {
				t.Fatal("the trial succeeded")
			}
			msg := r.failure(cfg, "notes", srv, os.LookupEnv)
			t.Logf("failure:\n%s", msg)
			if !strings.Contains(msg, "No such file or directory") {
				t.Fatalf("failure = %q, want the server's stderr", msg)
			}
			if got := strings.Contains(msg, hint); got != tc.hint {
				t.Errorf("failure = %q; has the sandbox's hint: %v, want %v", msg, got, tc.hint)
			}
		})
	}
}
