package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// A config with a typo opens a window anyway that says what is wrong (the
// file, the line, the key); Start with defaults puts the file aside (kept,
// renamed) and starts Deckhand whole.
func TestWindowConfigProblem(t *testing.T) {
	w := startRealWindow(t, "[model]\nname = \"x\"\nmodle = \"oops\"\n", nil)
	cfgPath := filepath.Join(w.dir, "config", "deckhand", "config.toml")
	s := w.waitScreen("the config's problem", func(s gui.Screen) bool {
		return shows(s, "Deckhand cannot read its settings") && shows(s, cfgPath+":3: model.modle: unknown key")
	})
	for _, b := range []string{"Open config", "Try again", "Start with defaults"} {
		if _, ok := find(s, "button", b); !ok {
			t.Errorf("no %s button:\n%s", b, s.ScreenText())
		}
	}
	w.keep("config-problem.png")
	// Try again with the file still broken: it says so.
	w.clickText("button", "Try again")
	w.waitScreen("still broken", func(s gui.Screen) bool { return shows(s, "Still not readable") })
	before, _ := os.Stat(w.shot)
	w.clickText("button", "Start with defaults")
	// Deckhand starts over (the same process, a new window; X may give
	// it the old one's id): the new one says what it shows once up.
	testutil.Eventually(t, 30*time.Second, func() bool {
		st, err := os.Stat(w.shot)
		if err != nil || !st.ModTime().After(before.ModTime()) {
			return false
		}
		data, _ := os.ReadFile(w.shot)
		return strings.Contains(string(data), `"New chat"`)
	}, "no main window after Start with defaults; stderr:\n%s", w.stderr)
	w.win = firstField(w.xdo("search", "--name", "^Deckhand$"))
	aside, _ := filepath.Glob(cfgPath + ".broken-*")
	if len(aside) != 1 {
		t.Fatalf("the broken config was not kept aside: %v", aside)
	}
	if data, _ := os.ReadFile(aside[0]); !strings.Contains(string(data), "modle") {
		t.Errorf("the kept file lost its text: %q", data)
	}
}
