package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/approval"
	"deckhand/testutil"
	"deckhand/transcript"
)

// askInQuick opens the quick prompt and asks text in it; the model calls
// t.echo, then answers "Echoed.". It waits for the approval's dialog on
// the quick prompt.
func askInQuick(t *testing.T, o harnessOptions, text string) *harness {
	t.Helper()
	o.fallback = toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}, "Echoed.")
	h := newHarness(t, o)
	h.ui.showQuick()
	q := h.ui.quick
	h.quickSay(text)
	h.until("the approval on the quick prompt", func() bool {
		return h.ui.dialogs.Approvals.Shown() != nil && h.ui.dialogs.Parent() == q.Window()
	})
	return h
}

// dialogsOpen counts the windows with a dialog open over them, and says
// whether the one open is on want (and only there).
func (h *harness) dialogOnlyOn(want fyne.Window) bool {
	n := 0
	for _, w := range []fyne.Window{h.ui.win, h.ui.quick.Window()} {
		if w.Canvas().Overlays().Top() != nil {
			n++
			if w != want {
				return false
			}
		}
	}
	return n == 1
}

// openInMain opens the chat titled title from the main window's sidebar.
func (h *harness) openInMain(title string) {
	h.t.Helper()
	h.until("the chat "+title+" in the sidebar", func() bool {
		for i, it := range h.ui.side.Items {
			if it.Title == title {
				h.ui.side.List.Select(i)
				return true
			}
		}
		return false
	})
}

// The quick prompt's approval can be answered from the main window: once
// the person opens its chat there, the dialog comes along (closed on the
// quick prompt, open on the main window); the quick prompt brought up
// again from the tray takes it back; and the waiting card's Approve or deny…
// brings it to the main window again. Allowed there, the call runs, the
// quick prompt shows its result, and the notification sent while the
// person was away is withdrawn. The main window showed the card "waiting
// for approval" with no way to answer.
func TestQuickApprovalFollowsToMainWindow(t *testing.T) {
	h := askInQuick(t, harnessOptions{log: true}, "a quick question")
	q := h.ui.quick
	// The person goes to the main window: Fyne says the app left the
	// front (the focus went from one window to the other), and the
	// approval is notified.
	h.ui.foreground = false
	h.ui.dialogs.Away()
	h.ui.foreground = true
	h.until("the approval notified", func() bool { live, _ := h.notes.shown(); return len(live) == 1 })

	h.openInMain("a quick question")
	h.until("the dialog on the main window, and only there", func() bool {
		return h.ui.conv == h.ui.quickID && h.dialogOnlyOn(h.ui.win) && h.ui.dialogs.Approvals.Shown() != nil
	})
	h.until("the quick prompt's box focused again once its dialog left", func() bool {
		return q.Window().Canvas().Focused() == q.Entry
	})

	// Back to the quick prompt from the tray: the dialog goes with it.
	h.ui.showQuick()
	if !h.dialogOnlyOn(q.Window()) {
		t.Fatalf("the dialog did not follow to the quick prompt brought up again")
	}

	// The card in the main window brings it back.
	var card = h.card("t.echo")
	h.until("the waiting card", func() bool { card = h.card("t.echo"); return card != nil })
	answer := card.Tool().Answer
	if !answer.Visible() || card.Row.State != transcript.Asked {
		t.Fatalf("the waiting card (state %v) shows no Approve or deny… (visible %v)", card.Row.State, answer.Visible())
	}
	test.Tap(answer)
	if !h.dialogOnlyOn(h.ui.win) {
		t.Fatalf("Approve or deny… on the card did not bring the dialog to the main window")
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])
	h.until("the call run and the answer in the quick prompt", func() bool {
		return q.Answer.String() == "Echoed." && len(q.Lines()) == 1 && strings.HasPrefix(q.Lines()[0], "echo | t · done in ")
	})
	if h.ui.win.Canvas().Overlays().Top() != nil || q.Window().Canvas().Overlays().Top() != nil {
		t.Errorf("a dialog is still open after the answer")
	}
	h.until("the notification withdrawn", func() bool { live, _ := h.notes.shown(); return len(live) == 0 })
	if c := h.card("t.echo"); c == nil || c.Tool().Answer.Visible() {
		t.Errorf("the finished card still offers Approve or deny…")
	}
}

