package transcript

import (
	"strings"
	"testing"
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
