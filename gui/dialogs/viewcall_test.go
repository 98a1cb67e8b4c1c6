package dialogs

import (
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/gui/guitest"
)

// behindView is the main window behind a tool's view (another process's
// window, in front): Deckhand is not in front until ShowMain brings it.
type behindView struct {
	testHost
	front *bool
	back  *[]string // the views brought back in front: "conv tool"
}

func (h behindView) Front() fyne.Window {
	if *h.front {
		return h.Win
	}
	return nil
}

func (h behindView) ShowMain() { *h.front = true; h.Host.ShowMain() }

func (h behindView) BackToView(conv, tool string) {
	if h.back != nil {
		*h.back = append(*h.back, conv+" "+tool)
	}
	*h.front = false
}

// A view's tool call asked while the view is in front brings the main
// window, at its approval, in front, as the view's own questions do: the
// person pressed something in the view, and the dialog waited unseen
// behind it (notified only) until the timeout denied it. A call of the
// model's, asked while another program is in front, is not brought
// forward: it is notified.
func TestViewsApprovalComesInFront(t *testing.T) {
	u := guitest.NewHost(t, "approvals")
	u.Win.Resize(fyne.NewSize(900, 700))
	u.Win.Show()
	front := false
	d := New(behindView{testHost{u}, &front, nil}, nil)
	req := func(id, origin string) *conversation.ApprovalRequested {
		return &conversation.ApprovalRequested{Conversation: "c1", Run: "r1", ID: id,
			Request:  approval.Request{ID: id, Server: "app", Tool: "get-time", Display: "app.get-time", Arguments: []byte(`{}`), Origin: origin},
			Deadline: time.Now().Add(time.Hour), Position: 1, Calls: 1,
			Reply: func(approval.Answer, approval.Reason) error { return nil }}
	}
	model := req("ask-model", "")
	d.Approvals.Set([]*conversation.ApprovalRequested{model})
	if front {
		t.Fatal("the model's call, asked with Deckhand behind, brought the main window in front; want it notified")
	}
	d.Approvals.Set(nil)

	view := req("ask-view", conversation.ViewOrigin+"app.get-time")
	d.Approvals.Set([]*conversation.ApprovalRequested{view})
	if !front {
		t.Fatal("the view's call waits behind the view: the main window was not brought in front")
	}
	if d.Approvals.Shown() != view {
		t.Fatalf("the dialog shows %v, want the view's call", d.Approvals.Shown())
	}
}

// Once the person answers the approval of a view's call, whatever the
// answer, the view comes back in front of the main window (which its
// approval brought in front): they go on in the view, which shows the
// call's result. It stayed behind the main window. While another call of
// the same view waits, its dialog is asked first; a model's call brings
// no view back.
func TestViewsApprovalAnsweredBringsViewBack(t *testing.T) {
	for _, ans := range []approval.Answer{approval.AllowOnce, approval.Deny} {
		t.Run(ans.String(), func(t *testing.T) {
			u := guitest.NewHost(t, "approvals")
			u.Win.Resize(fyne.NewSize(900, 700))
			u.Win.Show()
			front := false
			var back []string
			d := New(behindView{testHost{u}, &front, &back}, nil)
			req := func(id, origin string) *conversation.ApprovalRequested {
				return &conversation.ApprovalRequested{Conversation: "c1", Run: "r1", ID: id,
					Request:  approval.Request{ID: id, Server: "app", Tool: "get-time", Display: "app.get-time", Arguments: []byte(`{}`), Origin: origin},
					Deadline: time.Now().Add(time.Hour), Position: 1, Calls: 1,
					Reply: func(approval.Answer, approval.Reason) error { return nil }}
			}
			a := d.Approvals
			answer := func(r *conversation.ApprovalRequested) {
				t.Helper()
				if a.Shown() != r {
					t.Fatalf("the dialog shows %v, want %s", a.Shown(), r.ID)
				}
				test.Tap(a.Buttons[ans])
			}

			// The model's call, asked with the main window in front.
			front = true
			model := req("ask-model", "")
			a.Set([]*conversation.ApprovalRequested{model})
			answer(model)
			a.Set(nil)
			if len(back) > 0 || !front {
				t.Fatalf("the model's call answered brought back %q; want no view", back)
			}

			// Two calls of the view: back after the second's answer only.
			front = false
			view := conversation.ViewOrigin + "app.get-time"
			first, second := req("ask-1", view), req("ask-2", view)
			a.Set([]*conversation.ApprovalRequested{first, second})
			if !front {
				t.Fatal("the view's call waits behind the view: the main window was not brought in front")
			}
			answer(first)
			if len(back) > 0 {
				t.Errorf("the view came back in front of its second call's approval: %q", back)
			}
			a.Set([]*conversation.ApprovalRequested{second})
			answer(second)
			if want := []string{"c1 app.get-time"}; !slices.Equal(back, want) {
				t.Errorf("after the view's last call was answered %v, the views brought back = %q, want %q", ans, back, want)
			}
		})
	}
}
