package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/gui/widgets"
	"deckhand/testutil"
)

// TestPromptFormKeys: a prompt's arguments form opens with its first field
// focused; Escape there cancels it, Enter there uses the prompt, and the
// message box has the keyboard after either. It was a plain dialog: no
// field had the keyboard, and Enter and Escape did nothing.
func TestPromptFormKeys(t *testing.T) {
	h := everythingHarness(t, harnessOptions{})
	s := h.ui.comp.Slash
	c := h.ui.win.Canvas()
	open := func() {
		t.Helper()
		c.Focus(h.ui.input)
		h.ui.input.SetText("/ev.args-prompt")
		h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if s.Form == nil {
			t.Fatalf("no arguments form")
		}
	}
	h.until("the prompts", func() bool {
		c.Focus(h.ui.input)
		test.Type(h.ui.input, "/")
		ok := h.suggestion("/ev.args-prompt") != nil
		h.ui.input.SetText("")
		return ok
	})
	open()
	if e, ok := c.Focused().(*widgets.EscEntry); !ok || &e.Entry != s.Fields["city"] {
		t.Fatalf("the form opens with the keyboard on %T, want its first field", c.Focused())
	}
	h.key(fyne.KeyEscape)
	if s.Form != nil || c.Overlays().Top() != nil {
		t.Fatalf("Escape in the form's field did not cancel it")
	}
	if c.Focused() != h.ui.input {
		t.Errorf("after Escape the keyboard is on %T, want the message box", c.Focused())
	}

	open()
	test.Type(s.Fields["city"], "Oslo")
	h.key(fyne.KeyReturn)
	if s.Form != nil {
		t.Fatalf("Enter in the form's field did not use the prompt")
	}
	h.until("the prompt's message", func() bool { return strings.Contains(h.ui.input.Text, "Oslo") })
	if c.Focused() != h.ui.input {
		t.Errorf("after Enter the keyboard is on %T, want the message box", c.Focused())
	}
}

// TestAttachDialogEscape: Escape closes the Attach file dialog once a
// click took the keyboard from its field, and does not reach the window
// behind, where it stopped the answer being written; the message box has
// the keyboard again.
func TestAttachDialogEscape(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{
		Body: testutil.TextChunks("Slowly ", "but ", "surely ", "and ", "on."), Pace: 200 * time.Millisecond,
	}}})
	h.say("take your time")
	h.until("the run working", func() bool { return h.ui.running })
	c := h.ui.win.Canvas()
	c.Focus(h.ui.input)
	test.Tap(h.ui.comp.Attach)
	h.until("the file chooser", func() bool { return h.button(h.ui.win, "Open") != nil })
	c.Unfocus() // a click in the chooser's list
	h.key(fyne.KeyEscape)
	if c.Overlays().Top() != nil {
		t.Fatalf("Escape did not close the file dialog")
	}
	if c.Focused() != h.ui.input {
		t.Errorf("after Escape the keyboard is on %T, want the message box", c.Focused())
	}
	h.until("the answer, or the run stopped", func() bool { return h.shows(h.ui.win, "surely and on.") || !h.ui.running })
	if h.shows(h.ui.win, "Stopped.") {
		t.Errorf("Escape in the file dialog stopped the answer")
	}
}
