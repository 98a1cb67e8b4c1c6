package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// Shift+Tab reaches the controls of a message scrolled out of view, and
// Space presses them: with a long answer below it, the person's message's
// Retry and Edit (and, after the Retry, its ‹ version arrow).
// The transcript's list draws only the rows in view, and Fyne's Tab went
// only through what is drawn: in the real window Tab went from Settings
// to the paperclip, past every control out of view (issue 29, defect 5).
func TestWindowTabReachesTranscriptButtons(t *testing.T) {
	long := func(first string) string {
		return first + "\n\n" + strings.Repeat("a line of the long answer\n\n", 60) + "the end of " + first
	}
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks(long("the first answer"))},
		testutil.ModelResponse{Body: testutil.TextChunks(long("the second answer"))},
	)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.say("hello there")
	s := w.waitScreen("the answer's end", func(s gui.Screen) bool { return shows(s, "the end of the first answer") })
	if _, ok := find(s, "button", "Retry"); ok {
		t.Fatalf("the answer is too short to push Retry out of view:\n%s", s.ScreenText())
	}
	focused := func(s gui.Screen) (gui.ScreenItem, bool) {
		i := slices.IndexFunc(s.Items, func(it gui.ScreenItem) bool { return it.Window == "Deckhand" && it.Focused })
		if i < 0 {
			return gui.ScreenItem{}, false
		}
		return s.Items[i], true
	}
	// round presses key until the focus comes back to the message box,
	// and stops at (and leaves the focus on) a button named stop.
	round := func(key, stop string) []string {
		t.Helper()
		box, _ := findEntry(w.screen(), "Message Deckhand")
		w.click(box)
		var seen []string
		prev, _ := focused(w.screen())
		for range 60 {
			w.key(key)
			s := w.waitScreen(fmt.Sprintf("the focus moved by %s after %q", key, seen), func(s gui.Screen) bool {
				// No item focused is a stop too: one the screen cannot show
				// (Fyne's list itself, which Tab stopped on).
				f, _ := focused(s)
				return f.Kind != prev.Kind || f.Text != prev.Text || f.X != prev.X || f.Y != prev.Y
			})
			prev, _ = focused(s)
			seen = append(seen, prev.Kind+" "+prev.Text)
			if prev.Kind == "button" && prev.Text == stop {
				if !prev.Visible {
					t.Errorf("the focused %q is out of view: %+v", stop, prev)
				}
				return seen
			}
			if prev.Kind == "entry" && prev.Hint != "" && strings.HasPrefix(prev.Hint, "Message Deckhand") {
				break
			}
		}
		t.Fatalf("%s went round the window and never reached %q; it went through: %q", key, stop, seen)
		return nil
	}
	// Into the chat from below, up through the long answer to its
	// message's controls (Tab from above starts at the first control in
	// view: TestWindowTabIntoChatKeepsPlace).
	round("shift+Tab", "Edit")
	round("shift+Tab", "Retry")
	w.key("space")
	w.waitScreen("the second answer", func(s gui.Screen) bool { return shows(s, "the end of the second answer") })
	round("shift+Tab", "‹")
	w.key("space")
	w.waitScreen("the first answer again", func(s gui.Screen) bool {
		return shows(s, "the first answer") && !shows(s, "the second answer")
	})
}

// Tab into the chat from the controls before it keeps the person's place:
// the focus goes to the first control in view (the last message's Retry,
// here), and the chat stays where it was, at its end. It jumped to the
// chat's first message, a long answer away, and the place was lost.
func TestWindowTabIntoChatKeepsPlace(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("the first answer\n\n" + strings.Repeat("a line of the long answer\n\n", 60) + "the end of the first answer")},
		testutil.ModelResponse{Body: testutil.TextChunks("the second answer, short")},
	)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.say("hello there")
	w.waitScreen("the first answer's end", func(s gui.Screen) bool { return shows(s, "the end of the first answer") })
	w.typeText("and again")
	w.key("Return")
	s := w.waitScreen("the second answer", func(s gui.Screen) bool { return shows(s, "the second answer, short") })
	// The first message's text (its title is the chat's, always shown).
	firstShown := func(s gui.Screen) bool { _, ok := find(s, "text", "hello there"); return ok }
	if firstShown(s) {
		t.Fatalf("the first message is in view: the test proves nothing:\n%s", s.ScreenText())
	}
	// The transcript is right of the sidebar and above the message box.
	box, _ := findEntry(s, "Message Deckhand")
	inChat := func(it gui.ScreenItem) bool {
		return it.Window == "Deckhand" && it.X > box.X-40 && it.Y+it.H <= box.Y-8
	}
	// Tab from the message box goes round the window, and into the chat
	// from the sidebar's last control, Settings: from above.
	var seen []string
	prev, _ := focused(w.screen())
	for range 16 {
		w.key("Tab")
		s = w.waitScreen(fmt.Sprintf("the focus moved by Tab after %q", seen), func(s gui.Screen) bool {
			f, _ := focused(s)
			return f.Kind != prev.Kind || f.Text != prev.Text || f.X != prev.X || f.Y != prev.Y
		})
		prev, _ = focused(s)
		if f, ok := focused(s); ok && inChat(f) {
			if len(seen) == 0 || seen[len(seen)-1] != "button Settings" {
				t.Fatalf("Tab came into the chat after %q, not from Settings", seen)
			}
			if !f.Visible || !shows(s, "the second answer, short") || firstShown(s) {
				w.keep("tab-into-chat.png")
				t.Errorf("Tab into the chat moved it: the focus is on %s %q (in view %v), and the chat shows:\n%s", f.Kind, f.Text, f.Visible, s.ScreenText())
			}
			if f.Kind != "button" || f.Text != "Retry" {
				t.Errorf("Tab into the chat focused %s %q, want the first control in view, the last message's Retry", f.Kind, f.Text)
			}
			return
		} else if ok {
			seen = append(seen, f.Kind+" "+f.Text+f.Hint)
		}
	}
	t.Fatalf("Tab never came into the chat; it went through %q", seen)
}
