package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"deckhand/actors/conversation"
	"deckhand/testutil"
	"deckhand/transport/llm"
)

// TestDroppedAnswerOffersContinue: the model server drops the connection
// in the middle of an answer. What came is kept, and the failure offers
// Continue beside Retry, as a stopped answer does; Continue goes on with
// the answer in place. It offered Retry only (new-user report 5, problem
// 10), so the cut answer could only be asked again from its start.
func TestDroppedAnswerOffersContinue(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{
		{Cut: true, Body: "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"The first half\"}}]}\n\n"},
		{Body: testutil.TextChunks(", and the second.")},
	}})
	h.say("tell me")
	h.until("the failure", func() bool {
		return h.shows(h.ui.win, llm.ErrDropped.Error()) && !h.ui.running
	})
	if !h.shows(h.ui.win, "The first half") {
		t.Fatal("the text that came before the drop is not shown")
	}
	if h.button(h.ui.win, "Retry") == nil {
		t.Error("the dropped answer offers no Retry")
	}
	cont := h.button(h.ui.win, "Continue")
	if cont == nil {
		t.Fatal("the dropped answer offers no Continue: only Retry")
	}
	test.Tap(cont)
	h.until("the rest", func() bool { return h.shows(h.ui.win, "and the second.") && !h.ui.running })
	if _, answer := h.shown(); !strings.Contains(answer, "The first half, and the second.") {
		t.Errorf("the dropped answer was not continued in place: %q", answer)
	}
	reqs := h.model.Requests()
	if got := userMessages(t, reqs[len(reqs)-1]); strings.Join(got, "|") != "tell me|"+conversation.ContinueText {
		t.Errorf("Continue asked the model with %q", got)
	}
}
