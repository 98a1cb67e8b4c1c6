package mcp

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// ErrClosed is the cause of calls cut short because the connection was closed
// on purpose.
var ErrClosed = errors.New("connection closed")

// HTTPError is an HTTP response that refused a request.
type HTTPError struct {
	Method string
	URL    string // credentials redacted
	Status int
	Body   string // an excerpt, whitespace collapsed
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("%s %s: %d %s", e.Method, e.URL, e.Status, http.StatusText(e.Status))
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// ExitError says that a server's process ended, how, and what it last wrote to
// stderr.
type ExitError struct {
	Command string
	Status  string // "exit status 1", "signal: killed"
	Stderr  string // the last lines, or ""
}

func (e *ExitError) Error() string {
	msg := fmt.Sprintf("process %s exited (%s)", e.Command, e.Status)
	if e.Stderr != "" {
		msg += "; stderr: " + e.Stderr
	}
	return msg
}

// redactor removes secrets from error text.
type redactor []string

func (r redactor) string(s string) string {
	for _, secret := range r {
		if len(secret) >= 4 {
			s = strings.ReplaceAll(s, secret, "[redacted]")
		}
	}
	return s
}

// err returns err with secrets removed from its message; errors.Is and
// errors.As still see the original chain.
func (r redactor) err(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if clean := r.string(msg); clean != msg {
		return &redactedError{msg: clean, err: err}
	}
	return err
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
