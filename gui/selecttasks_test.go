package gui

import (
	"testing"

	"fyne.io/fyne/v2"

	"deckhand/testutil"
)

// An answer with a task list shows every task's words, and Select all
// then Ctrl+C copies them with their boxes: they came out as "• " with
// the words missing (new user report 7, problem 3b), and a task that
// began with code crashed the window.
func TestSelectAllCopiesTasks(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks(
		"Some tasks:\n\n- [ ] an open task\n- [x] a done task\n- [x] `go test` passes\n")}}})
	h.say("hello")
	h.until("the answer", func() bool { return h.selTextWith("passes") != nil })
	h.ui.chat.Sel.SelectMessage(h.selTextWith("passes").Row())
	typeOnCanvas(h.ui.win.Canvas(), &fyne.ShortcutCopy{})
	want := "Some tasks:\n\n• [ ] an open task\n• [x] a done task\n• [x] go test passes"
	if got := h.app.Clipboard().Content(); got != want {
		t.Errorf("Select all, Ctrl+C = %q, want %q", got, want)
	}
}
