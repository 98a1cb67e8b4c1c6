package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"deckhand/approval"
	"deckhand/testutil"
)

// Two calls in one answer are asked one after the other: the first
// dialog says another follows, the second that it is the last.
func TestTwoCallsInOneAnswerSayWhichIsAsked(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, fallback: func(req map[string]any) testutil.ModelResponse {
		msgs, _ := req["messages"].([]any)
		if last, _ := msgs[len(msgs)-1].(map[string]any); last["role"] == "tool" {
			return testutil.ModelResponse{Body: testutil.TextChunks("Echoed twice.")}
		}
		return testutil.ModelResponse{Body: testutil.ToolCallChunks(
			testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "one"}`},
			testutil.ToolCallSpec{ID: "c2", Name: "t__echo", Arguments: `{"text": "two"}`})}
	}})
	h.say("echo twice")
	a := h.ui.dialogs.Approvals
	h.until("the first dialog", func() bool { r := a.Shown(); return r != nil && r.Request.ID == "c1" })
	if !strings.HasSuffix(a.Title, "(call 1 of 2)") || !h.shows(h.ui.win, "one more comes after this one") {
		t.Errorf("the first call's dialog (%q) does not say another follows:\n%s", a.Title, strings.Join(h.texts(h.ui.win), "\n"))
	}
	test.Tap(a.Buttons[approval.AllowOnce])
	h.until("the second dialog", func() bool { r := a.Shown(); return r != nil && r.Request.ID == "c2" })
	if !strings.HasSuffix(a.Title, "(call 2 of 2)") || !h.shows(h.ui.win, "Call 2 of 2 the model made in this answer, the last.") {
		t.Errorf("the second call's dialog (%q) does not say it is the last:\n%s", a.Title, strings.Join(h.texts(h.ui.win), "\n"))
	}
	test.Tap(a.Buttons[approval.AllowOnce])
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Echoed twice.") })
}
