package conversation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation/conversationtest"
	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// startWith starts one conversation actor whose runs use stream and call,
// with a catalog of fs.write; its events go to the returned watcher.
func startWith(t *testing.T, stream streamFunc, call callFunc, opts ...func(*convDeps)) (*actor.RootContext, *actor.PID, *conversationtest.Watcher) {
	t.Helper()
	as := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	t.Cleanup(as.Shutdown)
	root := as.Root
	cat := tools.NewCatalog(map[string]tools.Source{"fs": {Tools: []*sdk.Tool{{Name: "write", InputSchema: map[string]any{"type": "object"}}}}})
	registry := root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if m, ok := c.Message().(*servers.WatchCatalog); ok {
			c.Send(m.PID, &servers.CatalogChanged{Catalog: cat})
		}
	}))
	w := conversationtest.Spawn(t, root)
	cfg := &config.Config{Model: config.Model{BaseURL: "http://127.0.0.1:9/v1", Name: "m"}}
	cfg.ApplyDefaults()
	deps := convDeps{cfg: cfg, client: modelClient(cfg.Model, nil, nil, nil), registry: registry, validator: tools.NewValidator(16),
		always: &approval.Always{}, log: slog.New(slog.DiscardHandler), stream: stream, call: call}
	for _, o := range opts {
		o(&deps)
	}
	conv := root.Spawn(actor.PropsFromProducer(func() actor.Actor {
		return newConversation(ConversationOptions{ID: "conv-1", Watchers: []*actor.PID{w.PID}}, deps)
	}))
	return root, conv, w
}

// script is a model that answers each request with the next turn, or
// waits for Stop when none is left.
func script(turns ...llm.Turn) streamFunc {
	next := make(chan llm.Turn, len(turns))
	for _, t := range turns {
		next <- t
	}
	return func(ctx context.Context, _ *view, _ string, _ *llm.Request, _ <-chan int, report func(any)) (llm.Turn, error) {
		select {
		case t := <-next:
			return t, nil
		default:
		}
		report(&streamText{text: "thinking"})
		<-ctx.Done()
		return llm.Turn{}, ctx.Err()
	}
}

func wrote(_ context.Context, m *servers.CallTool, _ func(*servers.ToolProgress)) (*servers.ToolResult, error) {
	return &servers.ToolResult{ID: m.ID, Tool: m.Tool, Result: &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "wrote"}}}}, nil
}

// The person's answer goes straight to the waiting run (Reply), with no
// actor between them: it counts once; a second answer, and one after the
// run has stopped waiting, are dropped, and Reply says so.
func TestApprovalReplyReachesTheRun(t *testing.T) {
	root, conv, w := startWith(t, script(
		llm.Turn{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "fs__write", Arguments: "{}"}}},
		llm.Turn{Text: "done"},
	), wrote)
	root.Send(conv, &UserMessage{Text: "write"})
	q := conversationtest.Expect[*ApprovalRequested](t, w)
	if err := q.Reply(approval.AllowOnce, ""); err != nil {
		t.Fatalf("Reply(allow once) = %v, want nil", err)
	}
	if err := q.Reply(approval.Deny, ""); !errors.Is(err, ErrAnsweredTwice) {
		t.Errorf("a second Reply = %v, want ErrAnsweredTwice", err)
	}
	if closed := conversationtest.Expect[*ApprovalClosed](t, w); closed.ID != q.ID || closed.Answer != approval.AllowOnce || closed.Reason != approval.Answered {
		t.Errorf("ApprovalClosed = %+v, want %s allowed once by the person", closed, q.ID)
	}
	if fin := conversationtest.Expect[*ToolCallFinished](t, w); fin.Output != "wrote" || fin.Denied {
		t.Errorf("ToolCallFinished = %+v, want the call run", fin)
	}
	if fin := conversationtest.Expect[*RunFinished](t, w); fin.Err != nil || fin.Stopped || fin.Text != "done" {
		t.Errorf("RunFinished = %+v", fin)
	}
}

