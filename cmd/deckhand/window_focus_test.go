package main

import (
	"fmt"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// After answering an approval with the keyboard, what the person types
// goes on into the message box (the dialog took the focus and gave it
// back).
func TestWindowFocusAfterApproval(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__getenv", Arguments: `{"name":"HOME"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("denied, fine")},
	)
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[tools]\nenabled = false\n\n[mcp.servers.p]\ncommand = %q\nargs = [\"-probe\"]\n", model.URL, stdioServerBin(t))
	w := startRealWindow(t, cfg, nil)
	box, _ := findEntry(w.screen(), "Message Deckhand")
	w.click(box)
	w.typeText("go")
	w.key("Return")
	w.waitScreen("the approval dialog", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
	w.keep("approval-open.png")
	w.key("Escape")
	w.waitScreen("the dialog gone", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return !ok })
	w.typeText("next words")
	s := w.waitScreen("the typing in the message box", func(s gui.Screen) bool {
		b, ok := findEntry(s, "Message Deckhand")
		return ok && strings.Contains(b.Text, "next words")
	})
	if f, _ := focused(s); f.Kind != "entry" || !strings.Contains(f.Hint, "Message Deckhand") {
		t.Errorf("the focus is on %s %q", f.Kind, f.Text)
	}
}
