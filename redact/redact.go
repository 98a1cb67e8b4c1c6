// Package redact removes secrets (API keys, bearer tokens, the values of the
// variables that hold them) from text before it is logged, stored, shown,
// or put in an error: Deckhand's one redactor. A secret is removed in its
// plain form and in its JSON-escaped form (as it appears inside an encoded
// event), longest first, so that a secret containing another is removed
// whole.
//
// Who owns its state: a Secrets value is immutable (With returns a new
// one): safe to share between goroutines. A Set, the secrets every
// conversation, server and the log remove, is such a value swapped whole
// (an atomic pointer, replaced as secrets are added): no actor owns it and
// no reader waits.
package redact

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Mark replaces each secret.
const Mark = "[redacted]"

// MinLen is the shortest value treated as a secret: shorter ones ("1",
// "yes") would blank out ordinary text and protect nothing.
const MinLen = 4

// Secrets is a set of values to remove. The zero value removes nothing. A
// Secrets is immutable, so it is safe to share between goroutines; With
// returns a new one.
type Secrets struct {
	forms []string // every form to replace, longest first
}

// New returns the set of values (those shorter than MinLen are ignored).
func New(values ...string) Secrets { return Secrets{}.With(values...) }

// With returns the set with values added.
func (s Secrets) With(values ...string) Secrets {
	forms := slices.Clone(s.forms)
	for _, v := range values {
		if len(v) < MinLen {
			continue
		}
		forms = append(forms, v)
		if esc, err := json.Marshal(v); err == nil {
			if e := string(esc[1 : len(esc)-1]); e != v {
				forms = append(forms, e)
			}
		}
	}
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return Secrets{forms: slices.Compact(forms)}
}

// Empty reports whether there is nothing to remove.
func (s Secrets) Empty() bool { return len(s.forms) == 0 }

// String returns text with every secret replaced by Mark.
func (s Secrets) String(text string) string {
	for _, f := range s.forms {
		if strings.Contains(text, f) {
			text = strings.ReplaceAll(text, f, Mark)
		}
	}
	return text
}

// Bytes is String for bytes; b is returned as it is when it holds no
// secret.
func (s Secrets) Bytes(b []byte) []byte {
	for _, f := range s.forms {
		if bytes.Contains(b, []byte(f)) {
			b = bytes.ReplaceAll(b, []byte(f), []byte(Mark))
		}
	}
	return b
}

// Error returns err with secrets removed from its message; errors.Is and
// errors.As still see the original chain. nil stays nil, and an error with
// no secret in it is returned as it is.
func (s Secrets) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if clean := s.String(msg); clean != msg {
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
