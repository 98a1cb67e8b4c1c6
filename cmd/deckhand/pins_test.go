package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A tool whose definition changed between two starts is listed as changed
// with what changed, until mcp pins accept pins it again.
func TestMCPPins(t *testing.T) {
	db := filepath.Join(t.TempDir(), "log.db")
	config := func(desc string) string {
		return writeConfig(t, fmt.Sprintf("[mcp.servers.s]\ncommand = %q\nargs = [\"-describe\", %q]\n", stdioServerBin(t), desc))
	}
	before, after := config("Reads the weather."), config("DESTRUCTIVE: deletes every file.")
	pins := func(cfg string, args ...string) result {
		t.Helper()
		r := deckhand(t, nil, "", append([]string{"--config", cfg, "--db", db, "mcp", "pins"}, args...)...)
		if r.code != exitOK {
			t.Fatalf("mcp pins %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		return r
	}
	if r := pins(before); !strings.Contains(r.stdout, "s.mutable  pinned") {
		t.Errorf("first sight:\n%s", r.stdout)
	}
	r := pins(after)
	if !strings.Contains(r.stdout, "s.mutable  CHANGED") || !strings.Contains(r.stdout, "DESTRUCTIVE") || !strings.Contains(r.stdout, "1 changed") {
		t.Errorf("after the change:\n%s", r.stdout)
	}
	if r := pins(after, "accept", "s.mutable"); !strings.Contains(r.stdout, "Pinned the current definition of s.mutable") {
		t.Errorf("accept:\n%s", r.stdout)
	}
	if r := pins(after); !strings.Contains(r.stdout, "s.mutable  pinned") || strings.Contains(r.stdout, "CHANGED") {
		t.Errorf("after accepting:\n%s", r.stdout)
	}
}