// A question ends once: with the first answer, the timeout or Stop,
// whichever comes first; what comes after is dropped, and Reply says why.
func TestQuestionEndsOnce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		before  []approval.Answer // replies before the question ends
		end     string            // "answer", "timeout" or "stop": what the asker sees first
		want    answer
		wantOK  bool
		lateErr error // what a Reply after the end says
	}{
		{name: "answered", before: []approval.Answer{approval.AllowSession}, end: "answer",
			want: answer{approval.AllowSession, approval.Answered}, wantOK: true, lateErr: ErrAnsweredTwice},
		{name: "timed out", end: "timeout",
			want: answer{approval.Deny, approval.TimedOut(time.Minute)}, wantOK: true, lateErr: ErrQuestionClosed},
		{name: "stopped", end: "stop", lateErr: ErrQuestionClosed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := newQuestion()
				for _, a := range tc.before {
					if err := q.reply(a, ""); err != nil {
						t.Fatalf("reply(%v) = %v", a, err)
					}
				}
				ctx, cancel := context.WithCancel(t.Context())
				if tc.end == "stop" {
					cancel()
				}
				defer cancel()
				got, ok := q.wait(ctx, time.Minute) // in the bubble, the timeout is the fake clock's
				if got != tc.want || ok != tc.wantOK {
					t.Errorf("wait = %+v, %v; want %+v, %v", got, ok, tc.want, tc.wantOK)
				}
				if err := q.reply(approval.AllowOnce, ""); !errors.Is(err, tc.lateErr) {
					t.Errorf("a reply after the end = %v, want %v", err, tc.lateErr)
				}
			})
		})
	}
}

// The queue of runs: messages sent during a run wait, in order, with their
// positions; a message sent just after Stop runs next without waiting in
// the queue, as it did when Stop ended the run inside Receive.
func TestQueueAndStop(t *testing.T) {
	root, conv, w := startWith(t, script(), wrote)
	root.Send(conv, &UserMessage{Text: "first"})
	conversationtest.Expect[*AssistantDelta](t, w) // streaming, until Stop
	root.Send(conv, &UserMessage{Text: "second"})
	root.Send(conv, &UserMessage{Text: "third"})
	for _, want := range []RunQueued{{Conversation: "conv-1", Text: "second", Position: 1}, {Conversation: "conv-1", Text: "third", Position: 2}} {
		if got := conversationtest.Expect[*RunQueued](t, w); *got != want {
			t.Errorf("RunQueued = %+v, want %+v", *got, want)
		}
	}
	root.Send(conv, &StopRun{})
	root.Send(conv, &UserMessage{Text: "fourth"})
	var order []string
	for len(order) < 4 {
		switch m := conversationtest.Next(t, w).(type) {
		case *RunQueued:
			order = append(order, fmt.Sprintf("queued %s at %d", m.Text, m.Position))
		case *RunFinished:
			order = append(order, "finished")
			if !m.Stopped {
				t.Errorf("RunFinished = %+v, want stopped", m)
			}
		case *RunStarted:
			order = append(order, "started "+m.Text)
			// Stop the run once it has started: a Stop sent on the
			// first's RunFinished could reach the actor before it
			// started the second, stop nothing, and leave the second
			// waiting for a model that never answers.
			root.Send(conv, &StopRun{})
		}
	}
	// The queue's events come from the actor, a run's from the run's
	// goroutine: between the two, the order is not fixed; within the runs
	// it is (the first ends before the second starts).
	runs := slices.DeleteFunc(slices.Clone(order), func(e string) bool { return strings.HasPrefix(e, "queued") })
	if diff := cmp.Diff([]string{"finished", "started second", "finished"}, runs); diff != "" {
		t.Errorf("the runs' events (-want +got):\n%s", diff)
	}
	if !slices.Contains(order, "queued fourth at 2") {
		t.Errorf("events %q: the fourth message was not queued at 2", order)
	}
}

// A conversation whose Receive panics (a bug) while its run waits for an
// answer fails the run with the error first (the question closed, the
// RunFinished carrying it), then says it is gone, as it did when the run
// lived in Receive.
func TestReceivePanicFailsTheRunFirst(t *testing.T) {
	root, conv, w := startWith(t, script(llm.Turn{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "fs__write", Arguments: "{}"}}}), wrote,
		func(d *convDeps) {
			d.onMessage = func(m any) {
				if _, ok := m.(*SetModel); ok {
					panic("a bug")
				}
			}
		})
	root.Send(conv, &UserMessage{Text: "write"})
	conversationtest.Expect[*ApprovalRequested](t, w)
	root.Send(conv, &SetModel{Name: "other"}) // the bug's message, while the run waits
	var got []string
	for len(got) < 3 {
		switch m := conversationtest.Next(t, w).(type) {
		case *ApprovalClosed:
			got = append(got, "closed: "+string(m.Reason))
		case *RunFinished:
			got = append(got, fmt.Sprintf("run finished: stopped %v, %v", m.Stopped, m.Err))
		case *ConversationFailed:
			got = append(got, "conversation failed: "+m.Err.Error())
		}
	}
	want := []string{
		"closed: the conversation failed",
		"run finished: stopped false, internal error in the conversation: a bug",
		"conversation failed: internal error in the conversation: a bug",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
