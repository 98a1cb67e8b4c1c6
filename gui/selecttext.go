package gui

import (
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Selecting text in the transcript. Fyne's rich text (which draws the
// Markdown) cannot be selected, and its selectable Label is plain text
// in one style. selText lies over a rich text and selects what the rich
// text drew: it reads the laid-out text objects of the rich text's
// renderer, so a press, a drag or a double click maps to the character
// under the pointer whatever its style (headings, bold, code), and the
// highlight is drawn behind exactly those characters. A selection stays
// within one block (a paragraph, a list, a code block); the whole message
// has its own copy button. Ctrl+C copies the selection: the window's
// canvas has the shortcut, and a press in the transcript takes the focus
// from the message box so that the shortcut reaches it.

// mdText is a rich text that keeps its renderer, to read what it drew.
type mdText struct {
	widget.RichText
	r fyne.WidgetRenderer
}

func newMDText(segs ...widget.RichTextSegment) *mdText {
	t := &mdText{}
	t.Segments = segs
	t.Scroll = container.ScrollNone
	t.ExtendBaseWidget(t)
	return t
}

func (t *mdText) CreateRenderer() fyne.WidgetRenderer {
	t.r = t.RichText.CreateRenderer()
	return t.r
}

// textRun is one drawn piece of text: a row of a paragraph, or a styled
// part of one.
type textRun struct {
	text  []rune
	pos   fyne.Position
	size  fyne.Size
	tsize float32
	style fyne.TextStyle
	cell  bool // a table's cell: cells of a row are copied tab-separated
}

// sameRow reports whether two runs are on one row: their heights overlap
// by half the lower one (inline code and italics sit a little off the
// plain text's top).
func sameRow(a, b textRun) bool {
	top, bottom := max(a.pos.Y, b.pos.Y), min(a.pos.Y+a.size.Height, b.pos.Y+b.size.Height)
	return bottom-top >= min(a.size.Height, b.size.Height)/2
}

// width is the width of the run's first n characters.
func (r textRun) width(n int) float32 {
	if n <= 0 {
		return 0
	}
	return fyne.MeasureText(string(r.text[:min(n, len(r.text))]), r.tsize, r.style).Width
}

// col is the character boundary nearest to x (relative to the run).
func (r textRun) col(x float32) int {
	if x <= 0 {
		return 0
	}
	prev := float32(0)
	for i := 1; i <= len(r.text); i++ {
		w := r.width(i)
		if x < w {
			if x-prev < w-x {
				return i - 1
			}
			return i
		}
		prev = w
	}
	return len(r.text)
}

// runs is what the rich text drew, in reading order.
func (t *mdText) runs() []textRun {
	if t.r == nil {
		return nil
	}
	var out []textRun
	var walk func(objs []fyne.CanvasObject, off fyne.Position)
	walk = func(objs []fyne.CanvasObject, off fyne.Position) {
		for _, o := range objs {
			if !o.Visible() {
				continue
			}
			p := off.Add(o.Position())
			switch o := o.(type) {
			case *canvas.Text:
				if o.Text != "" {
					out = append(out, textRun{text: []rune(o.Text), pos: p, size: o.Size(), tsize: o.TextSize, style: o.TextStyle})
				}
			case *widget.Hyperlink:
				if o.Text != "" {
					pad := theme.InnerPadding()
					out = append(out, textRun{text: []rune(o.Text), pos: p.AddXY(pad, 0), size: o.Size(), tsize: theme.TextSize(), style: o.TextStyle})
				}
			case *fyne.Container:
				walk(o.Objects, p)
			case *tableBox:
				if o.wide {
					walk([]fyne.CanvasObject{o.sc}, p)
				} else {
					walk([]fyne.CanvasObject{o.content}, p)
				}
			case *container.Scroll:
				walk([]fyne.CanvasObject{o.Content}, p)
			case *widget.RichText:
				// A table's cell: its renderer is Fyne's own, so the cell
				// is one run of its text (one line, as cells are).
				if text := strings.TrimSpace(strings.ReplaceAll(o.String(), "\n", " ")); text != "" {
					pad := theme.InnerPadding()
					out = append(out, textRun{text: []rune(text), pos: p.AddXY(pad, pad), size: o.Size().SubtractWidthHeight(2*pad, 2*pad),
						tsize: theme.TextSize(), cell: true})
				}
			}
		}
	}
	walk(t.r.Objects(), fyne.Position{})
	return out
}

// mark is a place between two characters: run number, column.
type mark struct{ run, col int }

func (a mark) before(b mark) bool { return a.run < b.run || a.run == b.run && a.col < b.col }

// selText is a selectable rich text.
type selText struct {
	widget.BaseWidget
	md   *mdText
	hl   *fyne.Container // the highlight, behind the text
	host *selection      // the window's one selection
	// source, when set, is the text as written (a code block's, the
	// person's own message): what is copied is cut from it, so that line
	// breaks and blank lines are exactly the source's.
	source func() string

	from, to mark
	dragging bool
}

func newSelText(host *selection, md *mdText) *selText {
	s := &selText{md: md, hl: container.NewWithoutLayout(), host: host}
	s.ExtendBaseWidget(s)
	return s
}

func (s *selText) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(s.hl, s.md))
}

