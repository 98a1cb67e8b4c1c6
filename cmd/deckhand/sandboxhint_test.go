package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/sandbox"
)

// A sandboxed server that stops at start unable to open a file: doctor
// and mcp connect say, after its stderr, that the sandbox lets it read only
// some folders and where to grant one, and doctor's fix does not send the
// person to a terminal as if the error would show there too.
func TestSandboxedReadFailureHint(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	notes := filepath.Join(t.TempDir(), "notes.txt") // not granted: the sandbox's /tmp is its own
	if err := os.WriteFile(notes, []byte("notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `cat "$NOTES" >/dev/null && exit 3; exit 1`
	cfg := writeConfig(t, fmt.Sprintf("[mcp.servers.notes]\ncommand = \"sh\"\nargs = [\"-c\", %q]\nenv = { NOTES = %q }\n", script, notes))
	hint := "It runs in Deckhand's sandbox, which lets it read only some folders (deckhand policy lists them): if what it could not open is elsewhere, grant that folder in mcp.servers.notes.read (Also reads, in the window)."
	r := deckhand(t, nil, "", "--config", cfg, "doctor")
	for _, want := range []string{
		"✗ notes: process /usr/bin/sh exited (exit status 1); stderr: cat: " + notes + ": No such file or directory. " + hint,
		"fix: the command stops at start; run it in a terminal to see why, where it runs outside Deckhand's sandbox (if it works there, it may need a folder granted in mcp.servers.notes.read)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, r.stdout)
		}
	}
	r = deckhand(t, nil, "", "--config", cfg, "mcp", "connect", "--alias", "notes", "--", "sh", "-c", `cat `+notes+` >/dev/null && exit 3; exit 1`)
	if r.code == exitOK || !strings.Contains(r.stderr, "No such file or directory. "+hint) {
		t.Errorf("mcp connect: exit %d, stderr %q; want the sandbox's hint", r.code, r.stderr)
	}
}
