package gui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/gui/dialogs/form"
	"deckhand/store"
	"deckhand/tools"
	"deckhand/transcript"
)

// A tool run by hand from its page: the form is built from the input
// schema, a value the schema refuses is named there before anything is
// sent, and the call then goes through the gate (asked, as add is not
// allowed by any rule) and ends as a tool card in a chat of its own,
// logged as run by the person. No model is asked.
func TestServersToolRunByHand(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true})
	h.until("t's tools", func() bool { return h.ui.catalog != nil && hasTool(h, "t.add") })
	h.ui.showServers()
	sw := h.ui.serversW
	sw.ShowTools("t")
	tw := sw.Tools
	h.until("the listing", func() bool { return tw.Loaded && len(tw.List) > 0 })
	i := slices.IndexFunc(tw.List, func(x tools.Tool) bool { return x.Name == "add" })
	if i < 0 {
		t.Fatal("the page does not list add")
	}
	tw.ToolList.Select(i)
	test.Tap(tw.RunButton)
	rf := tw.Run
	if rf == nil || rf.Form == nil {
		t.Fatalf("Run opened no form for add; the window shows:\n%s", strings.Join(h.texts(tw.Win), "\n"))
	}
	field := func(name string) *form.Field {
		for _, x := range rf.Form.Fields() {
			if x.Field.Name == name {
				return x
			}
		}
		t.Fatalf("the form has no field %q", name)
		return nil
	}
	a, b := field("a"), field("b")
	if a.Entry == nil || b.Entry == nil || !a.Field.Required {
		t.Fatalf("add's numbers are not required entries: a %+v", a.Field)
	}

	// A value the schema refuses: named in the form, nothing sent.
	test.Type(a.Entry, "three")
	test.Type(b.Entry, "4")
	h.tap(tw.Win, "Run")
	if !rf.Problem.Visible() || !strings.HasPrefix(rf.Problem.Text, "a:") {
		t.Errorf("the refused value is not named in the form: problem %q (shown %v)", rf.Problem.Text, rf.Problem.Visible())
	}
	if rf.Sent || h.ui.dialogs.Approvals.Shown() != nil {
		t.Fatal("a call was sent with a value the schema refuses")
	}

	a.Entry.EntryWidget().SetText("3")
	h.tap(tw.Win, "Run")
	if !rf.Sent {
		t.Fatalf("the form was not sent: problem %q", rf.Problem.Text)
	}
	h.until("the approval", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	if p := h.ui.panel; p != nil {
		t.Errorf("Run left the window on the panel %q, not on the chat it made", p.title)
	}
	if !h.shows(h.ui.win, "t.add") || !h.shows(h.ui.win, "not by the model") {
		t.Errorf("the approval does not name t.add, run by the person:\n%s", strings.Join(h.texts(h.ui.win), "\n"))
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])
	h.until("the result as a tool card", func() bool {
		c := h.card("t.add")
		return c != nil && c.Row.State == transcript.Succeeded && strings.Contains(c.Row.Output, "7")
	})
	h.until("the run's end", func() bool { return !h.ui.running })
	if n := len(h.model.Requests()); n != 0 {
		t.Errorf("the model was asked %d times for a run by hand", n)
	}

	// The log: one session holding the call, invoked and succeeded, run by
	// the person.
	ctx, cancel := context.WithTimeout(context.Background(), 10e9)
	defer cancel()
	if err := h.sys.SyncLog(ctx); err != nil {
		t.Fatal(err)
	}
	events, err := h.db.Events(ctx, store.Filter{SessionID: h.ui.conv})
	if err != nil {
		t.Fatal(err)
	}
	origins := map[string]bool{}
	for _, e := range events {
		if (e.Kind == store.KindToolInvoked || e.Kind == store.KindToolSucceeded) && strings.Contains(string(e.Data), conversation.ByHandOrigin) {
			origins[e.Kind] = true
		}
	}
	if !origins[store.KindToolInvoked] || !origins[store.KindToolSucceeded] {
		t.Errorf("the log does not say the call was run by the person: %v", origins)
	}
}
