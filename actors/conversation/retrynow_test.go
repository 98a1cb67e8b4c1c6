package conversation

import (
	"context"
	"errors"
	"testing"
	"time"

	"deckhand/actors/conversation/conversationtest"
	"deckhand/config"
	"deckhand/testutil"
	"deckhand/transport/llm"
)

// Retry now, through the real model request: a 429 asking for a minute,
// and the person's RetryNow sends the next request at once (the test
// waits conversationtest.Wait, 10 s, for the answer, far less than the
// minute asked).
func TestRetryNowSendsTheNextTry(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Status: 429, Header: map[string]string{"Retry-After": "60"}, Body: `{"error":{"message":"Rate limit reached"}}`},
		testutil.ModelResponse{Body: testutil.TextChunks("finally")})
	root, conv, w := startWith(t, streamModel, wrote, func(d *convDeps) {
		cfg := &config.Config{Model: config.Model{BaseURL: model.URL, Name: "m"}}
		cfg.ApplyDefaults()
		d.cfg, d.client = cfg, modelClient(cfg.Model, func(string) (string, bool) { return "", false }, nil, nil)
	})
	root.Send(conv, &UserMessage{Text: "hi"})
	started := conversationtest.Expect[*RunStarted](t, w)
	n := conversationtest.Expect[*Notice](t, w)
	if !n.Retry || n.Run != started.Run || n.Try != 2 {
		t.Fatalf("Notice = %+v, want the retry's of %s, for try 2", n, started.Run)
	}
	root.Send(conv, &RetryNow{Conversation: "conv-1", Run: started.Run, Try: n.Try})
	if got := conversationtest.Expect[*RetryStarted](t, w); got.Run != started.Run || got.Try != 2 || got.Tries != 3 {
		t.Errorf("RetryStarted = %+v, want try 2 of 3 of %s", got, started.Run)
	}
	if fin := conversationtest.Expect[*RunFinished](t, w); fin.Err != nil || fin.Text != "finally" {
		t.Errorf("RunFinished = %+v, want the second try's answer", fin)
	}
	if n := model.Count(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// A RetryNow reaches only the run it names, in its conversation, while it
// waits; any other is dropped without blocking the actor. The model here
// is a stand-in that waits as StreamRetried does, for the signal or Stop,
// and says which came.
func TestRetryNowOnlyForItsRun(t *testing.T) {
	tests := []struct {
		name string
		// retry is the RetryNow sent while the second run waits, given
		// the first run (over) and the second.
		retry      func(first, second string) *RetryNow
		wantSignal bool
	}{
		{name: "its run: the try goes", retry: func(_, second string) *RetryNow { return &RetryNow{Conversation: "conv-1", Run: second, Try: 2} }, wantSignal: true},
		{name: "its run, a try that went", retry: func(_, second string) *RetryNow { return &RetryNow{Conversation: "conv-1", Run: second, Try: 1} }},
		{name: "a run that is over", retry: func(first, _ string) *RetryNow { return &RetryNow{Conversation: "conv-1", Run: first, Try: 2} }},
		{name: "another run", retry: func(_, _ string) *RetryNow { return &RetryNow{Conversation: "conv-1", Run: "run-other", Try: 2} }},
		{name: "another conversation", retry: func(_, second string) *RetryNow { return &RetryNow{Conversation: "conv-2", Run: second, Try: 2} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			signalled := make(chan bool, 1)
			requests := 0
			stream := func(ctx context.Context, _ *view, _ string, _ *llm.Request, now <-chan int, report func(any)) (llm.Turn, error) {
				if requests++; requests == 1 {
					return llm.Turn{Text: "one", FinishReason: "stop"}, nil
				}
				report(&streamRetrying{Retrying: llm.Retrying{Err: errors.New("429 Too Many Requests"), Wait: time.Minute, Next: 2, Tries: 3}, at: time.Now().Add(time.Minute)})
				for {
					select {
					case n := <-now:
						if n != 2 {
							continue // another try's, as StreamRetried drops it
						}
						signalled <- true
						return llm.Turn{Text: "two", FinishReason: "stop"}, nil
					case <-ctx.Done():
						// A RetryNow forwarded before the Stop is in the
						// channel by now: the actor sends one, then cancels.
						select {
						case n := <-now:
							signalled <- n == 2
						default:
							signalled <- false
						}
						return llm.Turn{}, ctx.Err()
					}
				}
			}
			root, conv, w := startWith(t, stream, wrote)
			root.Send(conv, &UserMessage{Text: "first"})
			first := conversationtest.Expect[*RunStarted](t, w).Run
			conversationtest.Expect[*RunFinished](t, w)
			root.Send(conv, &RetryNow{Conversation: "conv-1", Run: first, Try: 2}) // nothing waits
			root.Send(conv, &UserMessage{Text: "second"})
			second := conversationtest.Expect[*RunStarted](t, w).Run
			conversationtest.Expect[*Notice](t, w)
			root.Send(conv, tt.retry(first, second))
			if !tt.wantSignal {
				root.Send(conv, &StopRun{})
			}
			fin := conversationtest.Expect[*RunFinished](t, w)
			if got := <-signalled; got != tt.wantSignal {
				t.Errorf("the wait was cut short: %v, want %v (RunFinished %+v)", got, tt.wantSignal, fin)
			}
			if tt.wantSignal && (fin.Stopped || fin.Text != "two") {
				t.Errorf("RunFinished = %+v, want the try's answer", fin)
			}
		})
	}
}

// Stop while a refused request waits to be tried again: the try announced
// never goes, and a RetryStarted marked Stopped says so in the notice's
// place ("trying again in 1m0s" stayed above "Stopped.", in the window,
// the log and the export, for a try never made).
func TestStopWhileWaitingSaysNoTry(t *testing.T) {
	due := time.Date(2026, 11, 28, 5, 19, 39, 0, time.Local)
	stream := func(ctx context.Context, _ *view, _ string, _ *llm.Request, _ <-chan int, report func(any)) (llm.Turn, error) {
		report(&streamRetrying{Retrying: llm.Retrying{Err: errors.New("429 Too Many Requests"), Wait: time.Minute, Next: 2, Tries: 3}, at: due})
		<-ctx.Done()
		return llm.Turn{}, ctx.Err()
	}
	root, conv, w := startWith(t, stream, wrote)
	root.Send(conv, &UserMessage{Text: "hi"})
	started := conversationtest.Expect[*RunStarted](t, w)
	conversationtest.Expect[*Notice](t, w)
	root.Send(conv, &StopRun{})
	got := conversationtest.Expect[*RetryStarted](t, w)
	want := "429 Too Many Requests; not tried again: stopped (try 2 of 3 was due at 05:19:39)"
	if got.Run != started.Run || !got.Stopped || got.Try != 2 || got.Text != want {
		t.Errorf("RetryStarted = %+v, want Stopped, try 2, %q", got, want)
	}
	if fin := conversationtest.Expect[*RunFinished](t, w); !fin.Stopped {
		t.Errorf("RunFinished = %+v, want stopped", fin)
	}
}
