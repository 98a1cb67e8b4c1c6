package main

import (
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// A person who presses Ctrl+K and types at once, before the quick prompt's
// window is up and has the keyboard, gets every letter in the quick
// prompt's box, and none in the main window's message box: the first
// letters typed went to the main window, which still had the keyboard.
// Twice: the first opening makes the window, the second shows it again.
func TestWindowQuickPromptTypedAtOnce(t *testing.T) {
	model := testutil.NewModelServer(t)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	const title = "Deckhand: quick prompt"
	for i, text := range []string{"what time is it", "and the weather"} {
		// One xdotool run: the letters follow Ctrl+K as closely as a
		// quick hand's.
		w.xdo("key", "--clearmodifiers", "ctrl+k", "type", "--delay", "20", text)
		// Until the last letters are in the quick prompt: the first may be
		// elsewhere, or lost.
		s := w.waitScreen("the quick prompt holding the end of "+text, func(s gui.Screen) bool {
			for _, it := range s.Items {
				if it.Window == title && it.Kind == "entry" && strings.HasSuffix(it.Text, text[len(text)-3:]) {
					return true
				}
			}
			return false
		})
		for _, it := range s.Items {
			if it.Kind == "entry" && it.Window == title && it.Text != text {
				t.Errorf("opening %d: the quick prompt's box holds %q, want %q", i+1, it.Text, text)
			}
			if it.Kind == "entry" && it.Window == "Deckhand" && it.Text != "" {
				t.Errorf("opening %d: the main window's %q box holds %q, typed for the quick prompt", i+1, it.Hint, it.Text)
			}
		}
		w.key("ctrl+a", "BackSpace") // the box keeps a draft when it closes
		w.key("Escape")              // closes the quick prompt
		testutil.Eventually(t, 10*time.Second, func() bool {
			return w.xdo("search", "--onlyvisible", "--name", "^"+title+"$") == ""
		}, "the quick prompt closed by Escape")
		w.xdo("windowactivate", "--sync", w.win)
		// The message box has the keyboard again.
		w.typeText("back")
		w.waitScreen("the message box holding back", func(s gui.Screen) bool {
			b, _ := findEntry(s, "Message Deckhand")
			return b.Text == "back"
		})
		w.key("ctrl+a", "BackSpace")
	}
}
