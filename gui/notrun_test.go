package gui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"deckhand/config"
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

// The chat's note of an approval closed unanswered says what became of
// the call: after Stop it was not run (no one denied it; the note said
// "the call was denied"), after the timeout it was denied, as the gate
// says.
func TestApprovalClosedNote(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		stop    bool
		want    string
	}{
		{name: "stopped", stop: true, want: "Approval closed: the run was stopped; the call was not run."},
		{name: "timed out", timeout: 1500 * time.Millisecond, want: "Approval closed: no answer within 1.5s; the call was denied."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := approvalHarness(t, func(c *config.Config) {
				if tt.timeout > 0 {
					c.MCP.ApprovalTimeout = tt.timeout
				}
			})
			h.say("echo hi")
			h.until("the dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
			if tt.stop {
				test.Tap(h.ui.stop)
			}
			var note string
			h.until("the note of the closed approval", func() bool {
				for _, s := range h.texts(h.ui.win) {
					if strings.Contains(s, "Approval closed") {
						note = s
						return true
					}
				}
				return false
			})
			if !strings.Contains(note, tt.want) {
				t.Errorf("the note says %q, want %q", note, tt.want)
			}
		})
	}
}

// An approval notified while Deckhand was behind, and not answered in
// time, is not just withdrawn: a notification says the call was denied
// (new-user pass 8: the question vanished from the notifications, and
// only the chat said what became of it). One answered is withdrawn.
func TestApprovalTimedOutIsNotified(t *testing.T) {
	h := approvalHarness(t, func(c *config.Config) { c.MCP.ApprovalTimeout = 300 * time.Millisecond })
	h.ui.foreground = false // another window is in front
	h.say("echo hi")
	h.until("the approval notified", func() bool { live, _ := h.notes.shown(); return len(live) == 1 })
	h.until("the denied card", func() bool {
		c := h.card("t.echo")
		return c != nil && c.Row.State == transcript.Denied
	})
	h.until("the notification that says so", func() bool {
		live, _ := h.notes.shown()
		return len(live) == 1 && live[0].Title != "Deckhand: Allow t.echo?"
	})
	live, all := h.notes.shown()
	if n := live[0]; n.Title != "Deckhand denied t.echo" || !strings.Contains(n.Body, "denied") || len(n.Actions) != 0 {
		t.Errorf("after the timeout the notification says %q: %q (actions %v)", n.Title, n.Body, n.Actions)
	}
	if len(all) != 2 {
		t.Errorf("%d notifications sent, want the question and the denial", len(all))
	}
}
