package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// Adding server-filesystem for ~/Documents through the window asks, in the
// form, whether to grant it that folder; answering Read and write saves it
// with write = ["~/Documents"], and it connects and serves it.
func TestWindowAddServerGrantsItsFolder(t *testing.T) {
	p := testutil.RequirePeers(t)
	cfg := "[tools]\nenabled = false\n"
	var home string
	w := startRealWindow(t, cfg, func(env []string, h string) {
		home = h
		os.MkdirAll(filepath.Join(h, "Documents"), 0o755)
		os.WriteFile(filepath.Join(h, "Documents", "plan.txt"), []byte("the plan"), 0o644)
	})
	w.clickText("button", "Servers")
	w.clickText("button", "Connect a server")
	s := w.waitScreen("the form", func(s gui.Screen) bool { _, ok := findEntry(s, "https://mcp.example.com"); return ok })
	target, _ := findEntry(s, "https://mcp.example.com")
	w.click(target)
	w.typeText(fmt.Sprintf("%s %s %s", p.Node, p.Filesystem, filepath.Join(home, "Documents")))
	w.clickText("button", "Connect and save")
	w.waitScreen("the question", func(s gui.Screen) bool { return shows(s, "outside the folders servers may use") })
	w.keep("grant-folder.png")
	w.clickText("button", "Read and write")
	cfgPath := filepath.Join(w.dir, "config", "deckhand", "config.toml")
	var saved string
	testutil.Eventually(t, 60*time.Second, func() bool {
		data, _ := os.ReadFile(cfgPath)
		saved = string(data)
		return strings.Contains(saved, "server-filesystem")
	}, "the server was never saved; stderr:\n%s", w.stderr)
	if !strings.Contains(saved, `write = ["`+filepath.Join(home, "Documents")+`"]`) {
		t.Errorf("the folder was not granted:\n%s", saved)
	}
	w.waitScreen("the server ready with its tools", func(s gui.Screen) bool { return shows(s, "tools") && shows(s, "ready") })
}
