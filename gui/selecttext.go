package gui

import (
	"math"
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
// highlight is drawn behind exactly those characters. A selection runs
// across blocks (a paragraph, a list, a code block): a drag goes on into
// the blocks below or above, and Select all takes the whole message. Ctrl+C copies the selection: the window's
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

// endMark is the end of a block, however many runs it has.
var endMark = mark{run: math.MaxInt32}

// clamp is m within runs: endMark (or a place past the end, after the
// block was laid out again) is the end of the last run.
func clamp(m mark, runs []textRun) mark {
	if len(runs) == 0 {
		return mark{}
	}
	if m.run >= len(runs) {
		last := len(runs) - 1
		return mark{last, len(runs[last].text)}
	}
	return mark{m.run, min(max(m.col, 0), len(runs[m.run].text))}
}

// selText is a selectable rich text: one block of the transcript (a
// paragraph, a list, a code block). What is selected is the window's
// selection (host), which may run across many blocks; a selText draws
// its part of it.
type selText struct {
	widget.BaseWidget
	md   *mdText
	hl   *fyne.Container // the highlight, behind the text
	host *selection      // the window's one selection
	// row is the number of the transcript row it shows (-1: none, or
	// measuring off screen).
	row func() int
	// source, when set, is the text as written (a code block's, the
	// person's own message): what is copied is cut from it, so that line
	// breaks and blank lines are exactly the source's.
	source func() string
	// found is how many of the find bar's matches it marks, foundCur
	// whether the current one is among them (find.go).
	found    int
	foundCur bool
}

func newSelText(host *selection, md *mdText, row func() int) *selText {
	s := &selText{md: md, hl: container.NewWithoutLayout(), host: host, row: row}
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
	s.host.press(spot{s.row(), s.hit(e.Position)})
}

func (s *selText) MouseUp(*desktop.MouseEvent) {}

// Dragged extends the selection to the place under the pointer, in this
// block or any other on screen: the driver sends every move of a drag to
// the widget it began on, with the pointer's place relative to it.
func (s *selText) Dragged(e *fyne.DragEvent) {
	if !s.host.dragging {
		s.host.press(spot{s.row(), s.hit(e.Position.Subtract(e.Dragged))})
	}
	abs := e.AbsolutePosition
	if abs.IsZero() {
		abs = fyne.CurrentApp().Driver().AbsolutePositionForObject(s).Add(e.Position)
	}
	s.host.dragTo(abs)
}

func (s *selText) DragEnd() { s.host.dragging = false }

// Tapped (a click without a drag) clears the selection.
func (s *selText) Tapped(*fyne.PointEvent) { s.host.clear() }

// DoubleTapped selects the word under the pointer.
func (s *selText) DoubleTapped(e *fyne.PointEvent) {
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
	s.host.set(spot{s.row(), mark{m.run, start}}, spot{s.row(), mark{m.run, end}})
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// TappedSecondary offers Copy and Select all.
func (s *selText) TappedSecondary(e *fyne.PointEvent) {
	c := fyne.CurrentApp().Driver().CanvasForObject(s)
	if c == nil {
		return
	}
	cp := fyne.NewMenuItem("Copy", func() { s.host.copy() })
	cp.Disabled = s.host.text() == ""
	row := s.row()
	all := fyne.NewMenuItem("Select all", func() { s.host.selectMessage(row) })
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", cp, all), c, e.AbsolutePosition)
}

// part is this block's part of the selection, in order; ok is false when
// none of it is selected.
func (s *selText) part() (lo, hi mark, ok bool) {
	row := s.row()
	a, b, any := s.host.span()
	if !any || row < 0 || row < a.row || row > b.row {
		return mark{}, mark{}, false
	}
	lo, hi = mark{}, endMark
	if row == a.row {
		lo = a.m
	}
	if row == b.row {
		hi = b.m
	}
	runs := s.md.runs()
	lo, hi = clamp(lo, runs), clamp(hi, runs)
	return lo, hi, lo != hi
}

// isBullet reports whether a run is a list item's bullet ("• ", "2. "):
// a new row starting with one is a new item, not a wrapped line.
func isBullet(text []rune) bool {
	t := strings.TrimSpace(string(text))
	if t == "•" {
		return true
	}
	n, ok := strings.CutSuffix(t, ".")
	if !ok || n == "" {
		return false
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// cut is the text between lo and hi. Rows of one paragraph (a wrapped
// line) are joined with a space; paragraphs and list items with a line
// break.
func (s *selText) cut(lo, hi mark) string {
	runs := s.md.runs()
	lo, hi = clamp(lo, runs), clamp(hi, runs)
	if !lo.before(hi) {
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
		if isBullet(r.text) && c1 == len(r.text) {
			// Fyne draws a bullet as "•  ": one space after it is copied.
			piece = strings.TrimRight(piece, " ") + " "
		}
		if i > lo.run {
			prev := runs[i-1]
			switch {
			case sameRow(prev, r):
				if r.cell && prev.cell {
					b.WriteString("\t") // the next cell of a table's row
				}
			case r.cell && prev.cell:
				b.WriteString("\n") // the table's next row
			default: // a new row: a wrapped line, a new paragraph or list item
				gap := r.pos.Y - (prev.pos.Y + prev.size.Height)
				switch {
				case gap > 0.5 || r.cell != prev.cell || isBullet(r.text):
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
	lo, hi, ok := s.part()
	s.hl.Objects = s.hl.Objects[:0]
	if ok {
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
	if s.host.found != nil {
		s.host.found(s) // the find bar's marks (find.go)
	}
	s.hl.Refresh()
}

// spot is a place in the transcript: a row and a place in its block.
type spot struct {
	row int
	m   mark
}

func (a spot) before(b spot) bool { return a.row < b.row || a.row == b.row && a.m.before(b.m) }

// selection is the window's one selection in the transcript: from the
// place a drag began (anchor) to where it is (focus), across any number
// of blocks. It is kept by row number, not by widget: the list reuses
// its row views as it scrolls, and each view draws its row's part.
type selection struct {
	anchor, focus spot
	active        bool // anchor and focus are set (they may be equal)
	dragging      bool
	// shown are the selectable blocks on screen, in row order.
	shown func() []*selText
	// block is the selectable block of row i laid out off screen (to copy
	// a row scrolled out of view), or nil if the row has none.
	block func(i int) *selText
	// message is the first and last row of the message row i is part of.
	message func(i int) (int, int)
	// unfocus takes the focus from the message box, so that Ctrl+C
	// reaches the window's canvas.
	unfocus func()
	// clip sets the clipboard.
	clip func(string)
	// found, if set, marks what the find bar found in a block.
	found func(*selText)
	// edge, if set, scrolls the transcript when a drag goes past its top
	// or bottom edge (abs is the pointer, absolute in the window).
	edge func(abs fyne.Position)
}

// span is the selection in order; ok is false when nothing is selected.
func (h *selection) span() (lo, hi spot, ok bool) {
	if !h.active || h.anchor == h.focus {
		return spot{}, spot{}, false
	}
	if h.focus.before(h.anchor) {
		return h.focus, h.anchor, true
	}
	return h.anchor, h.focus, true
}

// press begins a selection at p (a press of the mouse).
func (h *selection) press(p spot) {
	h.anchor, h.focus, h.active, h.dragging = p, p, true, true
	if h.unfocus != nil {
		h.unfocus()
	}
	h.redraw()
}

// set selects from a to b.
func (h *selection) set(a, b spot) {
	h.anchor, h.focus, h.active = a, b, true
	if h.unfocus != nil {
		h.unfocus()
	}
	h.redraw()
}

// dragTo moves the selection's end to the place at abs (absolute, in the
// window): in the block under it; between blocks (a header, a tool card)
// the start of the next; past the last block on screen, its end.
func (h *selection) dragTo(abs fyne.Position) {
	if !h.active || h.shown == nil {
		return
	}
	if h.edge != nil {
		h.edge(abs)
	}
	blocks := h.shown()
	if len(blocks) == 0 {
		return
	}
	drv := fyne.CurrentApp().Driver()
	to := spot{blocks[len(blocks)-1].row(), endMark}
	for _, b := range blocks {
		pos := drv.AbsolutePositionForObject(b)
		if abs.Y >= pos.Y+b.Size().Height {
			continue
		}
		if abs.Y < pos.Y {
			to = spot{b.row(), mark{}}
		} else {
			to = spot{b.row(), b.hit(abs.Subtract(pos))}
		}
		break
	}
	if to != h.focus {
		h.focus = to
		h.redraw()
	}
}

// selectMessage selects every block of the message row i is part of.
func (h *selection) selectMessage(i int) {
	if h.message == nil || i < 0 {
		return
	}
	first, last := h.message(i)
	h.set(spot{first, mark{}}, spot{last, endMark})
}

// clear forgets the selection (a click elsewhere).
func (h *selection) clear() {
	if !h.active {
		return
	}
	h.active, h.dragging = false, false
	h.redraw()
}

// redraw draws the selection on every block on screen.
func (h *selection) redraw() {
	if h.shown == nil {
		return
	}
	for _, b := range h.shown() {
		b.draw()
	}
}

// text is what is selected, every block in order, a blank line between
// blocks.
func (h *selection) text() string {
	lo, hi, ok := h.span()
	if !ok {
		return ""
	}
	onScreen := map[int]*selText{}
	if h.shown != nil {
		for _, b := range h.shown() {
			onScreen[b.row()] = b
		}
	}
	var parts []string
	for i := lo.row; i <= hi.row; i++ {
		from, to := mark{}, endMark
		if i == lo.row {
			from = lo.m
		}
		if i == hi.row {
			to = hi.m
		}
		b := onScreen[i]
		if b == nil && h.block != nil {
			b = h.block(i)
		}
		if b == nil {
			continue
		}
		if t := b.cut(from, to); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n\n")
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