var (
	_ desktop.Mouseable      = (*selText)(nil)
	_ desktop.Cursorable     = (*selText)(nil)
	_ fyne.Draggable         = (*selText)(nil)
	_ fyne.DoubleTappable    = (*selText)(nil)
	_ fyne.Tappable          = (*selText)(nil)
	_ fyne.SecondaryTappable = (*selText)(nil)
)

func (s *selText) Cursor() desktop.Cursor { return desktop.TextCursor }

// hit is the place under p (relative to the widget). Above the text is its
// start, below it its end; between rows, the next row.
func (s *selText) hit(p fyne.Position) mark {
	runs := s.md.runs()
	if len(runs) == 0 {
		return mark{}
	}
	// The row under p: the first run whose bottom is below p.
	row := -1
	for i, r := range runs {
		if p.Y < r.pos.Y+r.size.Height {
			row = i
			break
		}
	}
	if row < 0 {
		last := len(runs) - 1
		return mark{last, len(runs[last].text)}
	}
	if p.Y < runs[row].pos.Y && row == 0 {
		return mark{0, 0}
	}
	// The row's first run, then the run of that row at p.X.
	for row > 0 && sameRow(runs[row-1], runs[row]) {
		row--
	}
	best := row
	for i := row; i < len(runs) && sameRow(runs[row], runs[i]); i++ {
		if p.X >= runs[i].pos.X {
			best = i
		}
	}
	r := runs[best]
	return mark{best, r.col(p.X - r.pos.X)}
}

func (s *selText) MouseDown(e *desktop.MouseEvent) {
	if e.Button != desktop.MouseButtonPrimary {
		return
	}
	s.host.take(s)
	m := s.hit(e.Position)
	s.from, s.to = m, m
	s.dragging = true
	s.draw()
}

func (s *selText) MouseUp(*desktop.MouseEvent) {}

func (s *selText) Dragged(e *fyne.DragEvent) {
	if !s.dragging {
		s.host.take(s)
		s.from = s.hit(e.Position.Subtract(e.Dragged))
		s.dragging = true
	}
	s.to = s.hit(e.Position)
	s.draw()
}

func (s *selText) DragEnd() { s.dragging = false }

// Tapped (a click without a drag) clears the selection.
func (s *selText) Tapped(*fyne.PointEvent) {
	s.host.take(s)
	s.from, s.to = mark{}, mark{}
	s.draw()
}

