package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/testutil"
)

// A server is turned off for good from its edit form: saved as
// disabled = true without being tried, stopped, its row says "off"; the
// row's Turn on saves it on and connects it; a window started on the
// saved config leaves it off.
func TestServersTurnOffAndOn(t *testing.T) {
	srv := testutil.StdioServer(t)
	h, sw := serversHarness(t, map[string]config.Server{"s": srv})
	h.until("s ready", func() bool { return h.serverState(sw, "s") == "ready" })

	test.Tap(sw.Rows["s"].Edit)
	f := sw.Form
	if !f.Enabled.Checked {
		t.Fatal("the edit form of a server that runs says it is off")
	}
	f.Enabled.SetChecked(false)
	if f.Submit.Text != "Save" {
		t.Errorf("turned off, the form's button says %q, want Save", f.Submit.Text)
	}
	test.Tap(f.Submit)
	h.until("the edit saved", func() bool { return f.Closed })
	h.until("s off", func() bool { return h.serverState(sw, "s") == "off" })
	if text := h.configText(); !strings.Contains(text, "disabled = true") {
		t.Errorf("turned off, the config is\n%s", text)
	}
	r := sw.Rows["s"]
	if !r.Connect.Visible() || r.Connect.Text != "Turn on" || !strings.Contains(r.Reason.Text, "not connected at start") {
		t.Errorf("the off row: Connect %v %q, reason %q", r.Connect.Visible(), r.Connect.Text, r.Reason.Text)
	}

	cfg, err := config.Load(h.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	h2, sw2 := serversHarness(t, cfg.MCP.Servers)
	h2.until("s off after a start", func() bool { return h2.serverState(sw2, "s") == "off" })

	test.Tap(r.Connect)
	h.until("s ready again", func() bool { return h.serverState(sw, "s") == "ready" })
	if text := h.configText(); strings.Contains(text, "disabled") {
		t.Errorf("turned on, the config is\n%s", text)
	}
}
