package richtext

import (
	"strings"
	"testing"
)

// A language chroma does not know, or none, is one plain segment; tabs
// become spaces; the text is kept whole.
func TestHighlightKeepsText(t *testing.T) {
	for _, tt := range []struct{ name, code, lang string }{
		{"no language", "a\tb\n  c", ""},
		{"python", "x = 1\nprint(x)", "python"},
		{"unknown", "SELECT 1;", "no-such-language"},
		{"json", "{\"a\": [1, 2]}", "json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			for _, s := range Highlight(tt.code, tt.lang) {
				b.WriteString(s.Textual())
			}
			if want := strings.ReplaceAll(tt.code, "\t", "    "); b.String() != want {
				t.Errorf("Highlight(%q, %q) = %q, want %q", tt.code, tt.lang, b.String(), want)
			}
		})
	}
}

// Go code is cut into tokens, each a segment of its own colour.
func TestHighlightColoursTokens(t *testing.T) {
	if n := len(Highlight("func main() {}", "go")); n < 3 {
		t.Errorf("Highlight(go code) = %d segments, want at least 3", n)
	}
}
