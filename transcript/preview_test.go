package transcript

import (
	"strings"
	"testing"
)

// A preview hides no sliver: a text whose rest beyond the head is small
// is not long and shows whole ("… 2 B more" hid a line end and a
// character); a longer rest says how much and where the rest is.
func TestPreviewHidesNoSliver(t *testing.T) {
	eight := strings.Repeat("a line of the tool's output\n", CollapseAfter)
	for _, tt := range []struct {
		name     string
		in       string
		long     bool
		wantMore string // "" : shown whole
	}{
		{name: "eight lines and a line end", in: eight, long: false},
		{name: "eight lines and a short ninth", in: eight + "ok", long: false},
		{name: "eight lines and many more", in: eight + strings.Repeat("more output here\n", 20), long: true, wantMore: "… 341 B more (Show all)"},
		{name: "short", in: "hello", long: false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Long(tt.in); got != tt.long {
				t.Errorf("Long(%q) = %v, want %v", tt.in, got, tt.long)
			}
			p := Preview(tt.in)
			if tt.wantMore == "" {
				if p != tt.in {
					t.Errorf("Preview(%q) = %q, want it whole", tt.in, p)
				}
				return
			}
			if !strings.HasSuffix(p, "\n"+tt.wantMore) {
				t.Errorf("Preview(%q) = %q, want it to end %q", tt.in, p, tt.wantMore)
			}
		})
	}
}
