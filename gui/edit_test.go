package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"deckhand/testutil"
)

// TestEditKeysAsTheMessageBox: in Edit message, Shift+Enter starts a new
// line and Enter sends, as in the message box (Enter added a line there
// and Shift+Enter sent).
func TestEditKeysAsTheMessageBox(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("First.")}, {Body: testutil.TextChunks("Edited.")},
	}})
	h.say("please echo this")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "First.") && !h.ui.running })
	test.Tap(h.userHeaders()[0].Edit)
	h.until("the message to edit", func() bool { e := h.focusedEntry(); return e != nil && e.Text == "please echo this" })
	box := h.ui.win.Canvas().Focused().(fyne.Focusable)
	keys, _ := box.(desktop.Keyable)
	shift := &fyne.KeyEvent{Name: desktop.KeyShiftLeft}
	if keys != nil {
		keys.KeyDown(shift)
	}
	box.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if keys != nil {
		keys.KeyUp(shift)
	}
	test.Type(box, "and that")
	if got := h.focusedEntry().Text; got != "please echo this\nand that" {
		t.Errorf("after Shift+Enter and typing, the edit holds %q", got)
	}
	box.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.until("the edited version's answer", func() bool { return h.shows(h.ui.win, "Edited.") && !h.ui.running })
	if hs := h.userHeaders(); len(hs) != 1 || hs[0].Version.Text != "2/2" {
		t.Errorf("after Enter: %d messages, version %q", len(hs), hs[0].Version.Text)
	}
	if got := userMessages(t, h.model.Requests()[1]); len(got) != 1 || got[0] != "please echo this\nand that" {
		t.Errorf("the model got %q", got)
	}
}

// TestEditCaretAtEnd: Edit message opens with the caret after the text, so
// what is typed first goes on at its end (the caret was left in the middle
// of the text, after "17").
func TestEditCaretAtEnd(t *testing.T) {
	const text = "please add 17 and 25, then tell me how the sum was found, step by step, in a few short sentences"
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("First.")},
	}})
	h.say(text)
	h.until("the answer", func() bool { return h.shows(h.ui.win, "First.") && !h.ui.running })
	test.Tap(h.userHeaders()[0].Edit)
	h.until("the message to edit", func() bool { e := h.focusedEntry(); return e != nil && e.Text == text })
	test.Type(h.ui.win.Canvas().Focused(), "!")
	if got := h.focusedEntry().Text; got != text+"!" {
		t.Errorf("typing ! in the opened edit gave %q, want %q", got, text+"!")
	}
}
