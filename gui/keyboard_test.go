package gui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/testutil"
)

// With the message box focused (as it nearly always is): Escape stops a
// run, the window's shortcuts work, Tab leaves the box instead of typing a
// tab, a new chat gives the box the focus back, and Escape closes the quick
// prompt from its own box.
func TestKeyboardInTheMessageBox(t *testing.T) {
	pieces := make([]string, 200)
	for i := range pieces {
		pieces[i] = "word "
	}
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks(pieces...), Pace: 50 * time.Millisecond}}})
	box := h.ui.input
	h.say("talk for a while")
	h.until("the run to stream", func() bool { return h.ui.running && h.shows(h.ui.win, "word") })
	h.ui.win.Canvas().Focus(box)
	box.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.until("Escape to stop the run", func() bool { return !h.ui.running && h.shows(h.ui.win, "Stopped.") })

	if box.AcceptsTab() {
		t.Error("the message box takes Tab")
	}

	first := h.ui.conv
	h.ui.win.Canvas().Focus(box)
	box.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault})
	h.until("Ctrl+N in the box to open a new chat", func() bool { return h.ui.conv != "" && h.ui.conv != first })
	h.until("the box to have the focus", func() bool { return h.ui.win.Canvas().Focused() == box })

	box.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyK, Modifier: fyne.KeyModifierShortcutDefault})
	h.until("Ctrl+K in the box to open the quick prompt", func() bool { return h.ui.quick != nil && h.ui.quick.Visible() })
	q := h.ui.quick
	test.Type(q.Entry, "never mind")
	q.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.until("Escape in the quick prompt's box to close it", func() bool { return !q.Visible() })

	// Copy and paste still reach the box.
	box.SetText("keep me")
	box.TypedShortcut(&fyne.ShortcutSelectAll{})
	box.TypedShortcut(&fyne.ShortcutCopy{Clipboard: h.app.Clipboard()})
	if got := h.app.Clipboard().Content(); got != "keep me" {
		t.Errorf("copied %q", got)
	}
}

// A queue of approvals says "1 of N" in the dialog's title.
func TestApprovalQueueTitle(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	deadline := time.Now().Add(time.Minute)
	h.ui.dialogs.Approvals.Set([]*conversation.ApprovalRequested{
		{Conversation: "c1", ID: "a1", Request: approval.Request{Display: "x.one", Tool: "one", Server: "x"}, Deadline: deadline},
		{Conversation: "c2", ID: "a2", Request: approval.Request{Display: "y.two", Tool: "two", Server: "y"}, Deadline: deadline},
	})
	if got := h.ui.dialogs.Approvals.Title; got != "Allow this tool call? (1 of 2)" {
		t.Errorf("title = %q", got)
	}
}

// A code block's Copy button copies the code and says "Copied" for a
// moment.
func TestCopyButtonSaysCopied(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Here:\n\n```sh\necho copied\n```\n")}}})
	h.ui.chat.CopiedFor = 200 * time.Millisecond
	h.say("code please")
	h.until("the code block", func() bool { return h.button(h.ui.win, "Copy") != nil })
	b := h.button(h.ui.win, "Copy")
	test.Tap(b)
	if got := h.app.Clipboard().Content(); got != "echo copied" {
		t.Errorf("clipboard = %q", got)
	}
	if b.Text != "Copied" {
		t.Errorf("button says %q after copying", b.Text)
	}
	h.until("the button to say Copy again", func() bool { return b.Text == "Copy" })
}
