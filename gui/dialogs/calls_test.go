package dialogs

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/gui/guitest"
)

// testHost is a main window of Fyne's test app, in front, with no quick
// prompt.
type testHost struct{ *guitest.Host }

var _ Host = testHost{}

func (h testHost) QuickWindow() fyne.Window  { return nil }
func (h testHost) QuickConv() string         { return "" }
func (h testHost) Front() fyne.Window        { return h.Win }
func (h testHost) Hidden() bool              { return false }
func (h testHost) ShowMain()                 {}
func (h testHost) ShowQuick()                {}
func (h testHost) BackToView(string, string) {}
func (h testHost) Clipboard() fyne.Clipboard { return h.FyneApp.Clipboard() }

// The calls of one answer are asked one after the other: the first one's
// dialog says that another follows ("call 1 of 2"), and the next says
// it is the last; the count of requests waiting follows the answers.
func TestApprovalSaysMoreCallsFollow(t *testing.T) {
	u := guitest.NewHost(t, "approvals")
	u.Win.Resize(fyne.NewSize(900, 700))
	u.Win.Show()
	d := New(testHost{u}, nil)
	answers := make(chan approval.Answer, 2)
	req := func(id, call string, pos int) *conversation.ApprovalRequested {
		return &conversation.ApprovalRequested{Conversation: "c1", Run: "r1", ID: id,
			Request:  approval.Request{ID: call, Server: "t", Tool: "echo", Display: "t.echo", Arguments: []byte(`{"text":"hi"}`)},
			Deadline: time.Now().Add(time.Hour), Position: pos, Calls: 2,
			Reply: func(ans approval.Answer, _ approval.Reason) error { answers <- ans; return nil }}
	}
	first, second := req("ask-1", "call-1", 1), req("ask-2", "call-2", 2)
	a := d.Approvals
	a.Set([]*conversation.ApprovalRequested{first, second})
	if a.Shown() != first {
		t.Fatalf("the dialog shows %v, want the first call's", a.Shown())
	}
	if want := "(call 1 of 2)"; !strings.HasSuffix(a.Title, want) {
		t.Errorf("the first dialog's title = %q, want it to end %q", a.Title, want)
	}
	if got, want := a.foot.Text, "Call 1 of 2 the model made in this answer: one more comes after this one."; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "1 more waiting.") {
		t.Errorf("the first dialog's foot = %q, want it to begin %q and say 1 more waits", got, want)
	}
	test.Tap(a.Buttons[approval.AllowOnce])
	if got := <-answers; got != approval.AllowOnce {
		t.Fatalf("the first call was answered %v, want Allow once", got)
	}
	a.Set([]*conversation.ApprovalRequested{second}) // the run's ApprovalClosed took the first off
	if a.Shown() != second {
		t.Fatalf("after the answer the dialog shows %v, want the second call's", a.Shown())
	}
	if want := "(call 2 of 2)"; !strings.HasSuffix(a.Title, want) {
		t.Errorf("the second dialog's title = %q, want it to end %q", a.Title, want)
	}
	if got, want := a.foot.Text, "Call 2 of 2 the model made in this answer, the last."; !strings.HasPrefix(got, want) || strings.Contains(got, "waiting") {
		t.Errorf("the second dialog's foot = %q, want it to begin %q and say none waits", got, want)
	}
}

// A call alone in its answer says nothing of other calls.
func TestCallsOf(t *testing.T) {
	tests := []struct {
		name           string
		position, call int
		want           string
	}{
		{"alone", 1, 1, ""},
		{"a view's", 0, 0, ""},
		{"first of three", 1, 3, "Call 1 of 3 the model made in this answer: 2 more come after this one."},
		{"second of three", 2, 3, "Call 2 of 3 the model made in this answer: one more comes after this one."},
		{"last", 3, 3, "Call 3 of 3 the model made in this answer, the last."},
		{"out of range", 4, 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &conversation.ApprovalRequested{Position: tt.position, Calls: tt.call}
			if got := callsOf(r); got != tt.want {
				t.Errorf("callsOf(%d of %d) = %q, want %q", tt.position, tt.call, got, tt.want)
			}
		})
	}
}
