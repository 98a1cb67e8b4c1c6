package gui

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"deckhand/approval"
	"deckhand/transcript"
)

// TestFocusBackToTheMessageBox: after Retry and its approval answered, and
// after a click on a chat in the sidebar, the keyboard is in the message
// box, as after Send and Edit: a word typed next is not lost (nothing had
// the focus after Retry, whose button hides as the run starts; the
// sidebar's list kept it after a click).
func TestFocusBackToTheMessageBox(t *testing.T) {
	h := approvalHarness(t, nil)
	allow := approval.AllowOnce
	if n := h.runToEnd("echo this", &allow); n != 1 {
		t.Fatalf("%d approval dialogs, want 1", n)
	}
	h.drain()
	retry := h.userHeaders()[0].Retry
	test.Tap(retry)
	h.until("Retry's approval", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])
	h.until("the retried run's end", func() bool {
		last := h.ui.chat.Rows[len(h.ui.chat.Rows)-1]
		return !h.ui.running && last.Kind == transcript.Text && last.Text == "Echoed."
	})
	h.drain()
	if f := h.ui.win.Canvas().Focused(); f != h.ui.input {
		t.Errorf("after Retry and Allow once, the focus is on %T, want the message box", f)
	}

	// A click on a chat in the sidebar.
	h.tap(h.ui.win, "New chat")
	h.until("an empty chat", func() bool { return len(h.ui.chat.Rows) == 0 })
	h.runToEnd("another chat", &allow)
	h.until("both chats in the sidebar", func() bool { return h.sessionRowOf("echo this") != nil })
	h.ui.win.Canvas().Unfocus()
	test.Tap(h.sessionRowOf("echo this"))
	h.until("the first chat", func() bool {
		rows := h.ui.chat.Rows
		return len(rows) > 0 && rows[0].Kind == transcript.Header && rows[0].Text == "echo this"
	})
	h.drain()
	if f := h.ui.win.Canvas().Focused(); f != h.ui.input {
		t.Errorf("after a click on a chat in the sidebar, the focus is on %T, want the message box", f)
	}
}
