package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/conversation"
	"deckhand/store"
	"deckhand/testutil"
)

// A conversation opened and left without a message leaves no session in
// the log; the first message creates it, with the model's name on the
// session and on the run.
func TestNoSessionUntilAMessage(t *testing.T) {
	db := openLog(t)
	model := testutil.NewModelServer(t, answer("hi"))
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, nil)
	// A second conversation that is never used.
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if _, _, err := c.sys.StartConversation(ctx, conversation.ConversationOptions{Watchers: []*actor.PID{c.watcher}}); err != nil {
		t.Fatal(err)
	}
	syncLog(t, c)
	if list, _ := db.Sessions(ctx, 0); len(list) != 0 {
		t.Fatalf("sessions before any message: %+v", list)
	}
	c.send("hello")
	expect[*conversation.RunFinished](c)
	syncLog(t, c)
	list, err := db.Sessions(ctx, 0)
	if err != nil || len(list) != 1 {
		t.Fatalf("Sessions() = %+v, %v; want the one that has a message", list, err)
	}
	if list[0].Model != "scripted" || list[0].LastRun != store.RunSucceeded {
		t.Errorf("session = %+v, want model scripted, last run succeeded", list[0])
	}
	runs, _ := db.Runs(ctx, list[0].ID)
	if len(runs) != 1 || runs[0].Model != "scripted" {
		t.Errorf("runs = %+v, want one with model scripted", runs)
	}
	events, _ := db.Events(ctx, store.Filter{SessionID: list[0].ID})
	if k := kindsOf(events); len(k) == 0 || k[0] != store.KindSessionCreated {
		t.Errorf("events = %v, want session.created first", k)
	}
}

// A tool call whose arguments were cut off (not JSON) is still recorded as
// requested, with what the model sent.
func TestUnterminatedArgumentsAreLogged(t *testing.T) {
	db := openLog(t)
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "a", Name: "mem__add", Arguments: `{"a":1,"b":`}),
		answer("sorry"),
	)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")})
	c.send("add")
	expect[*conversation.RunFinished](c)
	syncLog(t, c)
	events, err := db.Events(t.Context(), store.Filter{SessionID: c.conversationID(t)})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range events {
		if e.Kind == store.KindToolRequested {
			d, _ := e.Decode()
			found = d.Call == "a" && strings.Contains(string(e.Data), `{\"a\":1,\"b\":`)
		}
	}
	if !found {
		t.Errorf("no tool.requested event with the cut-off arguments; kinds: %v", kindsOf(events))
	}
}

// A grant revoked by another process stops counting once the store actor
// has read the grants again.
func TestRevokedGrantStopsCounting(t *testing.T) {
	db := openLog(t)
	model := testutil.NewModelServer(t)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, nil)
	always := c.sys.always
	always.Grant("mem.add", "user")
	syncLog(t, c)
	testutil.Eventually(t, wait, func() bool {
		list, _ := db.Grants(t.Context())
		return len(list) == 1
	}, "grant not written")
	if _, err := db.RevokeGrant(context.Background(), "mem.add"); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, wait, func() bool { return !always.Allowed("mem.add") }, "revoked grant still allowed")
}
