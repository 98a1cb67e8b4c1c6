// Package clean makes text that servers and models send safe to show.
// Such text is untrusted: an escape sequence in a tool's description or
// result could clear the terminal or print a fake approval prompt, a bidi
// override could show one name and mean another, and a newline in a tool's
// name could forge a line of output. Text strips all of that; Name checks a
// tool name against the MCP specification's rules.
//
// Concurrency: the functions are pure and safe anywhere; a Writer, like the
// io.Writer under it, belongs to one writer at a time.
package clean

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text returns s without control characters (except newline and tab),
// without ANSI and OSC escape sequences (the whole sequence, not only its
// ESC), without bidi overrides and isolates or other invisible format
// characters, and with invalid UTF-8 replaced. Text that is already clean
// is returned as it is, without allocating.
func Text(s string) string {
	if isClean(s, true) {
		return s
	}
	return strip(s, true)
}

// Line is Text for a single line: newlines and tabs become spaces.
func Line(s string) string {
	if isClean(s, false) {
		return s
	}
	return strip(s, false)
}

func isClean(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				if !multiline || (c != '\n' && c != '\t') {
					return false
				}
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || hidden(r) {
			return false
		}
		i += n
	}
	return true
}

// hidden reports whether r is invisible or reorders text: C1 controls,
// bidi embeddings, overrides, isolates and marks, zero-width characters and
// other format characters (Unicode category Cf), and the byte-order mark.
func hidden(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029
}

func strip(s string, multiline bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b: // ESC: skip the whole sequence
			i = skipEscape(s, i)
			continue
		case c == '\n' || c == '\t':
			if multiline {
				b.WriteByte(c)
			} else {
				b.WriteByte(' ')
			}
			i++
			continue
		case c == '\r':
			if !multiline {
				b.WriteByte(' ')
			}
			i++
			continue
		case c < 0x20 || c == 0x7f:
			i++
			continue
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError:
			b.WriteRune(utf8.RuneError)
		case r == 0x9b: // C1 CSI: a sequence like ESC [
			i = skipCSI(s, i+n)
			continue
		case r == 0x9d: // C1 OSC
			i = skipOSC(s, i+n)
			continue
		case r == 0x2028 || r == 0x2029:
			if multiline {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case hidden(r):
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// skipEscape returns the index after the escape sequence at s[i] (an ESC).
func skipEscape(s string, i int) int {
	i++ // ESC
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: up to ST or BEL
		return skipOSC(s, i+1)
	}
	// Two-character sequences (ESC c, ESC 7…), and intermediates (ESC ( B).
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) {
		i++
	}
	return i
}

// skipCSI skips a control sequence's parameters and its final byte.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			return i
		}
		if c < 0x20 && c != 0x1b {
			continue
		}
		if c == 0x1b {
			return i - 1
		}
	}
	return i
}

// skipOSC skips a string up to its terminator: BEL, ESC \ or C1 ST.
func skipOSC(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
		i++
	}
	return i
}

// Hidden finds the first character of s a person would not see as it is:
// a control character (tabs and newlines included), the start of an
// escape sequence, a bidi or invisible format character, or invalid
// UTF-8. It returns a description ("U+001B (an escape)"), the byte offset,
// and whether there is one.
func Hidden(s string) (string, int, bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			return fmt.Sprintf("byte %#02x (invalid UTF-8)", s[i]), i, true
		case r == 0x1b:
			return "U+001B (an escape, which starts a terminal sequence)", i, true
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("U+%04X (a control character)", r), i, true
		case hidden(r):
			return fmt.Sprintf("U+%04X (an invisible or bidi character)", r), i, true
		}
		i += n
	}
	return "", 0, false
}

// MaxName is the longest tool name the MCP specification allows.
const MaxName = 128

// Name checks a tool name against the MCP specification: 1 to 128
// characters, each a letter, a digit, "_", "-" or ".". The error says what
// is wrong, quoting the name safely.
func Name(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("the name is empty")
	case len(name) > MaxName:
		return fmt.Errorf("the name %s… is %d bytes long (at most %d)", Quote(name[:32]), len(name), MaxName)
	}
	for _, r := range name {
		if !(r < utf8.RuneSelf && (r == '_' || r == '-' || r == '.' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')) {
			return fmt.Errorf("the name %s has %s, which a tool name may not hold (letters, digits, _ - . only)", Quote(name), Quote(string(r)))
		}
	}
	return nil
}

// Quote is a safe, visible rendering of untrusted text: Go-quoted, so that
// control, invisible and bidi characters show as escapes.
func Quote(s string) string { return fmt.Sprintf("%+q", s) }

// Writer cleans everything written through it with Text before passing it
// on. A UTF-8 character split between two writes is kept whole; an escape
// sequence split between writes loses its ESC, which leaves it harmless
// text.
type Writer struct {
	w    io.Writer
	tail []byte // an incomplete UTF-8 sequence held for the next write
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (c *Writer) Write(p []byte) (int, error) {
	data := append(c.tail, p...)
	c.tail = nil
	// Hold back an incomplete character at the end.
	if i := lastRuneStart(data); i >= 0 && !utf8.FullRune(data[i:]) {
		c.tail = append([]byte(nil), data[i:]...)
		data = data[:i]
	}
	if _, err := io.WriteString(c.w, Text(string(data))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// lastRuneStart is the index of the last byte that starts a UTF-8
// character within the last four bytes, or -1.
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return -1
}
