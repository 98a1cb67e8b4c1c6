package appview

import (
	"encoding/json"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/actors/writer"
	"deckhand/apps"
	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/transcript"
	"deckhand/transport/llm"
)

// cardFromLog writes msgs through the log's writer (a store actor over a
// real SQLite file; maxOutput its output limit, 0 for none), reads the
// chat c1 back from the log and returns the card of call x of run r1,
// what the card is for named when there is none.
func cardFromLog(t *testing.T, maxOutput int, what string, msgs ...any) transcript.Row {
	t.Helper()
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "deckhand.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	sys := actor.NewActorSystem()
	pid := writer.Spawn(sys.Root, writer.Options{DB: db, Logger: slog.New(slog.DiscardHandler), MaxOutputBytes: maxOutput})
	t.Cleanup(func() { sys.Root.PoisonFuture(pid).Wait() })
	for _, m := range msgs {
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
		t.Fatalf("no card for %s in the reopened chat", what)
	}
	return row
}

// A view opened on the card of a call the person stopped, in a chat
// reopened from the log (a real SQLite file, written by the store actor),
// is told tool-cancelled, as in the session that stopped it; the call's
// cancellation text as an error result would tell the view the tool
// failed.
func TestReopenedStoppedCardTellsViewCancelled(t *testing.T) {
	args := json.RawMessage("{}")
	row := cardFromLog(t, 0, "the stopped call",
		&conversation.ConversationOpened{Conversation: "c1", Model: "m"},
		&conversation.RunStarted{Conversation: "c1", Run: "r1", Text: "show the time", Model: "m"},
		&conversation.AssistantMessage{Conversation: "c1", Run: "r1", ToolCalls: []llm.ToolCall{{ID: "x", Name: "app__show", Arguments: "{}"}}},
		&conversation.ToolCallRequested{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show", Arguments: args},
		&conversation.ToolCallStarted{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show", Arguments: args},
		&conversation.ToolCallFinished{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.show", Output: toolcall.CancelledText, IsError: true, Cancelled: true},
		&conversation.RunFinished{Conversation: "c1", Run: "r1", Stopped: true},
	)

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

// resultWindow is a view that keeps the results it is given.
type resultWindow struct {
	toldWindow
	results []*sdk.CallToolResult
}

func (w *resultWindow) SetResult(r *sdk.CallToolResult) {
	w.mu.Lock()
	w.results = append(w.results, r)
	w.mu.Unlock()
}

// A view opened on a card of a chat reopened from the log (a real SQLite
// file, written by the store actor) is given the result it was given
// live: the card's text, the result's structured content and its _meta,
// which the log keeps. server-basic-vanillajs's view reads the time from the
// structured content: after a restart it showed "Server Time: [ERROR]".
func TestReopenedCardGivesViewItsResult(t *testing.T) {
	args := json.RawMessage("{}")
	live := &conversation.ToolCallFinished{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.get-time", Arguments: args,
		Output: "2026-11-27T11:13:54.092Z", Structured: json.RawMessage(`{"time":"2026-11-27T11:13:54.092Z"}`),
		Meta: json.RawMessage(`{"example.com/zone":"UTC"}`)}
	row := cardFromLog(t, 64<<10, "the call",
		&conversation.ConversationOpened{Conversation: "c1", Model: "m"},
		&conversation.RunStarted{Conversation: "c1", Run: "r1", Text: "what time is it?", Model: "m"},
		&conversation.AssistantMessage{Conversation: "c1", Run: "r1", ToolCalls: []llm.ToolCall{{ID: "x", Name: "app__get-time", Arguments: "{}"}}},
		&conversation.ToolCallRequested{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.get-time", Arguments: args},
		&conversation.ToolCallStarted{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.get-time", Arguments: args},
		live,
		&conversation.AssistantMessage{Conversation: "c1", Run: "r1", Text: "It is 11:13."},
		&conversation.RunFinished{Conversation: "c1", Run: "r1"},
	)

	// What the view was given live: the card the bridge built from the
	// same events.
	tr := transcript.New()
	tr.StartRun("r1")
	tr.ToolRequested("x", live.Tool, args)
	tr.ToolStarted("x", live.Tool, args)
	tr.ToolFinished("x", live.Tool, args, live.Output, false, false, 0)
	tr.ToolStructured("x", live.Structured, live.Meta)
	liveRow, _ := tr.Card("r1", "x")
	want := CardResult(liveRow)

	card := apps.Card{Conversation: "c1", Run: "r1", Call: "x", Tool: "app.get-time"}
	b := &cardBridge{cards: map[apps.Card]transcript.Row{}}
	b.set(card, row)
	w := &resultWindow{toldWindow: toldWindow{done: make(chan struct{})}}
	if !New(b, nil).follow(card, w, row) {
		t.Fatal("follow: the card has a view already")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if want.StructuredContent == nil || want.Meta == nil {
		t.Fatalf("the live card's result lacks structured content or _meta: %+v", want)
	}
	if len(w.results) != 1 {
		t.Fatalf("the view was given %d results, want 1 (told %v)", len(w.results), w.told)
	}
	wantJSON, _ := json.MarshalIndent(want, "", " ")
	gotJSON, _ := json.MarshalIndent(w.results[0], "", " ")
	if diff := cmp.Diff(string(wantJSON), string(gotJSON)); diff != "" {
		t.Errorf("the reopened card's view was given (-live +reopened):\n%s", diff)
	}
	if row.Args != liveRow.Args {
		t.Errorf("the reopened card's input = %q, live %q", row.Args, liveRow.Args)
	}
}
