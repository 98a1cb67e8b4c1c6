package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// The settings as a person uses them: the wheel over the Instructions box
// scrolls the page (it stopped there); Check says what it found under the
// model, with no box to dismiss, and the picker leaves out the embedding
// models the server lists; Ctrl+Q quits Deckhand.
func TestWindowSettingsScrollCheckAndQuit(t *testing.T) {
	model := testutil.NewModelServer(t)
	model.SetModels("scripted", "text-embedding-3-small", "nomic-embed-text", "bigger")
	cfg := scriptedConfig(model.URL)

	// The wheel over the Instructions moves the page.
	t.Run("wheel", func(t *testing.T) {
		w := startRealWindow(t, cfg, nil, withDisplay("1280x680"))
		w.key("ctrl+comma")
		// Once the keyring's state is said (no session bus here), which
		// moves what is below it: then the Instructions box is in view,
		// the page's end below it.
		s := w.waitScreen("the settings", func(s gui.Screen) bool {
			_, ok := findEntry(s, "Optional. For example")
			return ok && shows(s, "No keyring available")
		})
		box, _ := findEntry(s, "Optional. For example")
		w.keep("settings-before-wheel.png")
		win := w.windowID(box.Window)
		w.xdo("mousemove", "--window", win, fmt.Sprint(int(box.X+box.W/2)), fmt.Sprint(int(box.Y+min(box.H/2, 12))))
		for range 5 {
			w.xdo("click", "5")
			time.Sleep(50 * time.Millisecond) // kept: a pause between synthetic wheel events, as a hand makes
		}
		w.waitScreen("the page scrolled", func(s gui.Screen) bool {
			b, ok := findEntry(s, "Optional. For example")
			return !ok || b.Y < box.Y-20
		})
		w.keep("settings-after-wheel.png")
	})

	// Check says what it found under the model, with no box to dismiss,
	// also when the page is at rest and the pointer has rested on the
	// button, as a hand's does (the answer was laid out only if something
	// else redrew the page: it never appeared); Ctrl+Q quits from the
	// settings.
	w := startRealWindow(t, cfg, nil, withDisplay("1280x600"))
	w.key("ctrl+comma")
	s := w.waitScreen("the settings at rest", func(s gui.Screen) bool {
		_, ok := find(s, "button", "Check")
		return ok && shows(s, "No keyring available")
	})
	c, _ := find(s, "button", "Check")
	w.xdo("mousemove", "--window", w.windowID(c.Window), fmt.Sprint(int(c.X+c.W/2)), fmt.Sprint(int(c.Y+c.H/2)))
	time.Sleep(500 * time.Millisecond) // the hand rests: what is tested
	w.xdo("click", "1")
	s = w.waitScreen("what Check found", func(s gui.Screen) bool { return shows(s, "answers with 2 models") })
	if c, _ := find(s, "button", "Check"); c.Window != "Deckhand" {
		t.Errorf("the settings are not in the main window: %+v", c)
	}
	for _, it := range s.Items {
		if it.Kind == "button" && it.Text == "OK" && it.Visible {
			t.Errorf("Check opened a box to dismiss:\n%s", s.ScreenText())
		}
	}
	w.keep("settings-checked.png")

	// Ctrl+Q, from the settings.
	w.key("ctrl+q")
	done := make(chan error, 1)
	go func() { done <- w.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Ctrl+Q: Deckhand exited with %v; stderr:\n%s", err, w.stderr)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("Ctrl+Q did not quit Deckhand; stderr:\n%s", w.stderr)
	}
	if strings.Contains(w.stderr.String(), "panic") {
		t.Errorf("stderr:\n%s", w.stderr)
	}
}
