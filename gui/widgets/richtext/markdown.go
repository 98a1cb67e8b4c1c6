package richtext

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
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
// lineSep is put at the start of each line that follows such a break;
// Fyne's segments then carry it, and it becomes "\n" in them: Fyne lays a
// newline in a text segment out as a new row with no paragraph's gap.
// The mark is Unicode's own line separator, which goldmark reads as
// white space, as it reads the line's end before it: emphasis that opens
// at the start of the line opens as before, and the line above is not
// touched (a mark at its end turned "*\" before a backslash's break
// into white space). A separator the text already held is a line break
// as well.

// lineSep marks a line break in the source given to Fyne.
const lineSep = '\u2028'

// markdown parses as Fyne's rich text does (its extensions).
var markdown = goldmark.New(goldmark.WithExtensions(extension.Strikethrough, extension.TaskList, extension.Table))

// MarkdownSegments are the rich text segments of src, its line breaks
// kept (above).
func MarkdownSegments(src string) []widget.RichTextSegment {
	src = plainTasks(src)
	var segs []widget.RichTextSegment
	if !strings.Contains(strings.TrimRight(src, "\n"), "\n") && !strings.ContainsRune(src, lineSep) {
		segs = widget.NewRichTextFromMarkdown(src).Segments // one line: nothing to keep
	} else {
		segs = widget.NewRichTextFromMarkdown(markBreaks(src)).Segments
		keepBreaks(segs)
	}
	if strings.ContainsRune(src, boxMark) {
		dropMarks(segs)
	}
	if strings.Contains(src, "![") {
		alts := imageAlts(src)
		segs = imageLinks(segs, &alts)
	}
	codeText(segs)
	return segs
}

// codeText makes each code block of segs (an indented one: a fenced one
// is a row of its own, package chat's) monospace text. Fyne draws a code
// block as a label in a scroller of its own, whose text cannot be
// selected, copied or found, and which took the wheel's turns.
func codeText(segs []widget.RichTextSegment) {
	for i, s := range segs {
		switch s := s.(type) {
		case *widget.CodeBlockSegment:
			segs[i] = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: s.Text}
		case *widget.ParagraphSegment:
			codeText(s.Texts)
		case *widget.ListSegment:
			codeText(s.Items)
		}
	}
}

// A task ("- [ ] text") is drawn by Fyne as a check box whose label is
// the first node of the text after the box, as plain text on one line:
// the rest (after bold, code, a link, a line break) was not drawn, a long
// task ran on past the window's edge instead of wrapping, a click on the
// box ticked it, and a task whose text began with code, a link or
// emphasis panicked in Fyne's renderer (it takes that first node for
// text). So every task's box is put off (boxMark), and the item is drawn
// as any list item's text, the box as written: "[ ]", "[x]". (Fyne shows
// the source of a text, so a backslash would show; the segments lose the
// mark.)

// boxMark, before a task's box, makes it text.
const boxMark = '\uE000'

// taskBox is a task's box as the task list extension reads it.
var taskBox = regexp.MustCompile(`\[[\s\xB0-\xBFxX]\]`)

// plainTasks is src with each task's box put off.
func plainTasks(src string) string {
	if !taskBox.MatchString(src) {
		return src
	}
	b := []byte(src)
	var at []int
	_ = ast.Walk(markdown.Parser().Parse(text.NewReader(b)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		box, ok := n.(*east.TaskCheckBox)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		// The item's text (a tight list's text block, a loose one's
		// paragraph, where Fyne dropped the box) begins with the box.
		blk := box.Parent()
		if blk == nil || blk.Type() != ast.TypeBlock || blk.Lines().Len() == 0 {
			return ast.WalkContinue, nil
		}
		if i := blk.Lines().At(0).Start; i < len(b) && b[i] == '[' {
			at = append(at, i)
		}
		return ast.WalkContinue, nil
	})
	if len(at) == 0 {
		return src
	}
	return insertAt(b, at, boxMark)
}

// dropMarks takes boxMark out of segs' text.
func dropMarks(segs []widget.RichTextSegment) {
	for _, s := range segs {
		switch s := s.(type) {
		case *widget.TextSegment:
			s.Text = strings.ReplaceAll(s.Text, string(boxMark), "")
		case *widget.ParagraphSegment:
			dropMarks(s.Texts)
		case *widget.ListSegment:
			dropMarks(s.Items)
		}
	}
}

// An image in Markdown is shown as a link to it, named by its alt text,
// not fetched: Fyne's rich text loads an image's address as it draws it,
// and in an answer that address is the model's, which words read from a
// tool can choose; the fetch would send whatever the address holds (a
// secret put in it) to its server with nothing asked of the person. A
// link opens in the browser only when the person clicks it. An address
// that is not the web's (a file, a relative path) is not a link.

// imageRef is an image of the source: its address as Fyne reads it, and its
// alt text.
type imageRef struct{ src, alt string }

// imageAlts are src's images, in order.
func imageAlts(src string) []imageRef {
	b := []byte(src)
	var alts []imageRef
	_ = ast.Walk(markdown.Parser().Parse(text.NewReader(b)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		img, ok := n.(*ast.Image)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		var alt strings.Builder
		_ = ast.Walk(img, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if t, ok := n.(*ast.Text); ok && entering {
				alt.Write(t.Segment.Value(b))
			}
			return ast.WalkContinue, nil
		})
		// As Fyne's parseMarkdownImage reads the address.
		dest := string(img.Destination)
		u, err := storage.ParseURI(dest)
		if err != nil {
			u = storage.NewFileURI(dest)
		}
		alts = append(alts, imageRef{src: u.String(), alt: alt.String()})
		return ast.WalkSkipChildren, nil
	})
	return alts
}

