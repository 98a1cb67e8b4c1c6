package servers

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/transport/mcp"
)

// A server's questions during one call: none without a call in flight, at
// most MaxQuestionsPerCall, and the call's end is signalled.
func TestQuestionsPerCall(t *testing.T) {
	var l *liveConn
	if _, _, err := l.question(""); !errors.Is(err, ErrNoCall) {
		t.Fatalf("no connection: %v, want ErrNoCall", err)
	}
	l = &liveConn{calls: map[*inflight]struct{}{}}
	if _, _, err := l.question(""); !errors.Is(err, ErrNoCall) {
		t.Fatalf("no call: %v, want ErrNoCall", err)
	}
	_, call, cancel, ok := l.begin(context.Background(), nil, &CallTool{ID: "c1"}, "s.ask")
	if !ok {
		t.Fatal("begin")
	}
	defer cancel()
	var done <-chan struct{}
	for i := range MaxQuestionsPerCall {
		only, d, err := l.question("")
		if err != nil || only != call {
			t.Fatalf("question %d: %v, %v", i+1, only, err)
		}
		done = d
	}
	if _, _, err := l.question(""); !errors.Is(err, ErrTooManyQuestions) {
		t.Fatalf("question %d: %v, want ErrTooManyQuestions", MaxQuestionsPerCall+1, err)
	}
	l.mu.Lock()
	delete(l.calls, call)
	l.mu.Unlock()
	close(call.done)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the call's end was not signalled")
	}
}

// A question that names its task (related-task) counts against that
// task's call alone, and is tied to it, even with other calls in flight;
// one that names none, or a task no call has, counts against them all.
func TestQuestionOfATask(t *testing.T) {
	l := &liveConn{calls: map[*inflight]struct{}{}, timeout: time.Hour}
	_, plain, cancel1, _ := l.begin(context.Background(), nil, &CallTool{ID: "c1"}, "s.a")
	defer cancel1()
	_, tasked, cancel2, _ := l.begin(context.Background(), nil, &CallTool{ID: "c2"}, "s.b")
	defer cancel2()
	l.taskOf(tasked, "task-7")
	if only, _, err := l.question("task-7"); err != nil || only != tasked {
		t.Errorf("naming task-7: %v, %v; want c2's call", only, err)
	}
	for _, related := range []string{"", "task-8"} {
		if only, _, err := l.question(related); err != nil || only != nil {
			t.Errorf("naming %q: %v, %v; want no one call", related, only, err)
		}
	}
	if plain.asked != 2 || tasked.asked != 3 {
		t.Errorf("questions counted: c1 %d, c2 %d; want 2, 3", plain.asked, tasked.asked)
	}
	if _, _, err := l.question("task-7"); !errors.Is(err, ErrTooManyQuestions) {
		t.Errorf("c2's fourth: %v, want ErrTooManyQuestions", err)
	}
}

// recorder keeps what the servers tell a watcher about questions.
type recorder struct{ got chan any }

// marker goes through a watcher's mailbox after what came before it.
type marker struct{}

func isMarker(m any) bool { _, ok := m.(*marker); return ok }

func (r *recorder) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *ElicitationRequested, *ElicitationClosed, *marker:
		r.got <- m
	}
}

// The supervisor asks a server's questions one at a time, cancels those of
// a call that has ended (shown or waiting, the waiting one never shown),
// and after Stop declines the server's questions unseen.
func TestElicitationsOneAtATime(t *testing.T) {
	as := quietSystem(t)
	sup, _ := startServers(t, as)
	rec := &recorder{got: make(chan any, 64)}
	watcher := as.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return rec }))
	as.Root.Send(sup, &WatchServers{PID: watcher})
	next := func(what string) any {
		t.Helper()
		for {
			select {
			case m := <-rec.got:
				return m
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: nothing came", what)
			}
		}
	}
	none := func(what string) {
		t.Helper()
		// Anything the supervisor sent before answering a request of ours
		// is in the watcher's mailbox before a marker sent after it.
		as.Root.RequestFuture(sup, &ListServers{}, 5*time.Second).Result()
		as.Root.Send(watcher, &marker{})
		if m := next(what); !isMarker(m) {
			t.Fatalf("%s: the watcher got %T %+v", what, m, m)
		}
	}
	callDone := make(chan struct{})
	ask := func(id string, done <-chan struct{}) chan *sdk.ElicitResult {
		reply := make(chan *sdk.ElicitResult, 1)
		as.Root.Send(sup, &ElicitationRequested{ID: id, Server: "s", Mode: "form", Form: &mcp.Form{}, reply: reply, callDone: done, closed: make(chan struct{})})
		return reply
	}
	answer := func(what string, reply chan *sdk.ElicitResult) string {
		t.Helper()
		select {
		case r := <-reply:
			return r.Action
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no answer", what)
		}
		return ""
	}

	r1, r2, r3 := ask("q1", callDone), ask("q2", callDone), ask("q3", callDone)
	if m, ok := next("the first question").(*ElicitationRequested); !ok || m.ID != "q1" {
		t.Fatalf("first shown: %+v", m)
	}
	none("while q1 is shown")
	as.Root.Send(sup, &ElicitationAnswer{ID: "q1", Action: ElicitDecline})
	if a := answer("q1", r1); a != ElicitDecline {
		t.Errorf("q1 answered %q", a)
	}
	if m, ok := next("q1 closed").(*ElicitationClosed); !ok || m.ID != "q1" {
		t.Fatalf("after q1: %+v", m)
	}
	if m, ok := next("the second question").(*ElicitationRequested); !ok || m.ID != "q2" {
		t.Fatalf("second shown: %+v", m)
	}
	close(callDone) // the call ends
	if a, b := answer("q2", r2), answer("q3", r3); a != ElicitCancel || b != ElicitCancel {
		t.Errorf("at the call's end: q2 %q, q3 %q; want both cancelled", a, b)
	}
	if m, ok := next("q2 closed").(*ElicitationClosed); !ok || m.ID != "q2" || m.Reason != "its tool call ended" {
		t.Fatalf("after the call: %+v", m)
	}
	none("q3 was never shown")
	if a := answer("after the call", ask("q4", callDone)); a != ElicitDecline {
		t.Errorf("a question after the call: %q, want declined", a)
	}
	none("a question after the call")

	// Stop asking.
	call2 := make(chan struct{})
	defer close(call2)
	r5, r6 := ask("q5", call2), ask("q6", call2)
	if m, ok := next("q5").(*ElicitationRequested); !ok || m.ID != "q5" {
		t.Fatalf("q5: %+v", m)
	}
	as.Root.Send(sup, &ElicitationAnswer{ID: "q5", Action: ElicitDecline, Stop: true})
	if a, b := answer("q5", r5), answer("q6", r6); a != ElicitDecline || b != ElicitDecline {
		t.Errorf("stopped: q5 %q, q6 %q; want both declined", a, b)
	}
	if m, ok := next("q5 closed").(*ElicitationClosed); !ok || m.ID != "q5" {
		t.Fatalf("after q5: %+v", m)
	}
	if a := answer("after Stop", ask("q7", call2)); a != ElicitDecline {
		t.Errorf("a question after Stop: %q, want declined", a)
	}
	none("after Stop")
}
