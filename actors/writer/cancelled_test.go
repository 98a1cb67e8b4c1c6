package writer

import (
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/transcript"
	"deckhand/transport/llm"
)

// A call the person's Stop ended is logged as cancelled, and its card is
// cancelled again when the chat is reopened from the log (after a
// restart): its tool's view is then told tool-cancelled, not the text the
// model was given as an error. A call that failed with the same text but
// was not cancelled (as every call of a log written before the field)
// stays a failed card.
func TestStoppedCallReopenedCancelled(t *testing.T) {
	db := openLog(t)
	sys := actor.NewActorSystem()
	pid := Spawn(sys.Root, Options{DB: db, Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(func() { sys.Root.PoisonFuture(pid).Wait() })

	const conv, run = "c1", "r1"
	for _, m := range []any{
		&conversation.ConversationOpened{Conversation: conv, Model: "m"},
		&conversation.RunStarted{Conversation: conv, Run: run, Text: "show the time", Model: "m"},
		&conversation.AssistantMessage{Conversation: conv, Run: run, ToolCalls: []llm.ToolCall{
			{ID: "x", Name: "app__show", Arguments: "{}"}, {ID: "y", Name: "app__show", Arguments: "{}"}}},
		&conversation.ToolCallRequested{Conversation: conv, Run: run, Call: "x", Tool: "app.show", Arguments: json.RawMessage("{}")},
		&conversation.ToolCallRequested{Conversation: conv, Run: run, Call: "y", Tool: "app.show", Arguments: json.RawMessage("{}")},
		&conversation.ToolCallStarted{Conversation: conv, Run: run, Call: "x", Tool: "app.show", Arguments: json.RawMessage("{}")},
		&conversation.ToolCallStarted{Conversation: conv, Run: run, Call: "y", Tool: "app.show", Arguments: json.RawMessage("{}")},
		&conversation.ToolCallFinished{Conversation: conv, Run: run, Call: "y", Tool: "app.show", Output: toolcall.CancelledText, IsError: true},
		&conversation.ToolCallFinished{Conversation: conv, Run: run, Call: "x", Tool: "app.show", Output: toolcall.CancelledText, IsError: true, Cancelled: true},
		&conversation.RunFinished{Conversation: conv, Run: run, Stopped: true},
	} {
		sys.Root.Send(pid, m)
	}
	res, err := sys.Root.RequestFuture(pid, &SyncLog{}, 30*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if d := res.(*servers.Done); d.Err != nil {
		t.Fatal(d.Err)
	}

	events, err := db.Events(t.Context(), store.Filter{SessionID: conv})
	if err != nil {
		t.Fatal(err)
	}
	logged := map[string]bool{}
	for _, e := range events {
		if e.Kind != store.KindToolFailed {
			continue
		}
		var raw map[string]any
		if err := json.Unmarshal(e.Data, &raw); err != nil {
			t.Fatal(err)
		}
		_, has := raw["cancelled"]
		logged[raw["call"].(string)] = has
	}
	if !logged["x"] || logged["y"] {
		t.Errorf("tool.failed has a cancelled field: %v; want only x's", logged)
	}

	tr := transcript.FromEvents(events)
	for call, want := range map[string]bool{"x": true, "y": false} {
		row, ok := tr.Card(run, call)
		if !ok {
			t.Fatalf("no card for call %s in the reopened chat", call)
		}
		if row.State != transcript.Failed || row.Cancelled != want {
			t.Errorf("reopened card %s: state %v, cancelled %v; want failed, cancelled %v", call, row.State, row.Cancelled, want)
		}
	}
}
