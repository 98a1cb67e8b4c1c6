package richtext

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
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

// FuzzMarkdownSegments: keeping line breaks changes only white space:
// the segments have Fyne's shape (the same kinds, nested alike) and the
// same text but for spaces and line breaks; the mark never shows.
func FuzzMarkdownSegments(f *testing.F) {
	for _, s := range []string{"Roses are red,\nthe zebrafinch sings,", "a **b**\n_c_\nd", "> q\n> r", "- a\n  b\n- c", "a | b\n--|--\n1 | 2",
		"hard  \nback\\\nend", "foo *\nbar*", "_a_\n_b_", "```\ncode\n```\nafter\nmore", "Title\nmore\n===", "[a\nb](u) c\nd", "- [ ] t\n  u", "a *\\\nb*", "![a\nb](u) c\nd", "- [x] `c` d\n- [ ] e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.ContainsRune(src, lineSep) || strings.ContainsRune(src, boxMark) {
			t.Skip("the source holds a mark itself")
		}
		// Tasks that are not one plain run are text (plainTasks), images
		// are links (image_test.go).
		fyneSegs := widget.NewRichTextFromMarkdown(plainTasks(src)).Segments
		dropMarks(fyneSegs)
		codeText(fyneSegs)
		alts := imageAlts(src)
		want, got := shape(imageLinks(fyneSegs, &alts)), shape(MarkdownSegments(src))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("MarkdownSegments(%q) differs from Fyne's beyond white space (-want +got):\n%s", src, diff)
		}
		if strings.ContainsRune(strings.Join(got, ""), lineSep) {
			t.Errorf("MarkdownSegments(%q) shows the mark", src)
		}
	})
}

// shape is segs as a list of their kinds and text, without white space
// (and text segments of nothing else).
func shape(segs []widget.RichTextSegment) []string {
	var out []string
	for _, s := range segs {
		switch s := s.(type) {
		case *widget.TextSegment:
			if t := strings.Join(strings.Fields(s.Text), ""); t != "" { // not a break's own segment
				out = append(out, "text:"+t)
			}
		case *widget.ParagraphSegment:
			out = append(out, "para{")
			out = append(out, shape(s.Texts)...)
			out = append(out, "}")
		case *widget.ListSegment:
			out = append(out, "list{")
			out = append(out, shape(s.Items)...)
			out = append(out, "}")
		default:
			out = append(out, fmt.Sprintf("%T:%s", s, strings.Join(strings.Fields(s.Textual()), "")))
		}
	}
	return out
}

// TestFindAcrossLines: MDText.Find finds a match that a wrapped line
// cuts (as Fyne drew it, the line's last word and the next line's
// first), and one that begins in the text of the row before (Lead), as
// the parts of the runs it covers.
func TestFindAcrossLines(t *testing.T) {
	test.NewTempApp(t)
	rt := NewMDText(MarkdownSegments(strings.Repeat("The quick brown fox jumps over the lazy dog. ", 6))...)
	rt.Wrapping = fyne.TextWrapWord
	w := test.NewTempWindow(t, rt)
	w.Resize(fyne.NewSize(200, 600))
	runs := rt.Runs()
	if len(runs) < 3 {
		t.Fatalf("the text drew %d runs at 200 px, want it wrapped", len(runs))
	}
	// The words around the first wrap.
	first, second := strings.Fields(string(runs[0].Text)), strings.Fields(string(runs[1].Text))
	across := first[len(first)-1] + " " + second[0]
	part := func(p RunPart) string { return string(p.Run.Text[p.From:p.To]) }
	tests := []struct {
		name, q, before, after string
		parts                  []string // the first match's parts
		lead                   bool     // it began before
	}{
		{name: "across a wrap", q: across, parts: []string{first[len(first)-1], second[0]}},
		{name: "from the row before", q: "going. the quick", before: "keeps going. ", parts: []string{"The quick"}, lead: true},
		{name: "into the row after", q: "lazy dog. Sentence", after: " Sentence", parts: []string{"lazy dog."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rt.Find(runs, FoldRunes(tt.q), []rune(tt.before), []rune(tt.after))
			if tt.after != "" && len(got) > 0 {
				got = got[len(got)-1:] // the match into the row after is the last
			}
			if len(got) == 0 {
				t.Fatalf("Find(%q) found nothing", tt.q)
			}
			var parts []string
			for _, p := range got[0].Parts {
				parts = append(parts, part(p))
			}
			if diff := cmp.Diff(tt.parts, parts); diff != "" || got[0].Lead != tt.lead {
				t.Errorf("Find(%q): lead %v, want %v; parts (-want +got):\n%s", tt.q, got[0].Lead, tt.lead, diff)
			}
		})
	}
}
