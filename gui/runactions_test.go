package gui

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/gui/chat"
	"deckhand/gui/widgets"
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
func (h *harness) userHeaders() []*chat.HeaderView {
	var out []*chat.HeaderView
	for _, r := range h.visibleRows() {
		if hv, ok := r.Parts[transcript.Header].(*chat.HeaderView); ok && r.Row.Kind == transcript.Header && r.Row.Role == "user" {
			out = append(out, hv)
		}
	}
	return out
}

// focusedEntry is the entry the keyboard is in, or nil.
func (h *harness) focusedEntry() *widget.Entry {
	switch e := h.ui.win.Canvas().Focused().(type) {
	case *widget.Entry:
		return e
	case *widgets.MessageEntry:
		return &e.Entry
	}
	return nil
}

// userTexts are the person's messages the transcript shows.
func userTexts(tr *transcript.Transcript) string {
	var users []string
	for i := range tr.Len() {
		if r := tr.Row(i); r.Kind == transcript.Header && r.Role == "user" {
			users = append(users, r.Text)
		}
	}
	return strings.Join(users, "|")
}

// Retry after a model error asks again as a new version of the message;
// Edit sends the message as edited as another, and ‹ › on the message
// switch between them and their answers, the model seeing only the one
// shown; Delete (after asking) takes a message and its answer out;
// Continue goes on after Stop in the same answer, with no message of the
// person shown. The log, read back, shows what the window shows.
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
		t.Error("the failed version is still shown after Retry")
	}
	if hs := h.userHeaders(); len(hs) != 1 || hs[0].Version.Text != "2/2" || !hs[0].Prev.Visible() {
		t.Errorf("after Retry: %d messages of the person, versions %q", len(hs), hs[0].Version.Text)
	}
	reqs := h.model.Requests()
	if got := userMessages(t, reqs[len(reqs)-1]); len(got) != 1 || got[0] != "first question" {
		t.Errorf("after Retry the model saw %q", got)
	}

	// Edit the last message: a second version, the first kept.
	h.model.Add(testutil.ModelResponse{Body: testutil.TextChunks("Second answer.")})
	h.say("second qestion")
	h.until("the second answer", func() bool { return h.shows(h.ui.win, "Second answer.") && !h.ui.running })
	h.ui.input.SetText("my draft")
	test.Tap(h.userHeaders()[1].Edit)
	h.until("the message to edit", func() bool { e := h.focusedEntry(); return e != nil && e.Text == "second qestion" })
	if h.ui.input.Text != "my draft" {
		t.Errorf("Edit changed the draft in the box to %q", h.ui.input.Text)
	}
	h.model.Add(testutil.ModelResponse{Body: testutil.TextChunks("Edited answer.")})
	h.focusedEntry().SetText("second question")
	test.Tap(h.buttonIn(h.ui.win.Canvas().Overlays().Top(), "Send"))
	h.until("the edited answer", func() bool { return h.shows(h.ui.win, "Edited answer.") && !h.ui.running })
	if h.shows(h.ui.win, "Second answer.") {
		t.Error("the first version's answer still shows beside the edited one")
	}
	reqs = h.model.Requests()
	if got := userMessages(t, reqs[len(reqs)-1]); strings.Join(got, "|") != "first question|second question" {
		t.Errorf("after Edit the model saw %q", got)
	}
	hv := h.userHeaders()[1]
	if hv.Version.Text != "2/2" || hv.Prev.Disabled() || !hv.Next.Disabled() {
		t.Fatalf("the edited message shows %q, ‹ enabled %v, › enabled %v", hv.Version.Text, !hv.Prev.Disabled(), !hv.Next.Disabled())
	}
	// ‹: back to the first version, its answer with it; the model sees it.
	test.Tap(hv.Prev)
	h.until("the first version", func() bool { return h.shows(h.ui.win, "Second answer.") && !h.shows(h.ui.win, "Edited answer.") })
	if got := h.userHeaders()[1].Version.Text; got != "1/2" {
		t.Errorf("after ‹ the message shows %q, want 1/2", got)
	}
	h.model.Add(testutil.ModelResponse{Body: testutil.TextChunks("On the first version.")})
	h.ui.input.SetText("")
	h.say("follow-up")
	h.until("the follow-up's answer", func() bool { return h.shows(h.ui.win, "On the first version.") && !h.ui.running })
	reqs = h.model.Requests()
	if got := userMessages(t, reqs[len(reqs)-1]); strings.Join(got, "|") != "first question|second qestion|follow-up" {
		t.Errorf("on the first version the model saw %q", got)
	}
	// ›: the edited version comes back, without the follow-up (which
	// followed the first version).
	test.Tap(h.userHeaders()[1].Next)
	h.until("the edited version again", func() bool {
		return h.shows(h.ui.win, "Edited answer.") && !h.shows(h.ui.win, "On the first version.")
	})

	// Delete the first message (asked first).
	hs := h.userHeaders()
	if len(hs) != 2 || hs[0].Retry.Visible() || !hs[1].Retry.Visible() {
		t.Fatalf("headers: %d, Retry on the first %v", len(hs), len(hs) > 0 && hs[0].Retry.Visible())
	}
	test.Tap(hs[0].Delete)
	h.until("the confirmation", func() bool { return h.button(h.ui.win, "Delete") != nil })
	test.Tap(h.button(h.ui.win, "Delete"))
	h.until("the first run taken out", func() bool { return !h.shows(h.ui.win, "The first answer.") })

	// Stop a slow answer, then Continue: the answer goes on in place.
	slow := make([]string, 200)
	for i := range slow {
		slow[i] = "word "
	}
	h.model.Add(testutil.ModelResponse{Body: testutil.TextChunks(slow...), Pace: 50e6},
		testutil.ModelResponse{Body: testutil.TextChunks("The rest.")})
	h.say("third question")
	h.until("words", func() bool { return h.shows(h.ui.win, "word word") })
	for _, hv := range h.userHeaders() {
		if hv.Delete.Visible() || hv.Retry.Visible() {
			t.Error("message controls shown while an answer is being written")
		}
	}
	h.ui.tell(&uiStop{})
	h.until("Continue", func() bool { return h.button(h.ui.win, "Continue") != nil && !h.ui.running })
	test.Tap(h.button(h.ui.win, "Continue"))
	h.until("the rest", func() bool { return h.shows(h.ui.win, "The rest.") && !h.ui.running })
	reqs = h.model.Requests()
	last := userMessages(t, reqs[len(reqs)-1])
	if strings.Join(last, "|") != "second question|third question|"+conversation.ContinueText {
		t.Errorf("after Delete and Continue the model saw %q", last)
	}
	if h.shows(h.ui.win, conversation.ContinueText) {
		t.Error("Continue shows a message of the person")
	}
	if h.button(h.ui.win, "Continue") != nil || h.shows(h.ui.win, "Stopped.") {
		t.Error("the old Stop still shows after Continue")
	}
	if hs := h.userHeaders(); len(hs) == 0 || !hs[len(hs)-1].Retry.Visible() || !hs[len(hs)-1].Edit.Visible() {
		t.Error("after Continue the last message offers no Retry and Edit")
	}
	users, answer := h.shown()
	if users != "second question|third question" {
		t.Errorf("after Continue the person's messages are %q", users)
	}
	if !strings.Contains(answer, "word word The rest.") {
		t.Errorf("the stopped answer was not continued in place: %q", answer)
	}

	// The log, read back, shows what the window shows: the versions, and
	// the continued answer.
	h.until("the log", func() bool {
		events, _ := h.db.Events(context.Background(), store.Filter{SessionID: h.ui.conv})
		tr := transcript.FromEvents(events)
		return userTexts(tr) == "second question|third question" && strings.Contains(lastAnswer(tr), "word word The rest.")
	})
}

