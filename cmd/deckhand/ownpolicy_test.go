package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// deckhand policy shows, per server, Deckhand's own files hidden inside
// what it sees (a log given with --db among them), and a server whose
// root names the log does not start, saying which key of which file and
// why; mcp call to it says the same.
func TestPolicyOwnFiles(t *testing.T) {
	home, _ := os.UserHomeDir()
	db := filepath.Join(home, "logs", "mine.db")
	cfg := writeConfig(t, fmt.Sprintf(`
[mcp.servers.wide]
command = %[1]q
read = ["~"]

[mcp.servers.nosy]
command = %[1]q
read = ["~/.local/share/deckhand/deckhand.db"]
`, stdioServerBin(t)))
	if r := deckhand(t, nil, "", "--config", cfg, "--db", db, "sessions"); r.code != exitOK {
		t.Fatalf("sessions: exit %d: %s", r.code, r.stderr)
	}
	r := deckhand(t, nil, "", "--config", cfg, "policy")
	refusal := "mcp.servers.nosy.read (in " + cfg + ") is ~/.local/share/deckhand/deckhand.db, inside ~/.local/share/deckhand: Deckhand's data (its log, the log's key file), which no server may see or change"
	for _, want := range []string{
		"Deckhand's own files inside what it sees, hidden: " + filepath.Join(home, ".local/share/deckhand") + " (Deckhand's data",
		db + " (a log of Deckhand's (--db))",
		"nosy: sandboxed, does not start: " + refusal,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("policy lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := deckhand(t, nil, "", "--config", cfg, "mcp", "call", "nosy.echo", `{"text":"x"}`); r.code == exitOK || !strings.Contains(r.stderr, refusal) {
		t.Errorf("mcp call to a server whose root names the log: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
