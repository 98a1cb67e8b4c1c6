package main

import (
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"deckhand/testutil"
)

// Once the servers' first connections have an outcome, the window gives
// back what its start no longer needs (the catalog builders' indexes, the
// compiled expressions that flag tool definitions, the start's garbage),
// without waiting for the first minute of quiet, which a server failing
// again and again puts off: here the built-in tools are listed and
// flagged (28 filters compiled), and a server whose command does not
// exist keeps failing.
func TestWindowGivesBackOnceServersSettle(t *testing.T) {
	model := testutil.NewModelServer(t)
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[mcp.servers.gone]\ncommand = %q\n", model.URL, "/nonexistent/deckhand-test-server")
	w := startRealWindow(t, cfg, nil, withArgs("--log-level", "info"))
	testutil.Eventually(t, 60*time.Second, func() bool { return strings.Contains(w.stderr.String(), "start settled") },
		"the start's memory never given back; log:\n%s", w.stderr)
	// What was released stays released while nothing changes.
	re := regexp.MustCompile(`msg=memory [^\n]*filters_compiled=([0-9]+)`)
	w.cmd.Process.Signal(syscall.SIGUSR1)
	var m []string
	testutil.Eventually(t, 10*time.Second, func() bool { m = re.FindStringSubmatch(w.stderr.String()); return m != nil }, "a memory line; log:\n%s", w.stderr)
	if m[1] != "0" {
		t.Errorf("filters compiled at rest = %s, want 0", m[1])
	}
}
