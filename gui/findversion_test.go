package gui

import (
	"testing"

	"fyne.io/fyne/v2"

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
