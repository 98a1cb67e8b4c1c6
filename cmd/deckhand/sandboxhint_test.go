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

// A server whose sandbox Deckhand cannot build never ran: doctor says it
// is Deckhand's failure, with the reason and what to narrow, and neither
// doctor nor mcp call tells the person the server could not open a
// file (new-user pass 12 read "add that folder under Also reads" under
// Deckhand's own "cover …: no such file or directory"). Made to fail
// here by a grant of the whole file system, and by a helper told the
// kernel has no Landlock.
func TestSandboxBuildFailureHint(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	cfg := writeConfig(t, `
[mcp.servers.whole]
command = "sh"
args = ["-c", "exit 1"]
read = ["/"]

[mcp.servers.nolandlock]
command = "sh"
args = ["-c", "exit 1"]
env = { DECKHAND_TEST_NO_LANDLOCK = "1" }
`)
	blame := "It runs in Deckhand's sandbox, which lets it read only some folders"
	r := deckhand(t, nil, "", "--config", cfg, "doctor")
	for _, want := range []string{
		"✗ whole: starting /usr/bin/sh: Deckhand could not build its sandbox: the sandbox cannot show the whole file system (/): grant the folders it needs instead",
		"fix: Deckhand could not build the server's sandbox, and the command never ran: narrow mcp.servers.whole.read or mcp.servers.whole.write (or [policy]) as the reason above says",
		"✗ nolandlock: starting /usr/bin/sh: Deckhand could not build its sandbox: ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, blame) || strings.Contains(r.stdout, "run it in a terminal") {
		t.Errorf("doctor blames the server:\n%s", r.stdout)
	}
	r = deckhand(t, nil, "", "--config", cfg, "mcp", "call", "nolandlock.x", "{}")
	if r.code == exitOK || !strings.Contains(r.stderr, "Deckhand could not build its sandbox") || strings.Contains(r.stderr, blame) {
		t.Errorf("mcp call: exit %d, stderr %q; want Deckhand's failure, not the server blamed", r.code, r.stderr)
	}
}
