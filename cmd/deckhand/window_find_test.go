package main

import (
	"fmt"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// Find in a chat: Ctrl+F opens the find bar with the keyboard in it; a
// word typed is counted ("1 of 3") and the chat scrolls to its first
// match, marked; Enter goes to the next, Shift+Enter back; Escape closes
// the bar and its marks.
func TestWindowFindInChat(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	var paras []string
	for i := range 40 {
		p := fmt.Sprintf("Paragraph %d is about nothing much, said plainly.", i)
		if i == 3 || i == 30 || i == 37 {
			p = fmt.Sprintf("Paragraph %d mentions the zebra once.", i)
		}
		paras = append(paras, p)
	}
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks(strings.Join(paras, "\n\n"))})
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.say("tell me")
	s := w.waitScreen("the answer's end", func(s gui.Screen) bool { return shows(s, "Paragraph 39") })
	if shows(s, "Paragraph 3 mentions") {
		t.Fatalf("the first match is already in view: the test proves nothing")
	}

	w.key("ctrl+f")
	w.waitScreen("the find bar, focused", func(s gui.Screen) bool {
		f, _ := focused(s)
		return strings.Contains(f.Hint, "Find in this chat")
	})
	w.typeText("Zebra")
	s = w.waitScreen("1 of 3, the first match in view and marked", func(s gui.Screen) bool {
		_, cur := find(s, "found", "current")
		return shows(s, "1 of 3") && shows(s, "Paragraph 3 mentions") && cur
	})
	w.keep("find-bar.png")
	w.key("Return")
	w.waitScreen("2 of 3 at paragraph 30", func(s gui.Screen) bool {
		return shows(s, "2 of 3") && shows(s, "Paragraph 30 mentions") && !shows(s, "Paragraph 3 mentions")
	})
	w.key("Return")
	w.waitScreen("3 of 3", func(s gui.Screen) bool { return shows(s, "3 of 3") && shows(s, "Paragraph 37 mentions") })
	w.key("shift+Return")
	w.waitScreen("back to 2 of 3", func(s gui.Screen) bool { return shows(s, "2 of 3") })
	w.key("Escape")
	w.waitScreen("the find bar closed, no marks", func(s gui.Screen) bool {
		_, bar := findEntry(s, "Find in this chat")
		_, marks := find(s, "found", "")
		return !bar && !marks
	})
}