// DoubleTapped selects the word under the pointer.
func (s *selText) DoubleTapped(e *fyne.PointEvent) {
	s.host.take(s)
	m := s.hit(e.Position)
	runs := s.md.runs()
	if m.run >= len(runs) {
		return
	}
	text := runs[m.run].text
	start, end := m.col, m.col
	for start > 0 && wordRune(text[start-1]) {
		start--
	}
	for end < len(text) && wordRune(text[end]) {
		end++
	}
	s.from, s.to = mark{m.run, start}, mark{m.run, end}
	s.draw()
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// TappedSecondary offers Copy and Select all.
func (s *selText) TappedSecondary(e *fyne.PointEvent) {
	c := fyne.CurrentApp().Driver().CanvasForObject(s)
	if c == nil {
		return
	}
	cp := fyne.NewMenuItem("Copy", func() { s.host.copy() })
	cp.Disabled = s.selected() == ""
	all := fyne.NewMenuItem("Select all", s.selectAll)
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", cp, all), c, e.AbsolutePosition)
}

// selectAll selects the whole block.
func (s *selText) selectAll() {
	s.host.take(s)
	runs := s.md.runs()
	if len(runs) == 0 {
		return
	}
	s.from, s.to = mark{}, mark{len(runs) - 1, len(runs[len(runs)-1].text)}
	s.draw()
}

// clear forgets the selection (another block was selected, or the view
// shows another block).
func (s *selText) clear() {
	s.from, s.to, s.dragging = mark{}, mark{}, false
	if len(s.hl.Objects) > 0 {
		s.hl.Objects = nil
		s.hl.Refresh()
	}
}

// span is the selection in order.
func (s *selText) span() (mark, mark) {
	if s.to.before(s.from) {
		return s.to, s.from
	}
	return s.from, s.to
}

// selected is the selected text. Rows of one paragraph (a wrapped line)
// are joined with a space, paragraphs and list items with a line break.
func (s *selText) selected() string {
	lo, hi := s.span()
	if lo == hi {
		return ""
	}
	runs := s.md.runs()
	if hi.run >= len(runs) {
		return ""
	}
	if s.source != nil {
		if text, ok := cutSource(s.source(), runs, lo, hi); ok && text != "" {
			return text
		}
	}
	var b strings.Builder
	for i := lo.run; i <= hi.run; i++ {
		r := runs[i]
		c0, c1 := 0, len(r.text)
		if i == lo.run {
			c0 = min(lo.col, c1)
		}
		if i == hi.run {
			c1 = min(hi.col, c1)
		}
		piece := string(r.text[c0:c1])
		if i > lo.run {
			prev := runs[i-1]
			switch {
			case sameRow(prev, r):
				if r.cell && prev.cell {
					b.WriteString("\t") // the next cell of a table's row
				}
			case r.cell && prev.cell:
				b.WriteString("\n") // the table's next row
			default: // a new row: a wrapped line, or a new paragraph
				gap := r.pos.Y - (prev.pos.Y + prev.size.Height)
				switch {
				case gap > 0.5 || r.cell != prev.cell:
					b.WriteString("\n")
				case !strings.HasSuffix(b.String(), " ") && !strings.HasPrefix(piece, " "):
					b.WriteString(" ")
				}
			}
		}
		b.WriteString(piece)
	}
	return b.String()
}

// cutSource is the selection cut from the source text the runs show: each
// run found in it in order, so that what lies between two runs (a line
// break, a blank line, the spaces a wrapped line lost) is the source's.
// ok is false when a run is not found (the source was transformed).
func cutSource(src string, runs []textRun, lo, hi mark) (string, bool) {
	// Tabs are drawn as spaces: look for the runs in the text as drawn,
	// and cut the source at the places they map back to.
	for _, width := range []int{0, 4, 8} {
		shown, back := expandTabs(src, width)
		if text, ok := cutShown(shown, runs, lo, hi); ok {
			from, to := back[text[0]], back[text[1]]
			return src[from:to], true
		}
	}
	return "", false
}

// expandTabs is src with each tab as width spaces (0: unchanged), and for
// each byte of the result (and its end) the offset in src it came from.
func expandTabs(src string, width int) (string, []int) {
	var b strings.Builder
	back := make([]int, 0, len(src)+1)
	for i := 0; i < len(src); i++ {
		if src[i] == '\t' && width > 0 {
			for range width {
				b.WriteByte(' ')
				back = append(back, i)
			}
			continue
		}
		b.WriteByte(src[i])
		back = append(back, i)
	}
	back = append(back, len(src))
	return b.String(), back
}

// cutShown finds the selection's ends in src by placing each run in it,
// in order; it returns the two byte offsets.
func cutShown(src string, runs []textRun, lo, hi mark) ([2]int, bool) {
	starts := make([]int, hi.run+1)
	at := 0
	for i := 0; i <= hi.run; i++ {
		j := strings.Index(src[at:], string(runs[i].text))
		if j < 0 {
			return [2]int{}, false
		}
		starts[i] = at + j
		at = starts[i] + len(string(runs[i].text))
	}
	from := starts[lo.run] + len(string(runs[lo.run].text[:min(lo.col, len(runs[lo.run].text))]))
	to := starts[hi.run] + len(string(runs[hi.run].text[:min(hi.col, len(runs[hi.run].text))]))
	if to < from {
		return [2]int{}, false
	}
	return [2]int{from, to}, true
}

// draw puts the highlight behind the selected characters.
func (s *selText) draw() {
	lo, hi := s.span()
	s.hl.Objects = s.hl.Objects[:0]
	if lo != hi {
		runs := s.md.runs()
		fill := theme.Color(theme.ColorNameSelection)
		for i := lo.run; i <= hi.run && i < len(runs); i++ {
			r := runs[i]
			c0, c1 := 0, len(r.text)
			if i == lo.run {
				c0 = lo.col
			}
			if i == hi.run {
				c1 = hi.col
			}
			x0, x1 := r.width(c0), r.width(c1)
			if x1 <= x0 {
				continue
			}
			rect := canvas.NewRectangle(fill)
			rect.Move(r.pos.AddXY(x0, 0))
			rect.Resize(fyne.NewSize(x1-x0, r.size.Height))
			s.hl.Objects = append(s.hl.Objects, rect)
		}
	}
	s.hl.Refresh()
}

// selection is the window's one selection in the transcript.
type selection struct {
	cur *selText
	// unfocus takes the focus from the message box, so that Ctrl+C
	// reaches the window's canvas.
	unfocus func()
	// clip sets the clipboard.
	clip func(string)
}

// take makes s the selected block, clearing the one before.
func (h *selection) take(s *selText) {
	if h.cur != nil && h.cur != s {
		h.cur.clear()
	}
	h.cur = s
	if h.unfocus != nil {
		h.unfocus()
	}
}

// drop forgets s if it holds the selection (its view shows another row).
func (h *selection) drop(s *selText) {
	s.clear()
	if h.cur == s {
		h.cur = nil
	}
}

// text is what is selected, if anything.
func (h *selection) text() string {
	if h.cur == nil {
		return ""
	}
	return h.cur.selected()
}

// copy puts the selection on the clipboard; false if nothing is selected.
func (h *selection) copy() bool {
	t := h.text()
	if t == "" || h.clip == nil {
		return false
	}
	h.clip(t)
	return true
}
