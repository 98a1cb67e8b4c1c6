package richtext

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// Selecting all of a block of each kind Markdown has and copying it
// gives the block's text as drawn, in order, each item and row on a
// line; and every piece of text drawn is highlighted.
func TestSelectAllCopiesEachBlock(t *testing.T) {
	const code = "func main() {\n\tfmt.Println(\"hi\")\n}"
	for _, tt := range []struct {
		name string
		segs []widget.RichTextSegment
		src  string // the source a code block is copied from
		fit  bool   // its tables drawn as the chat does (FitTables)
		want string
	}{
		{name: "task list", segs: MarkdownSegments("- [ ] an open task\n- [x] a done task"), want: "• [ ] an open task\n• [x] a done task"},
		{name: "loose task list", segs: MarkdownSegments("- [ ] an open task\n\n- [x] a done task"), want: "• [ ] an open task\n• [x] a done task"},
		{name: "tasks among items", segs: MarkdownSegments("- plain\n- [x] done\n  - [ ] nested task"), want: "• plain\n• [x] done\n    • [ ] nested task"},
		{name: "nested list", segs: MarkdownSegments("- one\n  - nested\n  - more\n- two"), want: "• one\n    • nested\n    • more\n• two"},
		{name: "ordered list", segs: MarkdownSegments("1. first\n2. second\n3. third"), want: "1. first\n2. second\n3. third"},
		{name: "quote", segs: MarkdownSegments("> quoted\n> lines"), want: "quoted\nlines"},
		{name: "table", segs: MarkdownSegments("| a | b |\n|---|---|\n| 1 | 2 |"), want: "a\tb\n1\t2"},
		{name: "table as the chat draws it", segs: MarkdownSegments("| a | b |\n|---|---|\n| 1 | 2 |"), fit: true, want: "a\tb\n1\t2"},
		{name: "heading", segs: MarkdownSegments("# Heading\n\ntext under it"), want: "Heading\ntext under it"},
		{name: "link and styles", segs: MarkdownSegments("see [a link](https://example.com), `code` and **bold**"), want: "see a link, code and bold"},
		{name: "image", segs: MarkdownSegments("see ![a chart](https://example.com/c.png) here"), want: "see Image: a chart here"},
		{name: "code block", segs: Highlight(code, "go"), src: code, want: code},
		// A word wider than the line is wrapped inside it: copied whole
		// (new-user pass 8 copied "in_the_window_at_ small_sizes_ok"),
		// and the wrapped words around it with a space.
		{name: "long word", segs: MarkdownSegments(longWord), want: longWord},
		{name: "indented code", segs: MarkdownSegments("Text:\n\n    func main() {\n        x := 1\n    }\n\nafter"), want: "Text:\nfunc main() {\n    x := 1\n}\nafter"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			md := NewMDText(tt.segs...)
			md.Wrapping = fyne.TextWrapWord
			if tt.fit && !FitTables(md) {
				t.Fatal("FitTables found no table")
			}
			sel := &Selection{}
			block := NewSelText(sel, md, func() int { return 0 })
			if tt.src != "" {
				block.Source = func() string { return tt.src }
			}
			sel.Shown = func() []*SelText { return []*SelText{block} }
			sel.Message = func(int) (int, int) { return 0, 0 }
			test.NewTempWindow(t, block).Resize(fyne.NewSize(500, 400))

			sel.SelectMessage(0)
			if got := sel.Text(); got != tt.want {
				t.Errorf("Select all, copy = %q, want %q", got, tt.want)
			}
			text := SegmentsText(md.Segments)
			for _, r := range md.Runs() {
				if !marked(block, r) {
					t.Errorf("%q at %v is not highlighted", string(r.Text), r.Pos)
				}
				// A search of the block off screen reads what it draws.
				if w := strings.TrimSpace(string(r.Text)); !isBullet(r.Text) && !strings.Contains(text, w) {
					t.Errorf("SegmentsText = %q, without %q", text, w)
				}
			}
		})
	}
}

// longWord is a paragraph with a word wider than a 500 px line.
var longWord = "Words before it wrap as words do, then " + strings.Repeat("in_the_window_at_small_sizes_", 5) +
	"ok and after it more words, enough of them to wrap at least once more at this width."

// marked reports whether a mark of s covers all of run r's text.
func marked(s *SelText, r TextRun) bool {
	for _, o := range append(s.Marks.Objects, s.Over.Objects...) {
		if _, ok := o.(*canvas.Rectangle); !ok {
			continue
		}
		p, z := o.Position(), o.Size()
		if p.Y == r.Pos.Y && p.X <= r.Pos.X && p.X+z.Width >= r.Pos.X+r.Width(len(r.Text)) {
			return true
		}
	}
	return false
}

// A task shows and copies all its text, wrapped: Fyne's check box held
// one node of text on one line (no more after a code span, a link, bold
// or a line break; a long one ran past the edge), and panicked on a task
// beginning with code or a link.
func TestMarkdownTasksKeepTheirText(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"- [x] `go test` passes", "• [x] go test passes"},
		{"- [ ] [the docs](https://example.com) updated", "• [ ] the docs updated"},
		{"- [ ] an **open** task", "• [ ] an open task"},
		{"- [ ] two\n  lines", "• [ ] two lines"},
		{"- [ ] plain\n- [x] *done*", "• [ ] plain\n• [x] done"},
		{"> - [x] `quoted`", "• [x] quoted"},
		{"- [ ] " + strings.Repeat("word ", 60), "• [ ] " + strings.TrimSpace(strings.Repeat("word ", 60))},
	} {
		t.Run(tt.src, func(t *testing.T) {
			test.NewTempApp(t)
			var segs []widget.RichTextSegment
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("MarkdownSegments(%q) panics: %v", tt.src, r)
					}
				}()
				segs = MarkdownSegments(tt.src)
			}()
			md := NewMDText(segs...)
			md.Wrapping = fyne.TextWrapWord
			sel := &Selection{}
			block := NewSelText(sel, md, func() int { return 0 })
			sel.Shown = func() []*SelText { return []*SelText{block} }
			sel.Message = func(int) (int, int) { return 0, 0 }
			test.NewTempWindow(t, block).Resize(fyne.NewSize(500, 400))
			sel.SelectMessage(0)
			if got := sel.Text(); got != tt.want {
				t.Errorf("MarkdownSegments(%q), Select all, copy = %q, want %q", tt.src, got, tt.want)
			}
			for _, r := range md.Runs() {
				if right := r.Pos.X + r.Width(len(r.Text)); right > md.Size().Width {
					t.Errorf("MarkdownSegments(%q): %q ends at %v, past the text's width %v", tt.src, string(r.Text), right, md.Size().Width)
				}
			}
		})
	}
}
