package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/config"
)

// TestServersGrantNeitherPromisesNothing: the grant question's Neither
// no longer says the server "serves the workspace instead" (after
// Neither, server-filesystem stopped: "None of the specified directories
// are accessible"); it says the server may refuse to start, and, when the
// folders asked about are all its command line names, that with Neither
// it may not start at all. A server that names another folder it may use
// is not told that.
func TestServersGrantNeitherPromisesNothing(t *testing.T) {
	dir := t.TempDir()
	docs, notes := filepath.Join(dir, "Documents"), filepath.Join(dir, "notes")
	for _, d := range []string{docs, notes} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args     string
		noneLeft bool
	}{{docs, true}, {notes + " " + docs, false}} {
		h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.Policy.FS.ReadRoots = []string{notes} }})
		h.ui.showServers()
		sw := h.ui.serversW
		sw.ShowConnect()
		f := sw.Form
		f.Kind.SetSelected("Command")
		f.Target.SetText("/nonexistent/mcp-server-filesystem " + c.args)
		h.tap(f.Win, "Connect and save")
		var text string
		for _, s := range h.texts(f.Win) {
			if strings.Contains(s, "outside the folders servers may use") {
				text = s
			}
		}
		if text == "" {
			t.Fatalf("%s: no question; the form shows:\n%s", c.args, strings.Join(h.texts(f.Win), "\n"))
		}
		if strings.Contains(text, "workspace instead") {
			t.Errorf("%s: Neither promises the workspace:\n%s", c.args, text)
		}
		if !strings.Contains(text, "It may refuse to start without it.") {
			t.Errorf("%s: Neither does not say the server may refuse to start:\n%s", c.args, text)
		}
		if got := strings.Contains(text, "names no other folder"); got != c.noneLeft {
			t.Errorf("%s: says it names no other folder: %v, want %v:\n%s", c.args, got, c.noneLeft, text)
		}
	}
}
