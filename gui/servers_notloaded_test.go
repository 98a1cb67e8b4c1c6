package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/testutil"
	"deckhand/tools"
	"deckhand/toolserver"
)

// The built-in tools server's definitions with mistakes show in the
// window: its row says how many were not loaded and why (file, key,
// reason), and a call of one answers the model, and the card, with the
// reason rather than "there is no tool named".
func TestServersShowDefinitionsNotLoaded(t *testing.T) {
	dir := t.TempDir()
	for name, doc := range map[string]string{
		"frob.json":       `{"name": "frob", "description": "d", "command": "frobnicator-not-installed"}`,
		"countwords.json": `{"name": "countwords", "description": "d", "command": "wc", "positional_args": [{"name": "f", "type": "strng"}]}`,
		"greet.json":      `{"name": "greet", "description": "d", "command": "echo"}`,
		"peek.json":       `{"name": "peek", "description": "d", "command": "cat", "env": {"LD_PRELOAD": "/x.so"}, "sandbox_read": ["~/.ssh"]}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := toolserver.New(toolserver.Options{Dir: dir, Scope: t.TempDir(), NoBuiltin: true, NoSandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	h := newHarness(t, harnessOptions{
		inProcess: map[string]*sdk.Server{config.LocalAlias: srv.MCP},
		notLoaded: map[string]func() []tools.Rejected{config.LocalAlias: srv.LeftOut},
		fallback:  toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "local__frob", Arguments: `{}`}, "Told."),
	})
	h.ui.showServers()
	sw := h.ui.serversW
	h.until("local ready with its definitions not loaded", func() bool {
		r := sw.Rows[config.LocalAlias]
		return r != nil && h.serverState(sw, config.LocalAlias) == "ready" && r.LeftOut.Visible()
	})
	if all := strings.Join(h.texts(sw.Win), "\n"); !strings.Contains(all, "4 tools  ·  3 definitions not loaded") {
		t.Errorf("local's row does not say 3 definitions not loaded:\n%s", all)
	}
	left := sw.Rows[config.LocalAlias].LeftOut.Text
	if n := strings.Count(left, "Not loaded: "); n != 4 {
		t.Errorf("local's row lists %d reasons, want 4 (peek.json has two):\n%s", n, left)
	}
	for _, want := range []string{
		"Not loaded: " + filepath.Join(dir, "countwords.json") + `: key "positional_args[0]": argument "type"`,
		"Not loaded: " + filepath.Join(dir, "frob.json") + ": frobnicator-not-installed is not installed",
	} {
		if !strings.Contains(left, want) {
			t.Errorf("local's row lacks %q:\n%s", want, left)
		}
	}

	h.say("frob it")
	want := "Error: local__frob is not loaded: " + filepath.Join(dir, "frob.json") + ": frobnicator-not-installed is not installed"
	h.until("the model told why", func() bool { return strings.Contains(h.lastToolResult(), want) })
	sw.Win.Close()
	h.until("the card told why", func() bool { return h.shows(h.ui.win, "local__frob is not loaded") })
}

// The built-in shell with shell commands off (the default) is kept out as
// the person's settings ask: the row warns of no definition not loaded
// (every start said "1 definition not loaded" in orange, its reason twice,
// once for the shell and once for its fallback), and a model that calls it
// is still told why, once.
func TestServersShellOffIsNoWarning(t *testing.T) {
	srv, err := toolserver.New(toolserver.Options{Dir: t.TempDir(), Scope: t.TempDir(), NoSandbox: true, Shell: func() bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	var shell []tools.Rejected
	for _, r := range srv.LeftOut() {
		if r.Name == "shell" {
			shell = append(shell, r)
		}
	}
	if len(shell) != 1 || !shell[0].Off || strings.Count(shell[0].Reason, "shell commands are off") != 1 {
		t.Fatalf("the shell left out = %+v, want once, off, its reason once", shell)
	}
	h := newHarness(t, harnessOptions{
		inProcess: map[string]*sdk.Server{config.LocalAlias: srv.MCP},
		notLoaded: map[string]func() []tools.Rejected{config.LocalAlias: srv.LeftOut},
	})
	h.ui.showServers()
	sw := h.ui.serversW
	h.until("local ready", func() bool {
		return sw.Rows[config.LocalAlias] != nil && h.serverState(sw, config.LocalAlias) == "ready"
	})
	h.until("the catalog knows the shell is off", func() bool {
		r, ok := h.ui.catalog.LeftOut("local__shell")
		return ok && r.Off
	})
	h.ui.serversW.Refresh()
	h.drain()
	if r := sw.Rows[config.LocalAlias]; r.LeftOut.Visible() {
		t.Errorf("local's row warns of the shell kept out by the settings: %s", r.LeftOut.Text)
	}
	if all := strings.Join(h.texts(sw.Win), "\n"); strings.Contains(all, "not loaded") {
		t.Errorf("local's row says a definition is not loaded:\n%s", all)
	}
}
