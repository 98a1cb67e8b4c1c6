package conversation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/transport/llm"
)

// The stream actor's reports to its conversation, tagged with the request
// they belong to.
type (
	streamText struct {
		seq             int
		text, reasoning string
	}
	streamRetrying struct {
		seq  int
		err  error
		wait time.Duration
	}
	streamDone struct {
		seq  int
		turn llm.Turn
		err  error
	}
)

// streamActor makes one model request and reports the answer as it streams:
// text as it arrives, then the whole turn. Refusals that may pass (429, 5xx,
// a server not yet listening, a connection closed before any answer) are retried before anything was received,
// honouring Retry-After. Stopping the actor cancels the HTTP request.
//
// The model client is made first, on the request's goroutine: reading the
// API key may wait for the keyring (up to keys.Timeout), which no Receive
// may do. A client that cannot be made (no key) is a streamDone with the
// error.
//
// Restart policy: none. A panic on the request's goroutine (a bug) is a
// streamDone with the error, which fails the run; the conversation then
// stops the stream. Nothing of it is worth keeping: the run's state is the
// conversation's.
type streamActor struct {
	client  func() (*llm.Client, error)
	model   string // the model this run asks (SetModel), if not the client's
	req     *llm.Request
	retries int
	seq     int
	cancel  context.CancelFunc
}

func (a *streamActor) Receive(c actor.Context) {
	switch c.Message().(type) {
	case *actor.Started:
		ctx, cancel := context.WithCancel(context.Background())
		a.cancel = cancel
		go a.run(ctx, c.ActorSystem().Root, c.Parent())
	case *actor.Stopping:
		a.cancel()
	}
}

// maxRetryWait caps how long a Retry-After may hold a run.
const maxRetryWait = time.Minute

func (a *streamActor) run(ctx context.Context, root *actor.RootContext, parent *actor.PID) {
	defer func() {
		if p := recover(); p != nil {
			root.Send(parent, &streamDone{seq: a.seq, err: fmt.Errorf("internal error in the model request: %v", p)})
		}
	}()
	client, err := a.client()
	if ctx.Err() != nil {
		return // stopped while the key was read: nobody waits for an answer
	}
	if err != nil {
		root.Send(parent, &streamDone{seq: a.seq, err: err})
		return
	}
	if a.model != "" && a.model != client.Model {
		cl := *client
		cl.Model = a.model // chosen for this conversation (SetModel)
		client = &cl
	}
	for attempt := 0; ; attempt++ {
		s, err := client.Stream(ctx, a.req)
		if err != nil {
			if wait, ok := retryable(err, attempt); ok && attempt < a.retries && ctx.Err() == nil {
				root.Send(parent, &streamRetrying{seq: a.seq, err: err, wait: wait})
				select {
				case <-time.After(wait):
					continue
				case <-ctx.Done():
				}
			}
			root.Send(parent, &streamDone{seq: a.seq, err: err})
			return
		}
		turn, err := a.read(s, root, parent)
		s.Close()
		root.Send(parent, &streamDone{seq: a.seq, turn: turn, err: err})
		return
	}
}

func (a *streamActor) read(s *llm.Stream, root *actor.RootContext, parent *actor.PID) (llm.Turn, error) {
	var acc llm.Accumulator
	for {
		d, err := s.Next()
		if errors.Is(err, io.EOF) {
			return acc.Turn()
		}
		if err != nil {
			turn, _ := acc.Turn()
			return turn, err
		}
		acc.Add(d)
		if d.Text != "" || d.Reasoning != "" {
			root.Send(parent, &streamText{seq: a.seq, text: d.Text, reasoning: d.Reasoning})
		}
	}
}

// retryable says whether a refused request may work later, and after how
// long: the server's Retry-After, or 1s, 2s, 4s…. A request whose answer
// had begun streaming never comes here (run reads it to its end or error).
func retryable(err error, attempt int) (time.Duration, bool) {
	wait := time.Second << min(attempt, 5)
	var he *llm.HTTPError
	var op *net.OpError
	switch {
	case errors.As(err, &he):
		if !he.Temporary() {
			return 0, false
		}
		if he.RetryAfter > 0 {
			wait = he.RetryAfter
		}
	case errors.As(err, &op) && op.Op == "dial":
	case errors.Is(err, llm.ErrClosed): // closed before any answer: nothing was received
	default:
		return 0, false
	}
	return min(wait, maxRetryWait), true
}

func retryNotice(m *streamRetrying) string {
	return fmt.Sprintf("%v; trying again in %v", m.err, m.wait.Round(100*time.Millisecond))
}