// The quick prompt's line of a waiting call offers Approve or deny… too: the
// dialog taken to the main window comes back to the quick prompt from it.
func TestQuickApprovalFromItsLine(t *testing.T) {
	h := askInQuick(t, harnessOptions{log: true}, "a quick question")
	q := h.ui.quick
	h.openInMain("a quick question")
	h.until("the dialog on the main window", func() bool { return h.dialogOnlyOn(h.ui.win) })
	answer := q.AnswerButton(0)
	if answer == nil || !answer.Visible() {
		t.Fatalf("the waiting call's line offers no Approve or deny…")
	}
	test.Tap(answer)
	if !h.dialogOnlyOn(q.Window()) {
		t.Fatalf("Approve or deny… on the quick prompt's line did not bring the dialog there")
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.Deny])
	h.until("the call denied", func() bool {
		l := q.Lines()
		return len(l) == 1 && strings.HasPrefix(l[0], "echo | t · not run: denied")
	})
	if q.AnswerButton(0).Visible() {
		t.Errorf("the denied call's line still offers Approve or deny…")
	}
}

// The reverse: a call of the main window's chat asks while the person is
// at the quick prompt. Its dialog opens on the main window, behind, and
// so it is notified (it waited unseen until it timed out); the
// notification's body brings the main window to the front, at it.
func TestMainApprovalWhileAtQuickPrompt(t *testing.T) {
	h := newHarness(t, harnessOptions{
		fallback: toolThenText(testutil.ToolCallSpec{ID: "m1", Name: "t__echo", Arguments: `{"text": "main"}`}, "Echoed.")})
	h.ui.showQuick()
	h.ui.tell(&uiComposerSend{text: "from the main window"})
	h.until("the approval", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	if !h.dialogOnlyOn(h.ui.win) {
		t.Errorf("the main window's approval is not on the main window")
	}
	var live []string
	h.until("the approval notified", func() bool {
		l, _ := h.notes.shown()
		live = nil
		for _, n := range l {
			live = append(live, n.Title)
		}
		return len(l) == 1
	})
	if live[0] != "Deckhand: Allow t.echo?" {
		t.Errorf("notified %q", live)
	}
	r := h.ui.dialogs.Approvals.Shown()
	h.ui.dialogs.Approvals.FromNotification(r.ID, r.Conversation, "default", false)
	if h.ui.atQuick || !h.dialogOnlyOn(h.ui.win) {
		t.Errorf("the notification's body did not bring the person to the main window's dialog (at the quick prompt: %v)", h.ui.atQuick)
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Echoed.") })
	h.until("the notification withdrawn", func() bool { live, _ := h.notes.shown(); return len(live) == 0 })
}

// At the quick prompt with the main window closed to the tray, the quick
// prompt's own approval is not notified: the person is looking at it.
func TestQuickApprovalNotNotifiedWhileAtIt(t *testing.T) {
	h := newHarness(t, harnessOptions{
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}, "Echoed.")})
	h.ui.SetTrayHost(true)
	h.ui.closeMain()
	h.ui.showQuick()
	q := h.ui.quick
	h.quickSay("a quick question")
	h.until("the approval on the quick prompt", func() bool { return h.ui.dialogs.Parent() == q.Window() && h.dialogOnlyOn(q.Window()) })
	if _, all := h.notes.shown(); len(all) != 0 {
		t.Errorf("the approval in front of the person was notified: %q", all[0].Title)
	}
	if !h.ui.hidden {
		t.Errorf("the main window came out of the tray for the quick prompt's approval")
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])
	h.until("the answer", func() bool { return q.Answer.String() == "Echoed." })
}

// The quick prompt closed while its approval shows (its window's close
// button) leaves no dialog on a hidden window, answerable from nowhere: it
// moves to the main window, brought back from the tray.
func TestQuickApprovalMovesWhenQuickPromptCloses(t *testing.T) {
	h := newHarness(t, harnessOptions{
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}, "Echoed.")})
	h.ui.SetTrayHost(true)
	h.ui.closeMain()
	h.ui.showQuick()
	q := h.ui.quick
	h.quickSay("a quick question")
	h.until("the approval on the quick prompt", func() bool { return h.dialogOnlyOn(q.Window()) })
	// As the window's close button does (Fyne's test driver does not call
	// a window's close intercept).
	q.Entry.OnEscape()
	if q.Visible() {
		t.Fatal("the quick prompt did not close")
	}
	if !h.dialogOnlyOn(h.ui.win) || h.ui.hidden {
		t.Fatalf("the dialog did not move to the main window brought back (hidden %v)", h.ui.hidden)
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])
	h.until("the call run", func() bool { return q.Answer.String() == "Echoed." })
}
