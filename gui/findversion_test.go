package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/gui/widgets"
	"deckhand/testutil"
)

// TestFindInAnotherVersion: Ctrl+F for a word only another version of a
// message holds says so, and Enter shows that version with the word
// counted. It said "No matches", where the sidebar's search found it.
func TestFindInAnotherVersion(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The zebrafinch sings.")},
		{Body: testutil.TextChunks("A robin sings.")},
	}})
	h.twoVersions()
	f := h.ui.chat.Find
	f.Open("zebrafinch")
	h.until("the word said to be in another version", func() bool { return f.Count.Text == "In another version" })
	h.ui.win.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.until("the version with the word, counted", func() bool {
		hs := h.userHeaders()
		return len(hs) == 1 && hs[0].Version.Text == "1/2" && f.Count.Text == "1 of 1"
	})
}

// TestFindPhraseInAnotherVersion: a phrase only another version of a
// message holds, typed in the find bar, is said to be there, and Enter
// shows that version with the phrase counted and the bar holding it as
// typed, whatever its words: one letter, punctuation, repeated, any case.
// "return a" and "write a poem" became "a", counted in the version shown,
// which stayed: the bar fell back to the phrase's words alone, meant for
// the sidebar's search, and "a" is everywhere.
func TestFindPhraseInAnotherVersion(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("La la la, sang the ZEBRA.\n\n```python\ndef add(a, b):\n    return a + b\n```")},
		{Body: testutil.TextChunks("Now write a poem: a robin sings, la la.")},
	}})
	h.say("name a bird")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "return a + b") && !h.ui.running })
	test.Tap(h.userHeaders()[0].Retry)
	h.until("the second version", func() bool {
		hs := h.userHeaders()
		return h.shows(h.ui.win, "Now write a poem") && !h.ui.running && len(hs) == 1 && hs[0].Version.Text == "2/2"
	})
	f := h.ui.chat.Find
	for _, c := range []struct {
		name, query string
		from, to    string // the version shown, and the one holding the phrase
	}{
		{"one-letter word last", "return a", "2/2", "1/2"},
		{"one-letter word inside", "write a poem", "1/2", "2/2"},
		{"punctuation", "add(a, b):", "2/2", "1/2"},
		{"operator", "a + b", "2/2", "1/2"},
		{"repeated words", "la la la", "2/2", "1/2"},
		{"case", "the Zebra", "2/2", "1/2"},
		{"case, one letter", "WRITE A", "1/2", "2/2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if hs := h.userHeaders(); len(hs) != 1 || hs[0].Version.Text != c.from {
				h.versionTo(c.from)
			}
			f.Close()
			h.ui.chat.Find.Open("")
			entry, _ := h.ui.win.Canvas().Focused().(*widgets.FindEntry)
			if entry == nil {
				t.Fatal("the find bar's box has not the keyboard")
			}
			test.Type(entry, c.query)
			h.until("the phrase said to be in another version", func() bool { return f.Count.Text == "In another version" })
			entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			h.until("the version with the phrase, counted", func() bool {
				hs := h.userHeaders()
				return len(hs) == 1 && hs[0].Version.Text == c.to && f.Count.Text != "In another version" && f.Count.Text != ""
			})
			if entry.Text != c.query || f.Count.Text != "1 of 1" {
				t.Errorf("Enter on %q: the bar holds %q and says %q; want %q, 1 of 1", c.query, entry.Text, f.Count.Text, c.query)
			}
		})
	}
}

// versionTo shows the version v ("1/2") of the chat's one message with ‹ ›.
func (h *harness) versionTo(v string) {
	h.t.Helper()
	hs := h.userHeaders()
	if len(hs) != 1 {
		h.t.Fatalf("%d messages on show, want 1", len(hs))
	}
	if hs[0].Version.Text < v {
		test.Tap(hs[0].Next)
	} else {
		test.Tap(hs[0].Prev)
	}
	h.until("version "+v, func() bool { hs := h.userHeaders(); return len(hs) == 1 && hs[0].Version.Text == v })
}
