package actors

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/approval"
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

// A grant given or revoked by another Deckhand process sharing the log
// counts from this process's next run start: the store actor reads the
// grants again then (before it writes the run's first rows). Nothing polls
// the log in between.
func TestGrantsOfAnotherProcessCountAtRunStart(t *testing.T) {
	db := openLog(t)
	model := testutil.NewModelServer(t,
		answer("ok"),
		calls(testutil.ToolCallSpec{ID: "a", Name: "mem__add", Arguments: `{"a":1,"b":1}`}), answer("2"),
		answer("ok"),
		calls(testutil.ToolCallSpec{ID: "b", Name: "mem__add", Arguments: `{"a":2,"b":2}`}), answer("denied"),
	)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")})
	always := c.sys.always

	// Another process grants mem.add: it counts from the next run start.
	if err := db.Write(t.Context(), &store.Batch{Grants: []store.Grant{{ID: "g-other", Tool: "mem.add", Scope: "always", By: "user", Time: time.Now()}}}); err != nil {
		t.Fatal(err)
	}
	if always.Allowed("mem.add") {
		t.Fatal("a grant of another process counted before a run started")
	}
	c.send("hello")
	expect[*conversation.RunFinished](c)
	syncLog(t, c) // the run's rows are written after the grants were read
	if !always.Allowed("mem.add") {
		t.Fatal("a grant of another process does not count after a run start")
	}
	c.send("add")
	if d := expect[*conversation.ApprovalDecided](c); !d.Allowed || d.By != "always allowed" {
		t.Errorf("with the other process's grant: %+v", d)
	}
	expect[*conversation.RunFinished](c)

	// Another process revokes it: asked again from the next run start.
	if _, err := db.RevokeGrant(t.Context(), "mem.add"); err != nil {
		t.Fatal(err)
	}
	c.send("hello again")
	expect[*conversation.RunFinished](c)
	syncLog(t, c)
	if always.Allowed("mem.add") {
		t.Fatal("a grant revoked by another process still counts after a run start")
	}
	c.send("add again")
	req := expect[*conversation.ApprovalRequested](c)
	c.answer(req, approval.Deny)
	expect[*conversation.RunFinished](c)
}
