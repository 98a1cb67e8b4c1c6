package llm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
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
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, ErrStreamTimeout):
		return err
	case errors.Is(err, syscall.ECONNREFUSED):
		return &UnreachableError{BaseURL: baseURL, Reason: "nothing is listening there (connection refused)", Err: err}
	case errors.As(err, &dns):
		return &UnreachableError{BaseURL: baseURL, Reason: fmt.Sprintf("its host name %q does not resolve", dns.Name), Err: err}
	case errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH):
		return &UnreachableError{BaseURL: baseURL, Reason: "no route to its host", Err: err}
	case errors.As(err, &op) && op.Op == "dial" && op.Timeout():
		return &UnreachableError{BaseURL: baseURL, Reason: "its host did not answer in time", Err: err}
	}
	return err
}
