package widgets

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Markdown as a chat shows it: Fyne's rich text from Markdown, except that
// a line break in a paragraph's source (a quote's, a heading's) stays a
// line break, as chat apps show an answer, where CommonMark joins the
// lines with a space (a soft break) and Fyne's renderer drops a hard one
// ("two spaces" or a backslash at the end of a line) altogether. A list
// item's lines are still joined: Fyne would start its second line under
// the bullet, not under the item's text.
//
// Fyne parses and renders in one call with a goldmark of its own, which
// takes no options and whose renderer only knows soft breaks as a space.
// So the source is parsed once here with the same extensions, and
// lineSep is put at the end of each line that ends in such a break;
// Fyne's segments then carry it, and it becomes "\n" in them: Fyne lays a
// newline in a text segment out as a new row with no paragraph's gap. The
// mark is Unicode's own line separator: goldmark reads it as white space,
// as it reads the line's end, so emphasis at the end of a line opens and
// closes as before, and a separator the text already held is a line
// break as well.

// lineSep marks a line break in the source given to Fyne.
const lineSep = '\u2028'

// markdown parses as Fyne's rich text does (its extensions).
var markdown = goldmark.New(goldmark.WithExtensions(extension.Strikethrough, extension.TaskList, extension.Table))

// MarkdownSegments are the rich text segments of src, its line breaks
// kept (above).
func MarkdownSegments(src string) []widget.RichTextSegment {
	if !strings.Contains(strings.TrimRight(src, "\n"), "\n") && !strings.ContainsRune(src, lineSep) {
		return widget.NewRichTextFromMarkdown(src).Segments // one line: nothing to keep
	}
	segs := widget.NewRichTextFromMarkdown(markBreaks(src)).Segments
	keepBreaks(segs)
	return segs
}

// markBreaks is src with lineSep at the end of each line of inline text
// that ends in a break. List items (above), code spans, links and images
// are left as they are: Fyne draws the text of the last three as one
// piece (a code span's line break is a space).
func markBreaks(src string) string {
	b := []byte(src)
	doc := markdown.Parser().Parse(text.NewReader(b))
	var at []int
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.ListItem, *ast.CodeSpan, *ast.Link, *ast.Image, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *east.Table:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if n.SoftLineBreak() || n.HardLineBreak() {
				at = append(at, n.Segment.Stop)
			}
		}
		return ast.WalkContinue, nil
	})
	if len(at) == 0 {
		return src
	}
	slices.Sort(at)
	at = slices.Compact(at)
	var out strings.Builder
	out.Grow(len(src) + 3*len(at))
	prev := 0
	for _, i := range at {
		out.Write(b[prev:i])
		out.WriteRune(lineSep)
		prev = i
	}
	out.Write(b[prev:])
	return out.String()
}

// keepBreaks turns the marks in segs' text into line breaks. Fyne adds a
// space after a soft break's text; the break takes its place.
func keepBreaks(segs []widget.RichTextSegment) {
	for _, s := range segs {
		switch s := s.(type) {
		case *widget.TextSegment:
			if strings.ContainsRune(s.Text, lineSep) {
				s.Text = strings.ReplaceAll(strings.ReplaceAll(s.Text, string(lineSep)+" ", "\n"), string(lineSep), "\n")
			}
		case *widget.ParagraphSegment:
			keepBreaks(s.Texts)
		case *widget.ListSegment:
			keepBreaks(s.Items)
		}
	}
}
