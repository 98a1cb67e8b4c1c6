package actors

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"deckhand/actors/conversation"
	"deckhand/store"
	"deckhand/testutil"
)

// users are the person's messages of a model request.
func users(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var req struct {
		Messages []struct{ Role, Content string } `json:"messages"`
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
	return strings.Join(out, "|")
}

// A run taken out (RemoveRun) is no longer sent to the model, in a live
// conversation and in one resumed from the log; Resend runs the message
// again in its place; while a run is in progress nothing is taken out.
func TestRemoveRun(t *testing.T) {
	model := testutil.NewModelServer(t, answer("a1"), answer("a2"), answer("a2 again"), answer("a3"), answer("a4"))
	db := openLog(t)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, nil)
	c.send("q1")
	expect[*conversation.RunFinished](c)
	c.send("q2")
	r2 := expect[*conversation.RunStarted](c).Run
	expect[*conversation.RunFinished](c)
	// Retry makes a new version of q2: the first one is kept aside.
	c.sys.Root.Send(c.conv, &conversation.RemoveRun{Resend: true})
	expect[*conversation.RunFinished](c)
	var chosen *conversation.VersionChosen
	for _, m := range c.seen {
		if v, ok := m.(*conversation.VersionChosen); ok {
			chosen = v
		}
	}
	if chosen == nil || !slices.ContainsFunc(slices.Collect(maps.Values(chosen.Versions)), func(v []string) bool { return slices.Contains(v, r2) }) {
		t.Fatalf("versions %+v, want run %s kept as one", chosen, r2)
	}
	if got := users(t, model.Requests()[2]); got != "q1|q2" {
		t.Errorf("Retry sent %q", got)
	}
	first := ""
	for _, m := range c.seen {
		if s, ok := m.(*conversation.RunStarted); ok && s.Text == "q1" {
			first = s.Run
		}
	}
	c.sys.Root.Send(c.conv, &conversation.RemoveRun{Run: first})
	expect[*conversation.RunRemoved](c)
	c.send("q3")
	expect[*conversation.RunFinished](c)
	if got := users(t, model.Requests()[3]); got != "q2|q3" {
		t.Errorf("after deleting q1 the model saw %q", got)
	}

	// Read back from the log, the conversation has what was left, and its
	// runs can still be taken out.
	syncLog(t, c)
	var session string
	for _, m := range c.seen {
		if s, ok := m.(*conversation.RunStarted); ok {
			session = s.Conversation
		}
	}
	events, err := db.Events(context.Background(), store.Filter{SessionID: session})
	if err != nil {
		t.Fatal(err)
	}
	opts := conversation.Rebuild(events)
	if len(opts.Runs) != 2 || opts.Runs[0].Text != "q2" || opts.Runs[1].Text != "q3" {
		t.Fatalf("rebuilt runs %+v", opts.Runs)
	}
}