// imageLinks is segs with each image a link (above), named by its alt
// text: the first of alts with its address, which is then used up.
func imageLinks(segs []widget.RichTextSegment, alts *[]imageRef) []widget.RichTextSegment {
	for i, s := range segs {
		switch s := s.(type) {
		case *widget.ImageSegment:
			name := "image"
			if k := slices.IndexFunc(*alts, func(a imageRef) bool { return a.src == s.Source.String() }); k >= 0 {
				if a := strings.TrimSpace((*alts)[k].alt); a != "" {
					name = a
				}
				*alts = slices.Delete(*alts, k, k+1)
			}
			name = "Image: " + name
			u, err := url.Parse(s.Source.String())
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
				segs[i] = &widget.TextSegment{Style: widget.RichTextStyleInline, Text: name}
				continue
			}
			segs[i] = &widget.HyperlinkSegment{Alignment: fyne.TextAlignLeading, Text: name, URL: u}
		case *widget.ParagraphSegment:
			s.Texts = imageLinks(s.Texts, alts)
		case *widget.ListSegment:
			s.Items = imageLinks(s.Items, alts)
		case *widget.TableSegment:
			for _, row := range append([][][]widget.RichTextSegment{s.Headers}, s.Rows...) {
				for k, cell := range row {
					row[k] = imageLinks(cell, alts)
				}
			}
		}
	}
	return segs
}

// markBreaks is src with lineSep at the start of each line of inline text
// after a break (past its indent). List items (above), code spans, links
// and images are left as they are: Fyne draws the text of the last three
// as one piece (a code span's line break is a space).
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
				if i, ok := nextLine(b, n); ok {
					at = append(at, i)
				}
			}
		}
		return ast.WalkContinue, nil
	})
	if len(at) == 0 {
		return src
	}
	slices.Sort(at)
	return insertAt(b, slices.Compact(at), lineSep)
}

// insertAt is b with r put before each byte offset of at (ascending).
func insertAt(b []byte, at []int, r rune) string {
	var out strings.Builder
	out.Grow(len(b) + utf8.RuneLen(r)*len(at))
	prev := 0
	for _, i := range at {
		out.Write(b[prev:i])
		out.WriteRune(r)
		prev = i
	}
	out.Write(b[prev:])
	return out.String()
}

// nextLine is where the text of the line after t's starts in src: in the
// lines of t's block (a paragraph's, a heading's, past a quote's marker),
// the one after the line t ends on, past its spaces.
func nextLine(src []byte, t *ast.Text) (int, bool) {
	blk := t.Parent()
	for blk != nil && blk.Type() != ast.TypeBlock {
		blk = blk.Parent()
	}
	if blk == nil {
		return 0, false
	}
	lines := blk.Lines()
	for k := range lines.Len() - 1 {
		line, next := lines.At(k), lines.At(k+1)
		if t.Segment.Stop < line.Start || t.Segment.Stop > line.Stop {
			continue
		}
		i := next.Start
		for i < next.Stop && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		return i, i < next.Stop
	}
	return 0, false
}

// keepBreaks turns the marks in segs' text into line breaks. Fyne ended
// the line before with a space (a soft break's); the break takes its
// place.
func keepBreaks(segs []widget.RichTextSegment) {
	for i, s := range segs {
		switch s := s.(type) {
		case *widget.TextSegment:
			if !strings.ContainsRune(s.Text, lineSep) {
				continue
			}
			if before, ok := segs[max(i-1, 0)].(*widget.TextSegment); ok && i > 0 && strings.HasPrefix(s.Text, string(lineSep)) {
				before.Text = strings.TrimSuffix(before.Text, " ")
			}
			s.Text = strings.ReplaceAll(strings.ReplaceAll(s.Text, " "+string(lineSep), "\n"), string(lineSep), "\n")
		case *widget.ParagraphSegment:
			keepBreaks(s.Texts)
		case *widget.ListSegment:
			keepBreaks(s.Items)
		}
	}
}

// SegmentsText is the text segs draw, without the spaces and line breaks
// that lay them out (but a table's, its cells a tab apart and its rows
// a line apart, as they are copied): what a search reads of a block not
// laid out.
func SegmentsText(segs []widget.RichTextSegment) string {
	var b strings.Builder
	var walk func(segs []widget.RichTextSegment)
	table := func(t *widget.TableSegment) {
		for _, row := range append([][][]widget.RichTextSegment{t.Headers}, t.Rows...) {
			for i, cell := range row {
				if i > 0 {
					b.WriteString("\t")
				}
				walk(cell)
			}
			b.WriteString("\n")
		}
	}
	walk = func(segs []widget.RichTextSegment) {
		for _, s := range segs {
			switch s := s.(type) {
			case *widget.TableSegment:
				table(s)
			case *fitTable:
				table(s.TableSegment)
			case *widget.TextSegment:
				b.WriteString(s.Text)
			case *widget.HyperlinkSegment:
				b.WriteString(s.Text)
			case *widget.ParagraphSegment:
				walk(s.Texts)
			case *widget.ListSegment:
				walk(s.Items)
			}
		}
	}
	walk(segs)
	return b.String()
}
