package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"deckhand/transcript"
)

// A call whose run is stopped while its approval is asked never ran: its
// card says so, from the run's ApprovalClosed, and gives no duration
// (it said "failed after <1 ms").
func TestCallStoppedWhileAskedSaysItNeverRan(t *testing.T) {
	h := approvalHarness(t, nil)
	h.say("echo hi")
	h.until("the dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	test.Tap(h.ui.stop)
	var state string
	h.until("the card of the stopped call", func() bool {
		c := h.card("t.echo")
		if c == nil || c.Row.State == transcript.Asked {
			return false
		}
		state = c.Tool().State.Text
		return true
	})
	if want := "not run: the run was stopped before it was approved"; state != want {
		t.Errorf("the card says %q, want %q", state, want)
	}
	if strings.Contains(state, "after") {
		t.Errorf("the card gives a duration to a call that never ran: %q", state)
	}
}
