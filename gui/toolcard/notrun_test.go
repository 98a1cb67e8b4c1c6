package toolcard

import (
	"strings"
	"testing"
	"time"

	"deckhand/approval"
	"deckhand/toolcall"
	"deckhand/transcript"
)

// Every way a call can end without running shows on its card in words,
// never as a duration: "failed after <1 ms" said a call cancelled while
// it waited for approval had run and failed. A call that ran says how
// long it took.
func TestToolCardSaysWhyACallNeverRan(t *testing.T) {
	tests := []struct {
		name    string
		asked   bool
		closed  approval.Reason // how the approval ended ("": answered)
		started bool
		output  string
		isError bool
		denied  bool
		want    string // the card's state
	}{
		{name: "stopped while asked", asked: true, closed: "the run was stopped", output: toolcall.CancelledText, isError: true,
			want: "not run: the run was stopped before it was approved"},
		{name: "stopped while another call was asked", output: toolcall.CancelledText, isError: true,
			want: "not run: the run was stopped before it started"},
		{name: "denied", asked: true, closed: approval.Answered, output: toolcall.DeniedText, denied: true,
			want: "not run: denied"},
		{name: "timed out", asked: true, closed: approval.TimedOut(time.Minute), output: toolcall.DeniedBecause("no answer within 1m0s"), denied: true,
			want: "not run: no answer came in time (no answer within 1m0s)"},
		{name: "refused by the policy", output: transcript.PolicyRefused + ": writes /etc/x, outside the write roots", isError: true,
			want: "refused by policy (not run)"},
		{name: "its server gone (unknown tool)", output: `unknown tool "gone.echo": no server named "gone"`, isError: true,
			want: "not run: Deckhand refused it (see why below)"},
		{name: "depth limit", output: toolcall.DepthText, isError: true,
			want: "not run: the run reached its tool-call depth limit"},
		{name: "ran and failed", started: true, output: "boom", isError: true, want: "failed after 5 ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.tr.StartRun("r1")
			h.tr.ToolRequested("c1", "t.echo", []byte(`{"text":"hi"}`))
			if tt.asked {
				h.tr.ToolAsked("c1")
				h.tr.ToolQuestionClosed("c1", tt.closed)
			}
			if tt.started {
				h.tr.ToolStarted("c1", "t.echo", nil)
			}
			h.tr.ToolFinished("c1", "t.echo", nil, tt.output, tt.isError, tt.denied, 5*time.Millisecond)
			h.frame()
			c := h.card("t.echo")
			if got := c.State.Text; got != tt.want {
				t.Errorf("the card's state = %q, want %q", got, tt.want)
			}
			if !tt.started && (strings.Contains(c.State.Text, " ms") || strings.Contains(c.State.Text, "after")) {
				t.Errorf("the card of a call that never ran gives a duration: %q", c.State.Text)
			}
			if !c.Out.Visible() || !strings.Contains(c.Out.String(), tt.output) {
				t.Errorf("the card does not show what the model was told (%q): visible %v, %q", tt.output, c.Out.Visible(), c.Out.String())
			}
		})
	}
}
