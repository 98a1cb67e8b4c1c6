package gui

import (
	"testing"
	"time"

	"deckhand/actors/conversation"
	"deckhand/testutil"
)

// A model that goes silent mid-answer is said to beside Stop ("nothing
// from the model for 20 s"), updated as the silence goes on and gone when
// it sends again (new-user pass 13, F6: two minutes of "working…"). The
// silences are the conversation's events, sent here as it sends them
// (transport/llm's TestSilenceIsTold times them, in a synctest bubble):
// no clock in this test.
func TestQuietModelSaidBesideStop(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{
		Body: testutil.TextChunks("The answer begins ", "and then ", "goes on."), Pace: time.Hour,
	}}})
	h.say("a hanging answer")
	h.until("the answer begun", func() bool { return h.ui.running && h.shows(h.ui.win, "The answer begins") })
	if q := h.ui.comp.Quiet(); q != "" {
		t.Errorf("before any silence, beside Stop: %q", q)
	}
	silent := func(d time.Duration) {
		h.sys.Root.Send(h.ui.bridge, &conversation.ModelSilent{Conversation: h.ui.conv, For: d})
	}
	silent(20 * time.Second)
	h.until("the silence said", func() bool { return h.ui.comp.Quiet() == "nothing from the model for 20 s" })
	if !h.shows(h.ui.win, "nothing from the model for 20 s") {
		t.Errorf("the note is not on screen")
	}
	silent(30 * time.Second)
	h.until("the silence updated", func() bool { return h.ui.comp.Quiet() == "nothing from the model for 30 s" })
	silent(0)
	h.until("the note gone", func() bool { return h.ui.comp.Quiet() == "" })
	// Stop during a silence: the note goes with the run.
	silent(25 * time.Second)
	h.until("the silence said again", func() bool { return h.ui.comp.Quiet() == "nothing from the model for 25 s" })
	h.tap(h.ui.win, "Stop")
	h.until("the run stopped", func() bool { return !h.ui.running })
	h.until("the note gone with the run", func() bool { return h.ui.comp.Quiet() == "" })
}
