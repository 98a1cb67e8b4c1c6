package dialogs

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/gui/guitest"
)

// behindView is the main window behind a tool's view (another process's
// window, in front): Deckhand is not in front until ShowMain brings it.
type behindView struct {
	testHost
	front *bool
}

func (h behindView) Front() fyne.Window {
	if *h.front {
		return h.Win
	}
	return nil
}

func (h behindView) ShowMain() { *h.front = true; h.Host.ShowMain() }

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
	d := New(behindView{testHost{u}, &front}, nil)
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
