package gui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/store"
	"deckhand/testutil"
)

// TestStopAndDeleteAWorkingChat: Delete… on a chat still working (the quick
// prompt's, waiting for its approval there) asks "Stop and delete", with
// Cancel. Escape cancels: the dialog goes, the chat still works, and the
// message box has the keyboard again; Enter stops the run and deletes the
// chat once stopped, from the sidebar and the log; the quick prompt then
// shows nothing of it. A notice shown meanwhile closes with Escape too.
// It was a notice ("stop it first") that took neither key while the quick
// prompt's approval waited: Escape went to the message box behind (which
// stopped the answer there) and the notice stayed.
func TestStopAndDeleteAWorkingChat(t *testing.T) {
	h := askInQuick(t, harnessOptions{log: true}, "a long call please")
	q := h.ui.quick
	// The person clicks the main window (Fyne says nothing of it: the
	// approval stays on the quick prompt).
	h.until("the quick prompt's chat in the sidebar, working", func() bool {
		r := h.sessionRowOf("a long call please")
		return r != nil && r.Item().Run == store.RunRunning
	})
	id := h.ui.quickID
	c := h.ui.win.Canvas()
	c.Focus(h.ui.input)

	// A notice over the main window takes Enter and Escape although the
	// approval waits on the quick prompt.
	h.ui.showError("Something to read.")
	if c.Focused() == h.ui.input {
		t.Errorf("the message box keeps the keyboard under a notice")
	}
	h.key(fyne.KeyEscape)
	if c.Overlays().Top() != nil {
		t.Fatalf("Escape did not close the notice")
	}
	if c.Focused() != h.ui.input {
		t.Errorf("after the notice the keyboard is on %T, want the message box", c.Focused())
	}

	test.TapSecondary(h.sessionRowOf("a long call please"))
	h.menuItem("Delete…")
	if !h.shows(h.ui.win, "Stop and delete") || !h.shows(h.ui.win, "Cancel") {
		t.Fatalf("Delete… on a working chat does not offer Stop and delete:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	if c.Focused() == h.ui.input {
		t.Errorf("the message box keeps the keyboard under the dialog")
	}
	h.key(fyne.KeyEscape)
	if c.Overlays().Top() != nil {
		t.Fatalf("Escape did not close the dialog")
	}
	if c.Focused() != h.ui.input {
		t.Errorf("after Escape the keyboard is on %T, want the message box", c.Focused())
	}
	if h.ui.dialogs.Approvals.Shown() == nil || h.ui.dialogs.Parent() != q.Window() || h.ui.side.Delete != nil {
		t.Fatalf("Escape stopped the run or deleted the chat")
	}

	test.TapSecondary(h.sessionRowOf("a long call please"))
	h.menuItem("Delete…")
	h.key(fyne.KeyReturn)
	h.until("the chat gone from the sidebar", func() bool { return h.sessionRowOf("a long call please") == nil && len(h.ui.side.Items) == 0 })
	h.until("the chat gone from the log", func() bool {
		_, err := h.db.Session(t.Context(), id)
		return errors.Is(err, store.ErrNotFound)
	})
	if h.ui.dialogs.Approvals.Shown() != nil {
		t.Errorf("the approval of the deleted chat is still shown")
	}
	if c.Focused() != h.ui.input {
		t.Errorf("after Stop and delete the keyboard is on %T, want the message box", c.Focused())
	}
	h.ui.showQuick()
	h.until("the quick prompt empty", func() bool {
		return !q.Question.Visible() && len(q.Lines()) == 0 && q.Answer.String() == ""
	})
}

// TestQuickPromptForgetsADeletedChat: the quick prompt's chat deleted from
// the sidebar, the quick prompt opens empty, and its next question starts
// a new chat. It showed the deleted chat's question and Open in main
// window, which opened nothing.
func TestQuickPromptForgetsADeletedChat(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The quick answer.")}, {Body: testutil.TextChunks("Another answer.")},
	}})
	h.ui.showQuick()
	q := h.ui.quick
	h.quickSay("a quick question")
	h.until("the answer in the quick prompt", func() bool { return q.Answer.String() == "The quick answer." })
	h.until("the chat in the sidebar, done", func() bool {
		r := h.sessionRowOf("a quick question")
		return r != nil && r.Item().Run != store.RunRunning
	})
	h.ui.showMain()
	test.TapSecondary(h.sessionRowOf("a quick question"))
	h.menuItem("Delete…")
	h.tap(h.ui.win, "Delete")
	h.until("the chat gone from the sidebar", func() bool { return len(h.ui.side.Items) == 0 })
	h.ui.showQuick()
	h.until("the quick prompt empty", func() bool {
		return !q.Question.Visible() && q.Question.Text == "" && q.Answer.String() == ""
	})
	if h.shows(q.Window(), "a quick question") {
		t.Errorf("the quick prompt still shows the deleted chat:\n%s", strings.Join(h.texts(q.Window()), "\n"))
	}
}
