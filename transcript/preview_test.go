package transcript

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A cut hides no sliver: a text whose rest beyond the head is small is
// not long and shows whole ("… 2 B more" hid a line end and a
// character); a longer rest says how much is hidden.
func TestCutHidesNoSliver(t *testing.T) {
	eight := strings.Repeat("a line of the tool's output\n", CollapseAfter)
	for _, tt := range []struct {
		name   string
		in     string
		long   bool
		hidden int // 0: shown whole
	}{
		{name: "eight lines and a line end", in: eight, long: false},
		{name: "eight lines and a short ninth", in: eight + "ok", long: false},
		{name: "eight lines and many more", in: eight + strings.Repeat("more output here\n", 20), long: true, hidden: 341},
		{name: "short", in: "hello", long: false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Long(tt.in); got != tt.long {
				t.Errorf("Long(%q) = %v, want %v", tt.in, got, tt.long)
			}
			head, hidden := Cut(tt.in)
			if hidden != tt.hidden || !strings.HasPrefix(tt.in, head) || len(head)+hidden != len(tt.in) {
				t.Errorf("Cut(%q) = %q, %d hidden; want %d hidden", tt.in, head, hidden, tt.hidden)
			}
		})
	}
}

// TestWhole: a text shown whole is drawn up to WholeLines lines and
// WholeBytes bytes, cut at a line's end (or inside a character never),
// and says how much is not drawn.
func TestWhole(t *testing.T) {
	line := "a line of the tool's output\n"
	for _, tt := range []struct {
		name      string
		in        string
		wantLines int // lines drawn
		whole     bool
	}{
		{name: "short", in: "hello", wantLines: 1, whole: true},
		{name: "just under the lines", in: strings.Repeat(line, WholeLines-1) + "last", wantLines: WholeLines, whole: true},
		{name: "many lines", in: strings.Repeat(line, 3*WholeLines), wantLines: WholeLines},
		{name: "one huge line", in: strings.Repeat("é", 10<<20), wantLines: 1},
		{name: "long lines", in: strings.Repeat(strings.Repeat("x", 900)+"\n", 200), wantLines: WholeBytes / 901},
	} {
		t.Run(tt.name, func(t *testing.T) {
			shown, hidden := Whole(tt.in)
			if len(shown) > WholeBytes || !strings.HasPrefix(tt.in, shown) || !utf8.ValidString(shown) {
				t.Fatalf("Whole(%d bytes) drew %d bytes, not a whole-character prefix", len(tt.in), len(shown))
			}
			if got := strings.Count(shown, "\n") + 1; got != tt.wantLines {
				t.Errorf("Whole(%d bytes) drew %d lines, want %d", len(tt.in), got, tt.wantLines)
			}
			if (hidden == 0) != tt.whole || (tt.whole && shown != tt.in) || (!tt.whole && len(tt.in)-hidden < len(shown)) {
				t.Errorf("Whole(%d bytes) = %d bytes, %d hidden; want whole %v", len(tt.in), len(shown), hidden, tt.whole)
			}
		})
	}
}
