package gui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/gui/appview"
	"deckhand/testutil"
	"deckhand/transcript"
)

// A call cancelled by Stop leaves its card saying so, and the bridge reads
// the card as it stands to a view opening on it (appview.ReadCard): a view
// opened on that card is told tool-cancelled, not the text the model got.
func TestCancelledCardForItsView(t *testing.T) {
	h := newHarness(t, harnessOptions{
		cfg: func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.*": true} },
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__slow", Arguments: `{"ms": 600000, "steps": 1}`},
			"It slept."),
	})
	h.say("take your time")
	h.until("the call to run", func() bool {
		c := h.card("t.slow")
		return c != nil && c.Row.State == transcript.Running
	})
	test.Tap(h.ui.stop)
	var row transcript.Row
	h.until("the call to be stopped", func() bool {
		c := h.card("t.slow")
		row = c.Row
		return row.State == transcript.Failed
	})
	if !row.Cancelled || row.Run == "" {
		t.Fatalf("the stopped call's card: Cancelled %v, Run %q; want cancelled, with its run", row.Cancelled, row.Run)
	}
	reply := make(chan appview.CardRead, 1)
	h.ui.tell(&appview.ReadCard{Conv: h.ui.chat.Conv(), Run: row.Run, Call: row.Call, Reply: reply})
	read := testutil.Receive(t, reply, 10*time.Second, "the bridge's reading of the card")
	if !read.Found || !read.Row.Cancelled || read.Row.Call != "c1" {
		t.Errorf("the bridge read the card as %+v (found %v), want c1, cancelled", read.Row, read.Found)
	}
	reply = make(chan appview.CardRead, 1)
	h.ui.tell(&appview.ReadCard{Conv: h.ui.chat.Conv(), Run: "another run", Call: row.Call, Reply: reply})
	if read := testutil.Receive(t, reply, 10*time.Second, "the bridge's reading of no card"); read.Found {
		t.Errorf("the bridge found the card of c1 in another run: %+v", read.Row)
	}
}
