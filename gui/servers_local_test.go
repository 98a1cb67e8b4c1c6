package gui

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/tools"
	"deckhand/toolserver"
)

// The built-in tools server says in the window what it is and where a
// tool is added: its row names the folder of definitions (made by Open
// folder, which opens it in the file manager) and `deckhand tools
// schema`; its tools page says where shell commands are turned on, in the
// window's words (Settings ▸ Permissions), not only policy.allow_exec.
func TestServersLocalSaysHowToAddATool(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mytools") // not made yet, as a new user's
	srv, err := toolserver.New(toolserver.Options{Dir: dir, Scope: t.TempDir(), NoSandbox: true, Shell: func() bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	h := newHarness(t, harnessOptions{
		inProcess: map[string]*sdk.Server{config.LocalAlias: srv.MCP},
		notLoaded: map[string]func() []tools.Rejected{config.LocalAlias: srv.LeftOut},
		cfg:       func(c *config.Config) { c.Tools.Dir = dir },
	})
	var opened []string
	h.ui.openURL = func(u *url.URL) error { opened = append(opened, u.String()); return nil }
	h.ui.showServers()
	sw := h.ui.serversW
	h.until("local ready", func() bool {
		return sw.Rows[config.LocalAlias] != nil && h.serverState(sw, config.LocalAlias) == "ready"
	})
	r := sw.Rows[config.LocalAlias]
	if r.About == nil || r.OpenFolder == nil {
		t.Fatalf("local's row has no line saying what it is, or no Open folder; it shows:\n%s", strings.Join(h.texts(sw.Win), "\n"))
	}
	for _, want := range []string{"Command-line programs as tools", "a JSON file in " + dir, "deckhand tools schema"} {
		if !strings.Contains(r.About.Text, want) || !h.shows(sw.Win, want) {
			t.Errorf("local's row does not show %q: %q", want, r.About.Text)
		}
	}
	if !h.shows(sw.Win, "Open folder") || !r.OpenFolder.Visible() {
		t.Error("local's row shows no Open folder button")
	}
	test.Tap(r.OpenFolder)
	h.drain()
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Errorf("Open folder did not make %s: %v", dir, err)
	}
	if want := (&url.URL{Scheme: "file", Path: dir}).String(); len(opened) != 1 || opened[0] != want {
		t.Errorf("Open folder opened %q, want [%s]", opened, want)
	}

	h.until("the catalog knows the shell is off", func() bool {
		r, ok := h.ui.catalog.LeftOut("local__shell")
		return ok && r.Off
	})
	sw.ShowTools(config.LocalAlias)
	tw := sw.Tools
	h.until("local's tools", func() bool { return tw.Loaded && len(tw.List) > 0 })
	if !strings.Contains(sw.Notes, "Settings ▸ Permissions ▸ Allow shell commands") {
		t.Errorf("the tools page's note on the shell names no place in Settings:\n%s", sw.Notes)
	}
	if tw.NotesShow != nil && tw.NotesShow.Visible() {
		t.Errorf("the note on the shell is cut (%q): its place in Settings is lost", tw.NotesLabel.Text)
	}
	if !h.shows(tw.Win, "deckhand tools schema") {
		t.Errorf("local's tools page does not say how to add a tool:\n%s", strings.Join(h.texts(tw.Win), "\n"))
	}
}
