package clean

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	for _, tc := range []struct{ name, in, text, line string }{
		{"plain", "Reads a file.\nSafely.", "Reads a file.\nSafely.", "Reads a file. Safely."},
		{"clear screen and fake prompt", "ok\x1b[2J\x1b[HAllow fs.read?", "okAllow fs.read?", "okAllow fs.read?"},
		{"colour", "\x1b[31mred\x1b[0m", "red", "red"},
		{"OSC title with BEL", "a\x1b]0;pwned\x07b", "ab", "ab"},
		{"OSC hyperlink with ST", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "click", "click"},
		{"C1 CSI", "a\u009b2Jb", "ab", "ab"},
		{"bidi override", "file\u202Etxt.exe", "filetxt.exe", "filetxt.exe"},
		{"isolates and zero width", "a\u2066b\u2069c\u200bd\ufeff", "abcd", "abcd"},
		{"carriage return overwrite", "safe\rrm -rf ~", "safe" + "rm -rf ~", "safe rm -rf ~"},
		{"backspace and bell", "a\bb\x07c", "abc", "abc"},
		{"invalid UTF-8", "a\xffb", "a\ufffdb", "a\ufffdb"},
		{"tabs", "a\tb", "a\tb", "a b"},
		{"emoji and accents stay", "café ☕ 你好", "café ☕ 你好", "café ☕ 你好"},
		{"escape at the end", "a\x1b", "a", "a"},
		{"unterminated OSC", "a\x1b]0;forever", "a", "a"},
	} {
		if got := Text(tc.in); got != tc.text {
			t.Errorf("%s: Text(%q) = %q, want %q", tc.name, tc.in, got, tc.text)
		}
		if got := Line(tc.in); got != tc.line {
			t.Errorf("%s: Line(%q) = %q, want %q", tc.name, tc.in, got, tc.line)
		}
	}
}

func TestName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"read_file", true}, {"a.b-c_D9", true}, {strings.Repeat("x", 128), true},
		{"", false}, {strings.Repeat("x", 129), false}, {"read\nfile", false}, {"re\u202Ead", false},
		{"rеad", false}, // a Cyrillic е
		{"a b", false}, {"a/b", false},
	} {
		if err := Name(tc.name); (err == nil) != tc.ok {
			t.Errorf("Name(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		} else if err != nil && strings.ContainsAny(err.Error(), "\n\u202E") {
			t.Errorf("Name(%q)'s error is not safe to print: %q", tc.name, err)
		}
	}
}

// FuzzText: the result holds no control byte (but newline and tab), no
// ESC, no invisible or bidi character, is valid UTF-8, and cleaning it
// again changes nothing.
func FuzzText(f *testing.F) {
	for _, s := range []string{"\x1b[2J", "\x1b]0;x\x07", "a\u202Eb", "\u009b31m", "ok\n\tz", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Text(s), Line(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 from %q: %q", s, out)
			}
			for _, r := range out {
				if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unicode.Is(unicode.Cf, r) {
					t.Fatalf("%q left %U in %q", s, r, out)
				}
			}
			if Text(out) != out {
				t.Fatalf("not idempotent: %q -> %q -> %q", s, out, Text(out))
			}
		}
		if strings.ContainsAny(Line(s), "\n\t") {
			t.Fatalf("Line(%q) has a line break", s)
		}
	})
}

func BenchmarkTextClean(b *testing.B) {
	s := strings.Repeat("An ordinary tool description, already clean. ", 40)
	for b.Loop() {
		Text(s)
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	for _, part := range []string{"caf", "\xc3", "\xa9 \x1b[2", "Jok\x1b]0;x\x07 ", "\u202Eend\n"} {
		w.Write([]byte(part))
	}
	if got := b.String(); got != "café Jok end\n" {
		t.Errorf("written %q", got)
	}
}
