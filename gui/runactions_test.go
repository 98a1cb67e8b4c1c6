package gui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"deckhand/store"
	"deckhand/testutil"
	"deckhand/transcript"
)

// userMessages are the person's messages in a model request, in order.
func userMessages(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range req.Messages {
		if m.Role == "user" {
			out = append(out, m.Content)
		}
	}
	return out
}

// headers are the person's message headers on screen.
func (h *harness) userHeaders() []*headerView {
	var out []*headerView
	for _, r := range h.visibleRows() {
		if hv, ok := r.parts[transcript.Header].(*headerView); ok && r.row.Kind == transcript.Header && r.row.Role == "user" {
			out = append(out, hv)
		}
	}
	return out
}

// Retry after a model error runs the message again in its place; Edit puts
// the last message back in the box and takes it out; Delete (after asking)
// takes a message and its answer out; Continue goes on after Stop. The
// model sees what the transcript shows, and the log, read back, agrees.
func TestMessageControls(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Status: 400, Header: map[string]string{"Content-Type": "application/json"}, Body: `{"error":{"message":"model overloaded"}}`},
		{Body: testutil.TextChunks("The first answer.")},
	}})
	h.say("first question")
	h.until("the error with Retry", func() bool { return h.shows(h.ui.win, "model overloaded") && h.button(h.ui.win, "Retry") != nil })
	test.Tap(h.button(h.ui.win, "Retry"))
	h.until("the answer after Retry", func() bool { return h.shows(h.ui.win, "The first answer.") && !h.ui.running })
	if h.shows(h.ui.win, "model overloaded") {
		t.Error("the failed run is still shown after Retry")
	}
	if n := len(h.userHeaders()); n != 1 {
		t.Errorf("%d messages of the person after Retry, want 1", n)
	}
	reqs := h.model.Requests()
	if got := userMessages(t, reqs[len(reqs)-1]); len(got) != 1 || got[0] != "first question" {
		t.Errorf("after Retry the model saw %q", got)
	}

	// Edit the last message.
	h.model.Add(testutil.ModelResponse{Body: testutil.TextChunks("Second answer.")})
	h.say("second qestion")
	h.until("the second answer", func() bool { return h.shows(h.ui.win, "Second answer.") && !h.ui.running })
	// A draft in the box is not thrown away unasked: kept, then replaced.
	h.ui.input.SetText("my draft")
	test.Tap(h.button(h.ui.win, "Edit"))
	h.until("the question about the draft", func() bool { return h.button(h.ui.win, "Keep the draft") != nil })
	test.Tap(h.button(h.ui.win, "Keep the draft"))
	h.until("the draft kept", func() bool { return h.button(h.ui.win, "Keep the draft") == nil })
	if h.ui.input.Text != "my draft" || !h.shows(h.ui.win, "Second answer.") {
		t.Fatalf("after Keep the draft: the box holds %q, the run shown %v", h.ui.input.Text, h.shows(h.ui.win, "Second answer."))
	}
	test.Tap(h.button(h.ui.win, "Edit"))
	h.until("the question about the draft again", func() bool { return h.button(h.ui.win, "Replace") != nil })
	test.Tap(h.button(h.ui.win, "Replace"))
	h.until("the run taken out", func() bool { return !h.shows(h.ui.win, "Second answer.") })
	if h.ui.input.Text != "second qestion" {
		t.Errorf("Edit put %q in the box", h.ui.input.Text)
	}
	h.model.Add(testutil.ModelResponse{Body: testutil.TextChunks("Edited answer.")})
	h.ui.input.SetText("second question")
	h.ui.sendInput()
	h.until("the edited answer", func() bool { return h.shows(h.ui.win, "Edited answer.") && !h.ui.running })
	reqs = h.model.Requests()
	if got := userMessages(t, reqs[len(reqs)-1]); strings.Join(got, "|") != "first question|second question" {
		t.Errorf("after Edit the model saw %q", got)
	}

	// Delete the first message (asked first).
	hs := h.userHeaders()
	if len(hs) != 2 || hs[0].retry.Visible() || !hs[1].retry.Visible() {
		t.Fatalf("headers: %d, Retry on the first %v", len(hs), len(hs) > 0 && hs[0].retry.Visible())
	}
	test.Tap(hs[0].delete)
	h.until("the confirmation", func() bool { return h.button(h.ui.win, "Delete") != nil })
	test.Tap(h.button(h.ui.win, "Delete"))
	h.until("the first run taken out", func() bool { return !h.shows(h.ui.win, "The first answer.") })

	// Stop a slow answer, then Continue.
	slow := make([]string, 200)
	for i := range slow {
		slow[i] = "word "
	}
	h.model.Add(testutil.ModelResponse{Body: testutil.TextChunks(slow...), Pace: 50e6},
		testutil.ModelResponse{Body: testutil.TextChunks("The rest.")})
	h.say("third question")
	h.until("words", func() bool { return h.shows(h.ui.win, "word word") })
	for _, hv := range h.userHeaders() {
		if hv.delete.Visible() || hv.retry.Visible() {
			t.Error("message controls shown while an answer is being written")
		}
	}
	h.ui.tell(&uiStop{})
	h.until("Continue", func() bool { return h.button(h.ui.win, "Continue") != nil && !h.ui.running })
	test.Tap(h.button(h.ui.win, "Continue"))
	h.until("the rest", func() bool { return h.shows(h.ui.win, "The rest.") && !h.ui.running })
	reqs = h.model.Requests()
	last := userMessages(t, reqs[len(reqs)-1])
	if strings.Join(last, "|") != "second question|third question|"+continueText {
		t.Errorf("after Delete and Continue the model saw %q", last)
	}
	if h.button(h.ui.win, "Continue") != nil {
		t.Error("the old Stop still offers Continue")
	}

	// The log, read back, shows what the window shows.
	h.until("the log", func() bool {
		events, _ := h.db.Events(context.Background(), store.Filter{SessionID: h.ui.conv})
		tr := transcript.FromEvents(events)
		var users []string
		for i := range tr.Len() {
			if r := tr.Row(i); r.Kind == transcript.Header && r.Role == "user" {
				users = append(users, r.Text)
			}
		}
		return strings.Join(users, "|") == "second question|third question|"+continueText
	})
}
