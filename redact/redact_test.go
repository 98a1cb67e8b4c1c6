package redact

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	s := New("sk-live-1234", "tok\"en/é", "abc", "sk-live-1234-longer")
	for _, tc := range []struct{ in, want string }{
		{"key sk-live-1234 here", "key [redacted] here"},
		{"sk-live-1234-longer", "[redacted]"}, // the longer secret whole, not its prefix
		{`{"a":"tok\"en/é"}`, `{"a":"[redacted]"}`},
		{`tok"en/é`, `[redacted]`},
		{"abc stays: too short to be a secret", "abc stays: too short to be a secret"},
		{"", ""},
	} {
		if got := s.String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := string(s.Bytes([]byte(tc.in))); got != tc.want {
			t.Errorf("Bytes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if !(Secrets{}).Empty() || !New("x").Empty() || New("long-enough").Empty() {
		t.Error("Empty is wrong")
	}
	if got := New("a-secret").With("another").String("a-secret and another"); got != "[redacted] and [redacted]" {
		t.Errorf("With: %q", got)
	}
}

func TestError(t *testing.T) {
	s := New("sk-live-1234")
	base := fmt.Errorf("opening sk-live-1234: %w", fs.ErrNotExist)
	err := s.Error(base)
	if strings.Contains(err.Error(), "sk-live-1234") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Error() = %v (Is ErrNotExist: %v)", err, errors.Is(err, fs.ErrNotExist))
	}
	plain := errors.New("nothing secret")
	if s.Error(plain) != plain || s.Error(nil) != nil {
		t.Error("an error without secrets should come back as it is")
	}
}

// FuzzRedact: after redaction, no secret of MinLen bytes or more is left,
// plain or JSON-escaped.
func FuzzRedact(f *testing.F) {
	f.Add("sk-1234", "the key is sk-1234, ok")
	f.Add(`a"b\c`, `{"x":"a\"b\\c"}`)
	f.Add("aaaa", "aaaaaaaaa")
	f.Fuzz(func(t *testing.T, secret, text string) {
		s := New(secret)
		out := s.String(text)
		if len(secret) < MinLen {
			if out != text {
				t.Fatalf("a short value changed the text: %q -> %q", text, out)
			}
			return
		}
		if strings.Contains(Mark, secret) {
			return // the mark itself holds the secret; nothing can be done
		}
		esc, _ := json.Marshal(secret)
		if strings.Contains(out, secret) || strings.Contains(out, string(esc[1:len(esc)-1])) {
			t.Fatalf("String(%q) with secret %q = %q", text, secret, out)
		}
	})
}

// BenchmarkRedact compares String against the loop it replaced (a
// strings.ReplaceAll per secret and per escaped form, always), on an event
// with no secret in it, the common case: compare the two ns/op.
func BenchmarkRedact(b *testing.B) {
	secrets := []string{"sk-live-0123456789abcdef", "ghp_abcdefghijklmnop", "tok-9f8e7d6c"}
	text := strings.Repeat(`{"call":"c1","tool":"fs.read_file","output":"some ordinary text of a tool result"}`, 40)
	old := func(s string) string {
		for _, secret := range secrets {
			s = strings.ReplaceAll(s, secret, Mark)
			if esc, _ := json.Marshal(secret); len(esc) > 2 {
				s = strings.ReplaceAll(s, string(esc[1:len(esc)-1]), Mark)
			}
		}
		return s
	}
	s := New(secrets...)
	b.Run("before", func(b *testing.B) {
		for b.Loop() {
			old(text)
		}
	})
	b.Run("redact", func(b *testing.B) {
		for b.Loop() {
			s.String(text)
		}
	})
}
