package gui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/testutil"
)

// The connect form's hints fit what went wrong: an address that answers
// 404 is asked whether it is the MCP endpoint, a full path to no program
// is told so, a mistake in the form is headed as one (nothing was
// tried), and the last try's reason goes when the next try starts.
func TestServersFormHints(t *testing.T) {
	nf := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Not Found here", http.StatusNotFound)
	}))
	t.Cleanup(nf.Close)
	h, sw := serversHarness(t, nil)

	sw.ShowConnect()
	f := h.submitForm(sw, config.ServerForm{Target: nf.URL + "/api", Alias: "nf"})
	if f.Heading.Text != "Could not connect" || !strings.Contains(f.Problem.Text, "HTTP 404 Not Found") ||
		!strings.Contains(f.Problem.Text, "is this the server's MCP endpoint? It often ends in /mcp") {
		t.Errorf("a 404 says %q:\n%s", f.Heading.Text, f.Problem.Text)
	}

	f = h.submitForm(sw, config.ServerForm{Kind: "Command", Target: "/usr/bin/npxx -y some-server", Alias: "typo"})
	if !strings.Contains(f.Problem.Text, "No program at /usr/bin/npxx: check the spelling of the path.") || strings.Contains(f.Problem.Text, "full path") {
		t.Errorf("a mistyped path says:\n%s", f.Problem.Text)
	}

	f = h.submitForm(sw, config.ServerForm{Kind: "Command", Target: testutil.StdioServer(t).Command, Alias: "envy", Env: "A=1\nBADLINE"})
	if f.Heading.Text == "Could not connect" || !strings.HasPrefix(f.Problem.Text, "Environment, line 2: ") {
		t.Errorf("a bad environment line is headed %q: %q", f.Heading.Text, f.Problem.Text)
	}

	f.Env.SetText("A=1")
	test.Tap(f.Submit)
	if f.Problems.Visible() {
		t.Errorf("the last try's reason still shows as the next try starts: %q", f.Problem.Text)
	}
	h.until("the try to end", func() bool { return !f.Trying() })
	if !f.Closed {
		t.Fatalf("the mended server was not saved: %s", f.Problem.Text)
	}
}

// The connect form keeps the line of the alias's note ("Saved as …"):
// typing or clearing the alias does not move the fields below it.
func TestServersFormAliasNoteKeepsItsLine(t *testing.T) {
	h, sw := serversHarness(t, nil)
	sw.ShowConnect()
	f := sw.Form
	f.Kind.SetSelected("Command")
	f.Target.SetText("npx -y @modelcontextprotocol/server-everything")
	h.until("the note", func() bool { return strings.HasPrefix(f.AliasNote.Text, "Saved as") })
	// Where Environment is drawn, the window laid out afresh.
	envY := func(w float32) float32 {
		h.ui.win.Resize(fyne.NewSize(w, 700))
		return fyne.CurrentApp().Driver().AbsolutePositionForObject(f.Env).Y
	}
	with := envY(900)
	f.Alias.SetText("mine")
	if f.AliasNote.Text != "" {
		t.Fatalf("with an alias typed the note says %q", f.AliasNote.Text)
	}
	if without := envY(901); without != with {
		t.Errorf("Environment moved from y=%v to %v as the alias was typed", with, without)
	}
}

// A command server with the sandbox off says so on its row.
func TestServersRowSaysNotSandboxed(t *testing.T) {
	off := testutil.StdioServer(t)
	off.Sandbox = config.SandboxOff
	h, sw := serversHarness(t, map[string]config.Server{"off": off, "on": testutil.StdioServer(t)})
	h.until("both rows", func() bool { return sw.Rows["off"] != nil && sw.Rows["on"] != nil })
	if r := sw.Rows["off"]; !r.Unconfined.Visible() || !strings.HasPrefix(r.Unconfined.Text, "Not sandboxed") {
		t.Errorf("the unconfined server's row: shown %v %q", r.Unconfined.Visible(), r.Unconfined.Text)
	}
	if sw.Rows["on"].Unconfined.Visible() {
		t.Error("the confined server's row says it is not sandboxed")
	}
}

// A saved server whose command is not installed says on its row in the
// Servers panel what the connect form says of it: is it installed, give
// its full path (new-user pass 15, N10: the row had only "exec: …:
// executable file not found in $PATH").
func TestServersRowHintsAMissingCommand(t *testing.T) {
	h, sw := serversHarness(t, map[string]config.Server{"weather": {Command: "mcp-server-weather-nu15", Args: []string{"--stdio"}}})
	h.ui.showServers()
	h.until("the row's failure", func() bool {
		r := sw.Rows["weather"]
		return r != nil && strings.Contains(r.Reason.Text, "executable file not found")
	})
	want := "Is mcp-server-weather-nu15 installed? Give its full path if it is not on PATH."
	if r := sw.Rows["weather"]; !r.Reason.Visible() || !strings.Contains(r.Reason.Text, want) {
		t.Errorf("the row says %q (shown %v), want the hint %q", r.Reason.Text, r.Reason.Visible(), want)
	}
}
