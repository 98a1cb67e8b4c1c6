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
		// Waits for the server's listing (mcp pins waits 3 s by default).
		r := deckhand(t, nil, "", append([]string{"--config", cfg, "--db", db, "mcp", "pins", "--wait", "60s"}, args...)...)
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

// A tool that appears on a server already known is marked new, in mcp
// tools, mcp pins and the approval prompt; one that leaves the listing is
// noted as gone, and no longer once it is back.
func TestNewAndGoneTools(t *testing.T) {
	db := filepath.Join(t.TempDir(), "log.db")
	plain := writeConfig(t, fmt.Sprintf("[mcp.servers.s]\ncommand = %q\n", stdioServerBin(t)))
	more := writeConfig(t, fmt.Sprintf("[mcp.servers.s]\ncommand = %q\nargs = [\"-describe\", \"Reads the weather.\"]\n", stdioServerBin(t)))
	// Each run must see the server's listing (mcp tools and mcp pins wait
	// 3 s by default, then list without a server still starting, which
	// pins nothing): they wait for it to be ready.
	run := func(cfg string, args ...string) result {
		t.Helper()
		r := deckhand(t, nil, "", append(append([]string{"--config", cfg, "--db", db}, args...), "--wait", "60s")...)
		if r.code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
		return r
	}
	// The first listing must hold the server's tools, or there is no
	// server already known to add a tool to.
	if r := run(plain, "mcp", "tools"); !strings.Contains(r.stdout, "s.echo") {
		t.Fatalf("the first listing lacks the server's tools:\n%s%s", r.stdout, r.stderr)
	} else if strings.Contains(r.stdout, "[new]") || strings.Contains(r.stderr, "gone") {
		t.Errorf("first sight marks tools:\n%s%s", r.stdout, r.stderr)
	}
	r := run(more, "mcp", "tools")
	if !strings.Contains(r.stdout, "[new] Reads the weather.") || strings.Count(r.stdout, "[new]") != 1 {
		t.Errorf("the added tool is not marked new:\n%s", r.stdout)
	}
	if r := run(more, "mcp", "pins"); !strings.Contains(r.stdout, "s.mutable  pinned, new: added on") {
		t.Errorf("mcp pins:\n%s", r.stdout)
	}
	r = run(plain, "mcp", "tools")
	if !strings.Contains(r.stderr, "s.mutable: gone from its server's listing since") {
		t.Errorf("the removed tool is not noted:\n%s", r.stderr)
	}
	if r := run(plain, "mcp", "pins"); !strings.Contains(r.stdout, "s.mutable  gone: not in its server's listing since") {
		t.Errorf("mcp pins after the removal:\n%s", r.stdout)
	}
	if r := run(more, "mcp", "tools"); strings.Contains(r.stderr, "gone") || !strings.Contains(r.stdout, "[new]") {
		t.Errorf("back again:\n%s%s", r.stdout, r.stderr)
	}
}
