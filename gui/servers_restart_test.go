package gui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/testutil"
)

// TestServersRowSaysItRestarted: a stdio server that crashed (stderr's
// line, exit status 3) and was restarted says so on its row once ready
// again: "ready · restarted just now", when and with what exit status,
// and the last stop's reason with stderr's line, which Copy copies. The
// row said only "ready", as for a server that never stopped.
func TestServersRowSaysItRestarted(t *testing.T) {
	h, sw := serversHarness(t, map[string]config.Server{"s": testutil.StdioServer(t)})
	h.until("s ready", func() bool { return h.serverState(sw, "s") == "ready" })
	if r := sw.Rows["s"]; r.Restarted.Visible() {
		t.Errorf("a server that never stopped says %q", r.Restarted.Text)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if res, err := h.sys.CallTool(ctx, "s.crash", nil, nil); err == nil && res.Err == nil {
		t.Fatal("the crash call did not fail")
	}
	h.until("s restarted", func() bool { return h.serverState(sw, "s") == "ready · restarted just now" })
	r := sw.Rows["s"]
	if want := "Restarted just now after it stopped (exit status 3)."; !r.Restarted.Visible() || r.Restarted.Text != want {
		t.Errorf("the row says %q (shown %v), want %q", r.Restarted.Text, r.Restarted.Visible(), want)
	}
	if !strings.Contains(r.StopReason.Text, "exit status 3") || !strings.Contains(r.StopReason.Text, "crashing on request") {
		t.Errorf("the last stop's reason = %q, want the exit status and stderr's line", r.StopReason.Text)
	}
	if !h.shows(sw.Win, r.Restarted.Text) {
		t.Error("the restart is not drawn")
	}
	test.Tap(r.CopyStop)
	if got := h.app.Clipboard().Content(); !strings.Contains(got, "exit status 3") || !strings.Contains(got, "stdioserver: crashing on request") {
		t.Errorf("Copy copied %q, want the last stop's reason", got)
	}
}
