package appview

import (
	"encoding/json"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/go-cmp/cmp"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/actors/writer"
	"deckhand/apps"
	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/transcript"
	"deckhand/transport/llm"
)

// A view opened on the card of a call the person stopped, in a chat
// reopened from the log (a real SQLite file, written by the store actor),
// is told tool-cancelled, as in the session that stopped it; the call's
// cancellation text as an error result would tell the view the tool
// failed.
func TestReopenedStoppedCardTellsViewCancelled(t *testing.T) {
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "deckhand.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sys := actor.NewActorSystem()
	pid := writer.Spawn(sys.Root, writer.Options{DB: db, Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(func() { sys.Root.PoisonFuture(pid).Wait() })
	args := json.RawMessage("{}")
	for _, m := range []any{
		&conversation.ConversationOpened{Conversation: "c1", Model: "m"},
		&conversation.RunStarted{Conversation: "c1", Run: "r1", Text: "show the time", Model: "m"},
		&conversation.AssistantMessage{Conversation: "c1", Run: "r1", ToolCalls: []llm.ToolCall{{ID: "x", Name: "app__show", Arguments: "{}"}}},
		&conversation.ToolCallRequested{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show", Arguments: args},
		&conversation.ToolCallStarted{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show", Arguments: args},
		&conversation.ToolCallFinished{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show", Output: toolcall.CancelledText, IsError: true, Cancelled: true},
		&conversation.RunFinished{Conversation: "c1", Run: "r1", Stopped: true},
	} {
		sys.Root.Send(pid, m)
	}
	res, err := sys.Root.RequestFuture(pid, &writer.SyncLog{}, 30*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if d := res.(*servers.Done); d.Err != nil {
		t.Fatal(d.Err)
	}
	events, err := db.Events(t.Context(), store.Filter{SessionID: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	row, ok := transcript.FromEvents(events).Card("r1", "x")
	if !ok {
		t.Fatal("no card for the stopped call in the reopened chat")
	}

	card := apps.Card{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show"}
	b := &cardBridge{cards: map[apps.Card]transcript.Row{}}
	b.set(card, row)
	w := &toldWindow{done: make(chan struct{})}
	if !New(b, nil).follow(card, w, row) {
		t.Fatal("follow: the card has a view already")
	}
	if diff := cmp.Diff([]string{"cancelled: " + stopped}, w.got()); diff != "" {
		t.Errorf("the view was told (-want +got):\n%s", diff)
	}
}
