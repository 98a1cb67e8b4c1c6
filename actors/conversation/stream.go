package conversation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"deckhand/actors/servers"
	"deckhand/transport/llm"
)

// What a model request reports as it streams, to the run (run.streamed),
// and its end (streamDone, which tests' OnMessage sees).
type (
	streamText struct {
		text, reasoning string
	}
	streamRetrying struct {
		err  error
		wait time.Duration
	}
	streamDone struct {
		turn llm.Turn
		err  error
	}
)

// streamFunc makes one model request for a run (streamModel; a script in
// tests), reporting *streamText and *streamRetrying as they come.
type streamFunc func(ctx context.Context, v *view, model string, req *llm.Request, report func(any)) (llm.Turn, error)

// callFunc makes one tool call (the router's Call; a stand-in in tests).
type callFunc func(ctx context.Context, m *servers.CallTool, progress func(*servers.ToolProgress)) (*servers.ToolResult, error)

// maxRetryWait caps how long a Retry-After may hold a run.
const maxRetryWait = time.Minute

// streamModel makes one model request on the run's goroutine and reports
// the answer as it streams: text as it arrives, then the whole turn.
// Refusals that may pass (429, 5xx, a server not yet listening, a
// connection closed before any answer) are retried before anything was
// received, honouring Retry-After. Cancelling ctx (Stop) cancels the HTTP
// request, and the key's lookup (which may wait for the keyring): the
// request goes first without a key unless model.api_key_env gives one,
// and again with the keyring's when the model refuses it (v.client.try);
// a key that cannot be had is the error. model is the model this run asks
// (SetModel), if not the client's.
func streamModel(ctx context.Context, v *view, model string, req *llm.Request, report func(any)) (llm.Turn, error) {
	retries := v.cfg.Model.Retries()
	var s *llm.Stream
	err := v.client.try(ctx, func(client *llm.Client) error {
		if model != "" && model != client.Model {
			client.Model = model // chosen for this conversation (SetModel)
		}
		var err error
		s, err = open(ctx, client, req, retries, report)
		return err
	})
	if err != nil {
		return llm.Turn{}, err
	}
	turn, err := read(s, report)
	s.Close()
	return turn, err
}

// open makes the request, again after a refusal that may pass, as long as
// the retries last.
func open(ctx context.Context, client *llm.Client, req *llm.Request, retries int, report func(any)) (*llm.Stream, error) {
	for attempt := 0; ; attempt++ {
		s, err := client.Stream(ctx, req)
		if err == nil {
			return s, nil
		}
		if wait, ok := retryable(err, attempt); ok && attempt < retries && ctx.Err() == nil {
			report(&streamRetrying{err: err, wait: wait})
			t := time.NewTimer(wait)
			select {
			case <-t.C:
				continue
			case <-ctx.Done():
				t.Stop()
			}
		}
		return nil, err
	}
}

func read(s *llm.Stream, report func(any)) (llm.Turn, error) {
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
			report(&streamText{text: d.Text, reasoning: d.Reasoning})
		}
	}
}

// retryable says whether a refused request may work later, and after how
// long: the server's Retry-After, or 1s, 2s, 4s…. A request whose answer
// had begun streaming never comes here (read reads it to its end or error).
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
