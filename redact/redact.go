// Package redact removes secrets (API keys, bearer tokens, the values of the
// variables that hold them) from text before it is logged, stored, shown,
// or put in an error: Deckhand's one redactor. A secret is removed in its
// plain form and in its JSON-escaped form (as it appears inside an encoded
// event), longest first, so that a secret containing another is removed
// whole.
//
// A secret of PieceMinLen characters or more is also removed in part: any
// run of PieceLen or more consecutive bytes of it (a prefix, a suffix or
// a middle), as a server that echoes "the key you sent, sk-proj-abcd…",
// or its first 20 and last 4 characters, would show. Each run becomes one
// Mark. Shorter secrets are removed only whole: their pieces would be
// too short to tell from ordinary text. So are values that are not
// tokens (Pieced: ones holding a space, a URL, a path), which a server's
// env may pass on as secrets: the pieces of "postgres://…@localhost:5432"
// or "/home/me/…" are everywhere in ordinary results. Finding the pieces costs one
// lookup per byte of text (an index of the secrets' PieceLen-grams), not
// a search per secret.
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
	"unicode/utf8"
)

// Mark replaces each secret.
const Mark = "[redacted]"

// MinLen is the shortest value treated as a secret: shorter ones ("1",
// "yes") would blank out ordinary text and protect nothing.
const MinLen = 4

// PieceLen is the shortest run of a secret's bytes removed on its own, and
// PieceMinLen the shortest secret whose runs are: a secret of 12 bytes or
// more loses any 8 of its consecutive bytes found anywhere.
const (
	PieceLen    = 8
	PieceMinLen = 12
)

// Secrets is a set of values to remove. The zero value removes nothing. A
// Secrets is immutable, so it is safe to share between goroutines; With
// returns a new one.
type Secrets struct {
	forms []string // every form to replace, longest first
	grams *grams   // the PieceLen-grams of the forms of PieceMinLen bytes or more; nil when none
}

// New returns the set of values (those shorter than MinLen are ignored).
func New(values ...string) Secrets { return Secrets{}.With(values...) }

// With returns the set with values added.
func (s Secrets) With(values ...string) Secrets {
	forms := slices.Clone(s.forms)
	var long []string
	for _, v := range values {
		if len(v) < MinLen {
			continue
		}
		forms = append(forms, v)
		pieced := Pieced(v)
		if pieced {
			long = append(long, v)
		}
		if esc, err := json.Marshal(v); err == nil {
			if e := string(esc[1 : len(esc)-1]); e != v {
				forms = append(forms, e)
				if pieced {
					long = append(long, e)
				}
			}
		}
	}
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return Secrets{forms: slices.Compact(forms), grams: s.grams.with(long)}
}

// Pieced reports whether v is removed in part as well as whole: a token
// of PieceMinLen bytes or more, without whitespace, "://" or a leading
// "/" or "~" (a URL or a path, whose pieces are ordinary text).
func Pieced(v string) bool {
	return len(v) >= PieceMinLen && !strings.ContainsAny(v, " \t\r\n") && !strings.Contains(v, "://") &&
		!strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~")
}

// Join returns the secrets of s and o together.
func (s Secrets) Join(o Secrets) Secrets {
	switch {
	case o.Empty():
		return s
	case s.Empty():
		return o
	}
	forms := append(slices.Clone(s.forms), o.forms...)
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return Secrets{forms: slices.Compact(forms), grams: s.grams.join(o.grams)}
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
	spans := pieces(s.grams, text)
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, sp := range spans {
		b.WriteString(text[last:sp[0]])
		b.WriteString(Mark)
		last = sp[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// Bytes is String for bytes; b is returned as it is when it holds no
// secret.
func (s Secrets) Bytes(b []byte) []byte {
	for _, f := range s.forms {
		if bytes.Contains(b, []byte(f)) {
			b = bytes.ReplaceAll(b, []byte(f), []byte(Mark))
		}
	}
	spans := pieces(s.grams, b)
	if len(spans) == 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	last := 0
	for _, sp := range spans {
		out = append(out, b[last:sp[0]]...)
		out = append(out, Mark...)
		last = sp[1]
	}
	return append(out, b[last:]...)
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

// grams is the set of the PieceLen-byte runs of the long secrets, each
// read as a little-endian uint64, with a bit filter in front of the map
// (most of a text's runs are in no secret: one bit test each).
type grams struct {
	set    map[uint64]struct{}
	filter [1 << (filterBits - 6)]uint64
}

const filterBits = 16

func filterBit(x uint64) uint64 { return (x * 0x9E3779B97F4A7C15) >> (64 - filterBits) }

// with returns g with the runs of secrets added (g itself when there are
// none to add); a nil g holds none.
func (g *grams) with(secrets []string) *grams {
	if len(secrets) == 0 {
		return g
	}
	next := &grams{set: map[uint64]struct{}{}}
	if g != nil {
		next.set = make(map[uint64]struct{}, len(g.set))
		for x := range g.set {
			next.set[x] = struct{}{}
		}
		next.filter = g.filter
	}
	for _, v := range secrets {
		for i := 0; i+PieceLen <= len(v); i++ {
			x := load(v[i : i+PieceLen])
			next.set[x] = struct{}{}
			f := filterBit(x)
			next.filter[f>>6] |= 1 << (f & 63)
		}
	}
	return next
}

// join returns the runs of g and o together.
func (g *grams) join(o *grams) *grams {
	switch {
	case o == nil:
		return g
	case g == nil:
		return o
	}
	next := &grams{set: make(map[uint64]struct{}, len(g.set)+len(o.set))}
	for x := range g.set {
		next.set[x] = struct{}{}
	}
	for x := range o.set {
		next.set[x] = struct{}{}
	}
	for i := range next.filter {
		next.filter[i] = g.filter[i] | o.filter[i]
	}
	return next
}

func load[T string | []byte](s T) uint64 {
	var x uint64
	for i := PieceLen - 1; i >= 0; i-- {
		x = x<<8 | uint64(s[i])
	}
	return x
}

// pieces returns the spans [start, end) of text made of runs of a long
// secret, in order, merged where they touch or overlap and widened to
// whole UTF-8 characters.
func pieces[T string | []byte](g *grams, text T) [][2]int {
	if g == nil || len(text) < PieceLen {
		return nil
	}
	var spans [][2]int
	x := load(text[:PieceLen])
	for i := 0; ; i++ {
		f := filterBit(x)
		if g.filter[f>>6]&(1<<(f&63)) != 0 {
			if _, ok := g.set[x]; ok {
				start, end := i, i+PieceLen
				for start > 0 && !utf8.RuneStart(text[start]) {
					start--
				}
				for end < len(text) && !utf8.RuneStart(text[end]) {
					end++
				}
				if n := len(spans); n > 0 && spans[n-1][1] >= start {
					spans[n-1][1] = max(spans[n-1][1], end)
				} else {
					spans = append(spans, [2]int{start, end})
				}
			}
		}
		if i+PieceLen >= len(text) {
			return spans
		}
		x = x>>8 | uint64(text[i+PieceLen])<<56
	}
}