// lastAnswer is the text of the transcript's last answer.
func lastAnswer(tr *transcript.Transcript) string {
	for i := tr.Len() - 1; i >= 0; i-- {
		if r := tr.Row(i); r.Kind == transcript.Header && r.Role == "assistant" {
			return strings.Join(strings.Fields(r.Text), " ")
		}
	}
	return ""
}

// shown is what the current transcript holds, read in the bridge: the
// person's messages and the last answer.
func (h *harness) shown() (users, answer string) {
	h.t.Helper()
	done := make(chan struct{})
	h.ui.tell(bridgeDo(func(b *bridge, _ actor.Context) {
		if cs := b.convs[b.current]; cs != nil {
			users, answer = userTexts(cs.tr), lastAnswer(cs.tr)
		}
		close(done)
	}))
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		h.t.Fatal("the bridge did not answer")
	}
	return users, answer
}

// An answer's header says, while the pointer rests on it, which model
// wrote the answer, its tokens and its speed; it says nothing otherwise.
func TestAnswerInfoOnHover(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("An ", "answer ", "in ", "parts."), Pace: 40e6},
	}})
	h.say("a question")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "An answer in parts.") && !h.ui.running })
	var answer *chat.HeaderView
	for _, r := range h.visibleRows() {
		if hv, ok := r.Parts[transcript.Header].(*chat.HeaderView); ok && r.Row.Kind == transcript.Header && r.Row.Role == "assistant" {
			answer = hv
		}
	}
	if answer == nil {
		t.Fatal("no answer header on screen")
	}
	if answer.Info.Visible() && answer.Info.Text != "" {
		t.Errorf("the info shows without the pointer on the answer: %q", answer.Info.Text)
	}
	hover := answer.Obj.(*widgets.HoverArea)
	hover.MouseIn(nil)
	if !answer.Info.Visible() || !strings.Contains(answer.Info.Text, "scripted") ||
		!strings.Contains(answer.Info.Text, "out tokens") || !strings.Contains(answer.Info.Text, "tokens/s") {
		t.Errorf("on hover the answer says %q (shown %v), want the model, tokens and speed", answer.Info.Text, answer.Info.Visible())
	}
	hover.MouseOut()
	if answer.Info.Visible() && answer.Info.Text != "" {
		t.Error("the info stays after the pointer left")
	}
}

