package widgets

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"
)

// rows is what md drew, a string a row (the runs of a row joined).
func rows(md *MDText) []string {
	var out []string
	runs := md.Runs()
	for i, r := range runs {
		if i > 0 && sameRow(runs[i-1], r) {
			out[len(out)-1] += string(r.Text)
			continue
		}
		out = append(out, string(r.Text))
	}
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// A line break in a paragraph's source is a line break on screen, as in
// chat apps, not a space (CommonMark's soft break) nor nothing (Fyne's
// hard break); lists, quotes, tables and code keep their shape.
func TestMarkdownKeepsLineBreaks(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string
	}{
		{"poem", "Roses are red,\nthe zebrafinch sings,\nsugar is sweet.", []string{"Roses are red,", "the zebrafinch sings,", "sugar is sweet."}},
		{"styled line ends", "a **bold**\n_an italic_\nsee `code`\n[a link](https://example.com)\nend", []string{"a bold", "an italic", "see code", "a link", "end"}},
		{"hard breaks", "two spaces  \nbackslash\\\nend", []string{"two spaces", "backslash", "end"}},
		{"paragraphs", "one\n\ntwo\nthree", []string{"one", "two", "three"}},
		{"quote", "> quoted\n> lines", []string{"quoted", "lines"}},
		{"heading", "Title\nof two lines\n===", []string{"Title", "of two lines"}},
		{"list items joined", "- one\n  more\n- two", []string{"•  one more", "•  two"}},
		{"table", "a | b\n--|--\n1 | 2", []string{"ab", "12"}},
		{"one line", "just *one* line\n", []string{"just one line"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			md := NewMDText(MarkdownSegments(tt.src)...)
			md.Wrapping = fyne.TextWrapWord
			test.NewTempWindow(t, md).Resize(fyne.NewSize(500, 400))
			if diff := cmp.Diff(tt.want, rows(md)); diff != "" {
				t.Errorf("MarkdownSegments(%q) rows (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}
