package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/gui/dialogs"
)

// Approvals and servers' questions share one queue: one dialog at a time,
// in the order they came, whatever their kind; the next opens as soon as
// the one before is answered (no polling), and "1 of N" counts both.
func TestModalQueueOneAtATimeInArrivalOrder(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	deadline := time.Now().Add(time.Minute)
	q1 := &dialogs.Question{Req: &servers.ElicitationRequested{ID: "q1", Server: "s", Mode: "url", URL: "https://example.com/a", Host: "example.com", Deadline: deadline}}
	var answers []approval.Answer // a1's, given by the dialog itself
	a1 := &conversation.ApprovalRequested{Conversation: "c1", ID: "a1", Request: approval.Request{Display: "x.one", Tool: "one", Server: "x"}, Deadline: deadline,
		Reply: func(ans approval.Answer, _ approval.Reason) error { answers = append(answers, ans); return nil }}
	q2 := &dialogs.Question{Req: &servers.ElicitationRequested{ID: "q2", Server: "s", Mode: "url", URL: "https://example.com/b", Host: "example.com", Deadline: deadline}}

	e := h.ui.dialogs.Questions
	e.Add(q1)
	h.ui.dialogs.Approvals.Set([]*conversation.ApprovalRequested{a1})
	e.Add(q2)
	overlays := func() int { return len(h.ui.win.Canvas().Overlays().List()) }
	if e.Shown() != q1 || h.ui.dialogs.Approvals.Shown() != nil || overlays() != 1 {
		t.Fatalf("first: question %v, approval %v, %d overlays; want the first question alone", e.Shown(), h.ui.dialogs.Approvals.Shown(), overlays())
	}
	if !h.shows(h.ui.win, "2 more waiting.") {
		t.Errorf("the first dialog does not count both kinds waiting:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	test.Tap(e.Buttons[servers.ElicitDecline])
	// At once, not after a poll.
	if h.ui.dialogs.Approvals.Shown() != a1 || e.Shown() != nil || overlays() != 1 {
		t.Fatalf("second: question %v, approval %v, %d overlays; want the approval alone, at once", e.Shown(), h.ui.dialogs.Approvals.Shown(), overlays())
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.Deny])
	if len(answers) != 1 || answers[0] != approval.Deny {
		t.Errorf("the approval got %v, want one deny", answers)
	}
	if e.Shown() != q2 || h.ui.dialogs.Approvals.Shown() != nil || overlays() != 1 {
		t.Fatalf("third: question %v, approval %v, %d overlays; want the second question alone, at once", e.Shown(), h.ui.dialogs.Approvals.Shown(), overlays())
	}
	test.Tap(e.Buttons[servers.ElicitDecline])
	if overlays() != 0 {
		t.Errorf("%d overlays left after all were answered", overlays())
	}
}

// Typing straight on after Escape closed a dialog goes into the message
// box, first letter included, although the focus is given back a moment
// later (behind the events in hand); the Space that pressed a dialog's
// button is not typed.
func TestTypingOnAfterADialogCloses(t *testing.T) {
	h := approvalHarness(t, nil)
	h.say("echo hi")
	h.until("the approval dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	c := h.ui.win.Canvas()
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.until("the dialog closed", func() bool { return h.ui.dialogs.Approvals.Shown() == nil })
	if c.Focused() != nil {
		t.Skip("the focus came back before the typing: nothing to show here")
	}
	test.TypeOnCanvas(c, " next")
	h.until("the typing in the message box", func() bool { return h.ui.input.Text == "next" })
	if c.Focused() != h.ui.input {
		t.Errorf("the focus is on %v, want the message box", c.Focused())
	}
}
