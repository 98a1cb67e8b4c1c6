package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// Ctrl+Q while a run waits on an approval asks first, over the approval
// dialog: "A run is in progress in “…”. Quit anyway?". Enter (on Cancel,
// the default) and Escape keep Deckhand running, the approval still
// asked; Tab to Quit, then Enter, quits, exit 0. Before, Ctrl+Q did
// nothing under the dialog (and quit at once, the run cut off, where no
// dialog covered the window).
func TestWindowQuitAsksWhileARunGoes(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__mutable", Arguments: `{"path":"note.txt"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("ok")},
	)
	cfg := scriptedConfig(model.URL, fmt.Sprintf("[mcp.servers.p]\ncommand = %q\nargs = [\"-describe\", \"Write a note\"]\n", stdioServerBin(t)))
	w := startRealWindow(t, cfg, nil)
	w.waitServerReady()
	w.say("write the note")
	w.waitScreen("the approval", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
	const question = "A run is in progress in “write the note”. Quit anyway?"
	exited := make(chan error, 1)
	go func() { exited <- w.cmd.Wait() }()
	for _, answer := range []string{"Return", "Escape"} {
		w.key("ctrl+q")
		w.waitScreen("the question", func(s gui.Screen) bool { return shows(s, question) })
		w.keep("quit-question.png")
		w.key(answer)
		w.waitScreen("the question gone, the approval still asked", func(s gui.Screen) bool {
			_, allow := find(s, "button", "Allow once")
			return !shows(s, question) && allow
		})
		select {
		case err := <-exited:
			t.Fatalf("%s on the question: Deckhand exited (%v); stderr:\n%s", answer, err, w.stderr)
		default:
		}
	}
	w.key("ctrl+q")
	w.waitScreen("the question", func(s gui.Screen) bool { return shows(s, question) })
	w.key("Tab")
	w.key("Return")
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("Quit: Deckhand exited with %v; stderr:\n%s", err, w.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("Quit on the question did not quit Deckhand; stderr:\n%s", w.stderr)
	}
	if strings.Contains(w.stderr.String(), "panic") {
		t.Errorf("stderr:\n%s", w.stderr)
	}
}
