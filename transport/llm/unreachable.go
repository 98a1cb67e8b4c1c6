package llm

import (
	"context"
	"deckhand/netwhy"
	"errors"
	"fmt"
)

// UnreachableError is a model server that could not be reached at all: in
// plain words what went wrong and what to check, with the network error
// kept underneath (for retries and logs).
type UnreachableError struct {
	BaseURL string
	Reason  string // "nothing is listening there", "its host name does not resolve"…
	Err     error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("the model server at %s is not reachable: %s. Is it running? Check the model's address in Settings (model.base_url)", e.BaseURL, e.Reason)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// unreachable explains a request that got no answer, or returns err as it
// is when it is something else (a timeout of ours, a cancellation).
func unreachable(baseURL string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, ErrStreamTimeout) {
		return err
	}
	if why, ok := netwhy.Why(err); ok {
		return &UnreachableError{BaseURL: baseURL, Reason: why, Err: err}
	}
	return err
}
