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

// A server that echoes part of a key (its first 18 of 24 characters, its
// last 8, its first 20 and last 4, a middle) gets none of it shown: any run
// of PieceLen bytes of a secret of PieceMinLen or more is removed. Shorter
// runs, and the pieces of a short secret, stay (ordinary text).
func TestPieces(t *testing.T) {
	const key = "sk-test-SECRETKEY-424242" // 24 characters
	s := New(key, "short-pw-123"[:11])
	for _, tc := range []struct{ in, want string }{
		{"Incorrect API key provided: sk-test-SECRETKEY-.", "Incorrect API key provided: [redacted]."}, // a prefix, 18
		{"key ending in -424242 and KEY-424242.", "key ending in -424242 and [redacted]."},             // 7 stays, 10 goes
		{"provided: sk-test-SECRE****4242", "provided: [redacted]****4242"},                            // first 13 + last 4
		{"provided: sk-test-SECRETKEY-****4242", "provided: [redacted]****4242"},                       // first 20 + last 4
		{"the middle: SECRETKEY here", "the middle: [redacted] here"},                                  // a middle 9
		{"twice: sk-test-S and sk-test-S", "twice: [redacted] and [redacted]"},                         // 8, twice
		{"sk-test-SECRETKEY-424242sk-test-SECRETKEY-", "[redacted][redacted]"},                         // whole, then a prefix
		{`{"m":"sk-test-SECRETKE"}`, `{"m":"[redacted]"}`},                                             // inside JSON
		{"é sk-test-SECRETKEY é", "é [redacted] é"},                                                    // beside multibyte text
		{"a short secret: short-pw-12 short-pw", "a short secret: [redacted] short-pw"},                // 11: whole only
		{"nothing here: sk-test plus SECRET", "nothing here: sk-test plus SECRET"},                     // 7 and 6
		{"", ""},
	} {
		if got := s.String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := string(s.Bytes([]byte(tc.in))); got != tc.want {
			t.Errorf("Bytes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// A Set grows: a secret added later is removed in part too.
	var set Set
	set.Add("tok-0123456789abcdef")
	set.Add(key)
	if got := set.Get().String("a: tok-01234567, b: KEY-4242"); got != "a: [redacted], b: [redacted]" {
		t.Errorf("Set: %q", got)
	}
	// Join: two sets' secrets, whole and in part.
	joined := New("sk-first-0123456789").Join(New("short", "tok-second-abcdefgh"))
	if got := joined.String("sk-first-01 tok-second short"); got != "[redacted] [redacted] [redacted]" {
		t.Errorf("Join: %q", got)
	}
	// Values that are not tokens (a URL, a path, words) are removed only
	// whole: their pieces are ordinary text.
	other := New("postgres://me:pw@localhost:5432/db", "/home/me/projects/secret", "correct horse battery staple")
	for _, text := range []string{"listening on localhost:5432", "/home/me/projects/other", "a horse battery"} {
		if got := other.String(text); got != text {
			t.Errorf("String(%q) = %q with secrets that are not tokens", text, got)
		}
	}
	if got := other.String("url postgres://me:pw@localhost:5432/db"); got != "url [redacted]" {
		t.Errorf("a URL secret whole: %q", got)
	}
	// The JSON-escaped form of a secret is removed in part as well.
	esc := New(`pass"word\with-quotes`)
	if got := esc.String(`{"v":"my word\\with-q"}`); got != `{"v":"my [redacted]"}` {
		t.Errorf("escaped: %q", got)
	}
}

// FuzzPieces: after redaction, no run of PieceLen bytes of a secret of
// PieceMinLen bytes or more survives anywhere in the text (the marks put
// in its place aside).
func FuzzPieces(f *testing.F) {
	f.Add("sk-test-SECRETKEY-424242", "Incorrect API key provided: ", 0, 18, ".")
	f.Add("sk-test-SECRETKEY-424242", "key ", 16, 24, " end")
	f.Add("ééééééééé-key", "x", 3, 15, "y")
	f.Add("[redacted]-and-more", "", 0, 19, "[redacted]")
	f.Fuzz(func(t *testing.T, secret, text string, from, to int, tail string) {
		if !Pieced(secret) || strings.Contains(secret, "\x00") {
			return
		}
		// The text holds a piece of the secret, between text and tail.
		from, to = min(max(from, 0), len(secret)), min(max(to, 0), len(secret))
		if from > to {
			from, to = to, from
		}
		in := text + secret[from:to] + tail
		s := New("another-secret-0001", secret)
		outs := map[string]string{"String": s.String(in), "Bytes": string(s.Bytes([]byte(in)))}
		for how, out := range outs {
			rest := strings.ReplaceAll(out, Mark, "\x00")
			for i := 0; i+PieceLen <= len(secret); i++ {
				if strings.Contains(rest, secret[i:i+PieceLen]) {
					t.Fatalf("%s(%q) with secret %q = %q: holds %q", how, in, secret, out, secret[i:i+PieceLen])
				}
			}
		}
	})
}

// BenchmarkPieces: the cost of looking for pieces of long secrets in a
// large text with none (a 1 MiB tool result), against the whole-secret
// search alone of the same text (secrets too short to be cut into pieces):
// compare the two ns/op.
func BenchmarkPieces(b *testing.B) {
	text := strings.Repeat("some ordinary text of a tool result, line after line, and so on\n", 1<<20/64)
	long := New("sk-live-0123456789abcdefXYZ", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", strings.Repeat("k", 160))
	whole := New("sk-live-01", "ghp_abcdef", "kkkkkkkkkk")
	b.SetBytes(int64(len(text)))
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			whole.String(text)
		}
	})
	b.Run("pieces", func(b *testing.B) {
		for b.Loop() {
			long.String(text)
		}
	})
}
