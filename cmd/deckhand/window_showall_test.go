package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// A long tool result ends where it is cut in a button, clicked with the
// real mouse: the whole result shows (up to the thousand lines drawn),
// the button, now Show less, stays under the pointer, Copy all copies
// every line to the clipboard, and Show less cuts it again in the same
// place. The cut ended in the line "… 482 B more (Show all)", which no
// click reached, and the header's Show all was out of sight above it
// (issue 29, new-user pass 11).
func TestWindowToolResultShowAll(t *testing.T) {
	if !hasProgram("xdotool") || !hasProgram("xclip") {
		t.Skip("no xdotool or xclip")
	}
	var lines []string
	// More than the thousand lines drawn whole, under the result's share
	// of the scripted model's context (toolcall.Limit), which cuts out a
	// long result's middle.
	for i := 1; i <= 1100; i++ {
		lines = append(lines, fmt.Sprintf("line %04d of result", i))
	}
	long := strings.Join(lines, "\n")
	model := testutil.NewModelServer(t,
		// A long first answer: the chat is longer than its view, which
		// then has room to keep the button in place (in a chat shorter
		// than its view nothing scrolls, and the card grows down).
		testutil.ModelResponse{Body: testutil.TextChunks("the first answer\n\n" + strings.Repeat("a line of the first answer\n\n", 40) + "the end of the first answer")},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__getenv", Arguments: `{"name":"LONG"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("Read it.")},
	)
	cfg := scriptedConfig(model.URL, fmt.Sprintf("[mcp.servers.p]\ncommand = %q\nargs = [\"-probe\"]\nenv = { LONG = %q }\n\n[mcp.auto_approve]\n\"p.*\" = true\n",
		stdioServerBin(t), long))
	w := startRealWindow(t, cfg, nil)
	w.waitServerReady()
	w.say("hello")
	w.waitScreen("the first answer", func(s gui.Screen) bool { return shows(s, "the end of the first answer") })
	w.typeText("read it")
	w.key("Return")
	s := w.waitScreen("the cut result and the answer", func(s gui.Screen) bool {
		_, ok := find(s, "button", "Show the whole result (")
		return ok && shows(s, "Read it.")
	})
	cut, _ := find(s, "button", "Show the whole result (")
	if shows(s, "(Show all)") || shows(s, "line 0009 ") {
		t.Errorf("the cut result shows more than its head, or the old line:\n%s", s.ScreenText())
	}
	w.keep("toolcard-cut.png")
	same := func(what string, a, b gui.ScreenItem) {
		t.Helper()
		if d := a.Y - b.Y; d < -2 || d > 2 {
			t.Errorf("%s: the button pressed moved from y %v to %v", what, a.Y, b.Y)
		}
	}

	w.click(cut)
	s = w.waitScreen("Show less and Copy all", func(s gui.Screen) bool {
		_, less := find(s, "button", "Show less")
		_, all := find(s, "button", "Copy all")
		return less && all && shows(s, "line 1000 of result") && shows(s, "are not drawn")
	})
	w.keep("toolcard-whole.png")
	var less gui.ScreenItem
	for _, it := range s.Items { // the one at the result's end, not the header's
		if it.Visible && it.Kind == "button" && it.Text == "Show less" && it.Y > less.Y {
			less = it
		}
	}
	same("Show all", cut, less)
	if it, ok := find(s, "", "line 1001 "); ok {
		t.Errorf("more than the thousand lines are drawn: %s %q…", it.Kind, it.Text[:min(len(it.Text), 80)])
	}

	w.clickText("button", "Copy all")
	w.waitScreen("Copied", func(s gui.Screen) bool { _, ok := find(s, "button", "Copied"); return ok })
	var got string
	testutil.Eventually(t, 10*time.Second, func() bool { got = w.clipboard(); return got == long }, "Copy all copied %d bytes (%q…), want the result's %d", len(got), got[:min(len(got), 40)], len(long))

	w.click(less)
	s = w.waitScreen("the result cut again", func(s gui.Screen) bool {
		_, ok := find(s, "button", "Show the whole result (")
		return ok && !shows(s, "line 1000 of")
	})
	again, _ := find(s, "button", "Show the whole result (")
	same("Show less", less, again)
}
