package main

import (
	"fmt"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// TestWindowFindBarGivesItsRoomBack: Ctrl+F, words found nowhere, Enter,
// then Escape: the bar closes and the transcript is where it was before,
// in the real window at 1280×800. A blank band stayed where the bar had
// been, over the transcript's first row, until a restart.
func TestWindowFindBarGivesItsRoomBack(t *testing.T) {
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("Hello there, a short answer.")})
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[tools]\nenabled = false\n", model.URL)
	w := startRealWindow(t, cfg, nil, withDisplay("1280x800"))
	w.typeText("hi")
	w.key("Return")
	at := func(s gui.Screen) float32 {
		it, ok := find(s, "", "Hello there, a short answer.")
		if !ok {
			return -1
		}
		return it.Y
	}
	s := w.waitScreen("the answer", func(s gui.Screen) bool { return at(s) >= 0 })
	before := at(s)
	for round := range 2 {
		w.key("ctrl+f")
		w.waitScreen("the find bar", func(s gui.Screen) bool { _, ok := findEntry(s, "Find in this chat"); return ok })
		w.typeText("poem")
		w.key("Return")
		w.waitScreen("no matches", func(s gui.Screen) bool { return shows(s, "No matches") })
		w.key("Escape")
		s = w.waitScreen("the bar closed", func(s gui.Screen) bool { _, ok := findEntry(s, "Find in this chat"); return !ok })
		if got := at(s); got != before {
			w.keep(fmt.Sprintf("findbar-band-%d.png", round))
			t.Errorf("round %d: after the find bar closed, the answer is at y %v, want %v as before", round+1, got, before)
		}
	}
}
