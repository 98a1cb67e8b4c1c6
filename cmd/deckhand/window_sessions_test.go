package main

import (
	"fmt"
	"os/exec"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// pastChats fills a fresh home's log with two sessions, run through the
// real binary: "first question" (answered "answer one") then "second
// question" ("answer two").
func pastChats(t *testing.T, cfg string) func(env []string, home string) {
	return func(env []string, home string) {
		bin := testutil.BuildProgram(t, "./cmd/deckhand")
		path := writeConfig(t, cfg)
		for _, q := range []string{"first question", "second question"} {
			cmd := exec.Command(bin, "--config", path, "chat", "-p", q)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("chat -p %q: %v\n%s", q, err, out)
			}
		}
	}
}

// A past chat opens with a click on its row in the sidebar (the second
// row, not the current one), and with the keyboard: Tab reaches the list,
// the arrows move to a session and open it, Enter opens the highlighted
// one, F2 renames it.
func TestWindowOpensPastChats(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("answer one")},
		testutil.ModelResponse{Body: testutil.TextChunks("answer two")},
	)
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[tools]\nenabled = false\n", model.URL)
	w := startRealWindow(t, cfg, pastChats(t, cfg))
	s := w.waitScreen("two sessions in the sidebar", func(s gui.Screen) bool {
		_, a := find(s, "row", "first question")
		_, b := find(s, "row", "second question")
		return a && b
	})
	row, _ := find(s, "row", "first question")
	w.click(row)
	w.waitScreen("the first chat's history", func(s gui.Screen) bool { return shows(s, "answer one") })
	w.keep("past-chat-clicked.png")

	// The keyboard: from the search box, Tab reaches the list; Up moves
	// to the other session and opens it.
	search, ok := findEntry(w.screen(), "Search")
	if !ok {
		t.Fatal("no search box")
	}
	w.click(search)
	w.key("Tab")
	w.waitScreen("the list has the focus", func(s gui.Screen) bool { f, ok := focused(s); return ok && f.Kind == "sessions" })
	w.key("Up")
	w.waitScreen("the second chat's history", func(s gui.Screen) bool { return shows(s, "answer two") && !shows(s, "answer one") })
	w.key("Down", "Return")
	w.waitScreen("the first chat again", func(s gui.Screen) bool { return shows(s, "answer one") })
	w.key("F2")
	w.waitScreen("the rename dialog", func(s gui.Screen) bool { return shows(s, "Rename chat") })
	w.key("Escape")
	w.waitScreen("the rename dialog closed", func(s gui.Screen) bool { return !shows(s, "Rename chat") })

	// A search result opens with a click too.
	w.click(search)
	w.typeText("second")
	s = w.waitScreen("one search result", func(s gui.Screen) bool {
		_, first := find(s, "row", "first question")
		_, second := find(s, "row", "second question")
		return second && !first
	})
	row, _ = find(s, "row", "second question")
	w.click(row)
	w.waitScreen("the search result's history", func(s gui.Screen) bool { return shows(s, "answer two") })
}