// The answer after a tool call tells its model and tokens on hover, where
// the pointer is: its header was laid out before its usage came, with the
// info hidden, and the info showed with no size, out of sight.
func TestAnswerInfoOnHoverAfterToolCall(t *testing.T) {
	h := approvalHarness(t, nil)
	allow := approval.AllowOnce
	h.runToEnd("echo please", &allow)
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Echoed.") && !h.ui.running })
	var answer *chat.HeaderView
	for _, r := range h.visibleRows() {
		if hv, ok := r.Parts[transcript.Header].(*chat.HeaderView); ok && r.Row.Kind == transcript.Header && r.Row.Text == "Echoed." {
			answer = hv
		}
	}
	if answer == nil {
		t.Fatal("no answer header on screen")
	}
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(answer.Obj)
	test.MoveMouse(h.ui.win.Canvas(), at.Add(fyne.NewPos(60, answer.Obj.Size().Height/2)))
	// The info's place in the header's line (its parent's).
	info, size, line := answer.Info.Position(), answer.Info.Size(), answer.Obj.Size()
	if !answer.Info.Visible() || !strings.Contains(answer.Info.Text, "out tokens") {
		t.Fatalf("on hover the answer says %q (shown %v), want its model and tokens", answer.Info.Text, answer.Info.Visible())
	}
	if size.Width < 20 || size.Height < 10 || info.X < 100 || info.X+size.Width > line.Width || info.Y+size.Height > line.Height {
		t.Errorf("the info is %v at %v, want it sized, after the name and time, in the header's line (%v)", size, info, line)
	}
	test.MoveMouse(h.ui.win.Canvas(), fyne.NewPos(1, 1))
	if answer.Info.Visible() && answer.Info.Text != "" {
		t.Error("the info stays after the pointer left the header")
	}
}

// answerInfos are the info of the answers' headers in the chat shown.
func (h *harness) answerInfos() []string {
	var out []string
	for _, r := range h.ui.chat.Rows {
		if r.Kind == transcript.Header && r.Role == "assistant" {
			out = append(out, r.Info)
		}
	}
	return out
}

// A chat reopened from the log (after a restart) tells on hover what its
// answers told when they came: the model, the tokens, ~ when Deckhand
// estimated them (the server sent no usage), and the speed.
func TestAnswerInfoOfAReopenedChat(t *testing.T) {
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "scripted",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	noUsage := testutil.SSE(chunk(map[string]any{"role": "assistant", "content": "No usage "}, nil), chunk(map[string]any{"content": "sent."}, "stop"))
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	h := newHarness(t, harnessOptions{dbPath: dbPath, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("With ", "usage."), Pace: 40e6},
		{Body: noUsage, Pace: 40e6},
	}})
	h.say("one")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "With usage.") && !h.ui.running })
	h.say("two")
	h.until("the second answer", func() bool { return h.shows(h.ui.win, "No usage sent.") && !h.ui.running })
	live := h.answerInfos()
	if len(live) != 2 || !strings.Contains(live[1], "~") {
		t.Fatalf("the answers say %q, want two, the second's tokens estimated (~)", live)
	}
	if err := h.sys.SyncLog(t.Context()); err != nil {
		t.Fatal(err)
	}
	h.ui.Stop()

	h2 := newHarness(t, harnessOptions{dbPath: dbPath})
	h2.until("the logged session", func() bool { return len(h2.ui.side.Items) == 1 })
	h2.ui.side.List.Select(0)
	h2.until("the reopened chat", func() bool { return h2.shows(h2.ui.win, "No usage sent.") })
	// The speed is counted from the log's times, rounded to milliseconds:
	// the model and the tokens must match exactly.
	reopened := h2.answerInfos()
	if len(reopened) != len(live) {
		t.Fatalf("the reopened chat's answers say %q, want %q", reopened, live)
	}
	for i := range live {
		l, r := strings.Split(live[i], " · "), strings.Split(reopened[i], " · ")
		if len(r) < 2 || len(l) < 2 || r[0] != l[0] || r[1] != l[1] {
			t.Errorf("answer %d of the reopened chat says %q, want %q", i+1, reopened[i], live[i])
		}
	}
	var hv *chat.HeaderView
	for _, r := range h2.visibleRows() {
		if p, ok := r.Parts[transcript.Header].(*chat.HeaderView); ok && r.Row.Kind == transcript.Header && r.Row.Role == "assistant" {
			hv = p
		}
	}
	if hv == nil {
		t.Fatal("no answer header on screen")
	}
	hv.Obj.(*widgets.HoverArea).MouseIn(nil)
	if !hv.Info.Visible() || hv.Info.Text != reopened[len(reopened)-1] {
		t.Errorf("on hover the reopened answer says %q (shown %v), want %q", hv.Info.Text, hv.Info.Visible(), reopened[len(reopened)-1])
	}
	if size := hv.Info.Size(); size.Width < 20 || size.Height < 10 {
		t.Errorf("on hover the reopened answer's info is %v: not laid out, out of sight", size)
	}
}
