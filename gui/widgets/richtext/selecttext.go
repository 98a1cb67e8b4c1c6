package richtext

import (
	"image/color"
	"math"
	"slices"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Selecting text in a list of rich texts (a chat's transcript). Fyne's
// rich text (which draws the Markdown) cannot be selected, and its selectable Label is plain text
// in one style. selText lies over a rich text and selects what the rich
// text drew: it reads the laid-out text objects of the rich text's
// renderer, so a press, a drag or a double click maps to the character
// under the pointer whatever its style (headings, bold, code), and the
// highlight is drawn behind exactly those characters. A selection runs
// across blocks (a paragraph, a list, a code block): a drag goes on into
// the blocks below or above, and Select all takes the whole message. Ctrl+C copies the selection: the window's
// canvas has the shortcut, and a press on a text takes the focus
// from the message box so that the shortcut reaches it. A selection once
// made (not each step of a drag) is also the desktop's primary selection
// (Selection.Primary), which a middle click pastes in another program.

// MDText is a rich text that keeps its renderer, to read what it drew.
type MDText struct {
	widget.RichText
	r fyne.WidgetRenderer
	// Wheel, if set, takes the wheel's vertical turns over a wide table
	// of the text (which scrolls sideways only): the list the text is in
	// moves (table.go).
	Wheel func(*fyne.ScrollEvent)
}

func NewMDText(segs ...widget.RichTextSegment) *MDText {
	t := &MDText{}
	t.Segments = segs
	t.Scroll = container.ScrollNone
	t.ExtendBaseWidget(t)
	return t
}

func (t *MDText) CreateRenderer() fyne.WidgetRenderer {
	t.r = t.RichText.CreateRenderer()
	return t.r
}

// TextRun is one drawn piece of text: a row of a paragraph, or a styled
// part of one.
type TextRun struct {
	Text     []rune
	Pos      fyne.Position
	Size     fyne.Size
	TextSize float32
	Style    fyne.TextStyle
	Cell     bool // a table's cell: cells of a row are copied tab-separated
	// Boxed: drawn on a fill of its own (inline code), which hid a mark
	// behind it.
	Boxed bool
	// Color is what its text is drawn in (nil: not known, a link's).
	Color color.Color
}

// sameRow reports whether two runs are on one row: their heights overlap
// by half the lower one (inline code and italics sit a little off the
// plain text's top).
func sameRow(a, b TextRun) bool {
	top, bottom := max(a.Pos.Y, b.Pos.Y), min(a.Pos.Y+a.Size.Height, b.Pos.Y+b.Size.Height)
	return bottom-top >= min(a.Size.Height, b.Size.Height)/2
}

// Width is the width of the run's first n characters.
func (r TextRun) Width(n int) float32 {
	if n <= 0 {
		return 0
	}
	return fyne.MeasureText(string(r.Text[:min(n, len(r.Text))]), r.TextSize, r.Style).Width
}

// col is the character boundary nearest to x (relative to the run).
func (r TextRun) col(x float32) int {
	if x <= 0 {
		return 0
	}
	prev := float32(0)
	for i := 1; i <= len(r.Text); i++ {
		w := r.Width(i)
		if x < w {
			if x-prev < w-x {
				return i - 1
			}
			return i
		}
		prev = w
	}
	return len(r.Text)
}

// Runs is what the rich text drew, in reading order.
func (t *MDText) Runs() []TextRun {
	if t.r == nil {
		return nil
	}
	var out []TextRun
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
					out = append(out, TextRun{Text: []rune(o.Text), Pos: p, Size: o.Size(), TextSize: o.TextSize, Style: o.TextStyle, Color: o.Color})
				}
			case *widget.Hyperlink:
				if o.Text != "" {
					pad := theme.InnerPadding()
					out = append(out, TextRun{Text: []rune(o.Text), Pos: p.AddXY(pad, 0), Size: o.Size(), TextSize: theme.TextSize(), Style: o.TextStyle})
				}
			case *fyne.Container:
				if t := boxedText(o); t != nil {
					// Inline code: its text on a fill of its own.
					if t.Text != "" {
						out = append(out, TextRun{Text: []rune(t.Text), Pos: p.Add(t.Position()), Size: t.Size(), TextSize: t.TextSize, Style: t.TextStyle, Boxed: true})
					}
					continue
				}
				walk(o.Objects, p)
			case *TableBox:
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
					out = append(out, TextRun{Text: []rune(text), Pos: p.AddXY(pad, pad), Size: o.Size().SubtractWidthHeight(2*pad, 2*pad),
						TextSize: theme.TextSize(), Cell: true})
				}
			}
		}
	}
	walk(t.r.Objects(), fyne.Position{})
	return out
}

// Breaks reports, for each of runs (Runs), whether it begins a line
// after a line break in its text, not after a wrap: both start a new
// row with no gap (breaks); and whether it goes on from the run before
// with nothing between them in its text (glued): a word longer than the
// line, which Fyne wraps inside it, is copied whole, not with a space
// where it was cut. Each run is found in the segments' text in order; a
// run not found there next (a bullet, a table's cell) is neither.
func (t *MDText) Breaks(runs []TextRun) (breaks, glued []bool) {
	text := SegmentsText(t.Segments)
	breaks, glued = make([]bool, len(runs)), make([]bool, len(runs))
	at, prevFound := 0, false
	for i, r := range runs {
		j := strings.Index(text[at:], string(r.Text))
		if j < 0 || strings.TrimSpace(text[at:at+j]) != "" {
			prevFound = false
			continue
		}
		breaks[i] = strings.Contains(text[at:at+j], "\n")
		glued[i] = j == 0 && prevFound
		at += j + len(string(r.Text))
		prevFound = true
	}
	return breaks, glued
}

// boxedText is the text of inline code, which Fyne's rich text draws as
// a container of a fill and the text, or nil.
func boxedText(c *fyne.Container) *canvas.Text {
	if len(c.Objects) != 2 {
		return nil
	}
	if _, ok := c.Objects[0].(*canvas.Rectangle); !ok {
		return nil
	}
	t, _ := c.Objects[1].(*canvas.Text)
	return t
}

// mark is a place between two characters: run number, column.
type mark struct{ run, col int }

func (a mark) before(b mark) bool { return a.run < b.run || a.run == b.run && a.col < b.col }

// endMark is the end of a block, however many runs it has.
var endMark = mark{run: math.MaxInt32}

// clamp is m within runs: endMark (or a place past the end, after the
// block was laid out again) is the end of the last run.
func clamp(m mark, runs []TextRun) mark {
	if len(runs) == 0 {
		return mark{}
	}
	if m.run >= len(runs) {
		last := len(runs) - 1
		return mark{last, len(runs[last].Text)}
	}
	return mark{m.run, min(max(m.col, 0), len(runs[m.run].Text))}
}

// SelText is a selectable rich text: one block of a list of rows (a
// paragraph, a list, a code block). What is selected is the window's
// selection (host), which may run across many blocks; a SelText draws
// its part of it.
type SelText struct {
	widget.BaseWidget
	Rich  *MDText
	Marks *fyne.Container // the highlight, behind the text
	// Over is the highlight of a table's cells and of inline code, over
	// them: both are filled with an opaque background, which hid a
	// highlight behind.
	Over *fyne.Container
	host *Selection // the window's one selection
	// Row is the number of the list's row it shows (-1: none, or
	// measuring off screen).
	Row func() int
	// Part is its place among the blocks of its row, in reading order: 0
	// in a row of one block; a tool card's arguments 0, its result 1.
	Part int
	// Source, when set, is the text as written (a code block's, the
	// person's own message): what is copied is cut from it, so that line
	// breaks and blank lines are exactly the source's.
	Source func() string
	// Found is how many matches of a search it marks (Selection.Found
	// draws them), FoundCur whether the current one is among them.
	Found    int
	FoundCur bool
	// Gap is the width of the space before its first word that joins it
	// to the block before on one line (a paragraph's rows, package chat's
	// flow.go), marked with a selection or a match that runs across it.
	Gap float32
}

func NewSelText(host *Selection, md *MDText, row func() int) *SelText {
	s := &SelText{Rich: md, Marks: container.NewWithoutLayout(), Over: container.NewWithoutLayout(), host: host, Row: row}
	s.ExtendBaseWidget(s)
	return s
}

func (s *SelText) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(s.Marks, s.Rich, s.Over))
}

var (
	_ desktop.Mouseable      = (*SelText)(nil)
	_ desktop.Cursorable     = (*SelText)(nil)
	_ fyne.Draggable         = (*SelText)(nil)
	_ fyne.DoubleTappable    = (*SelText)(nil)
	_ fyne.Tappable          = (*SelText)(nil)
	_ fyne.SecondaryTappable = (*SelText)(nil)
)

func (s *SelText) Cursor() desktop.Cursor { return desktop.TextCursor }

// hit is the place under p (relative to the widget). Above the text is its
// start, below it its end; between rows, the next row.
func (s *SelText) hit(p fyne.Position) mark {
	runs := s.Rich.Runs()
	if len(runs) == 0 {
		return mark{}
	}
	// The row under p: the first run whose bottom is below p.
	row := -1
	for i, r := range runs {
		if p.Y < r.Pos.Y+r.Size.Height {
			row = i
			break
		}
	}
	if row < 0 {
		last := len(runs) - 1
		return mark{last, len(runs[last].Text)}
	}
	if p.Y < runs[row].Pos.Y && row == 0 {
		return mark{0, 0}
	}
	// The row's first run, then the run of that row at p.X.
	for row > 0 && sameRow(runs[row-1], runs[row]) {
		row--
	}
	best := row
	for i := row; i < len(runs) && sameRow(runs[row], runs[i]); i++ {
		if p.X >= runs[i].Pos.X {
			best = i
		}
	}
	r := runs[best]
	return mark{best, r.col(p.X - r.Pos.X)}
}

func (s *SelText) MouseDown(e *desktop.MouseEvent) {
	// A press of another button forgets the middle one, whose release
	// another widget may have had.
	s.host.middle = e.Button == desktop.MouseButtonTertiary
	if e.Button != desktop.MouseButtonPrimary {
		return
	}
	b, m := s.host.at(s, e.Position)
	s.host.press(spot{b.Row(), b.Part, m})
}

// begins reports whether p (relative to the block) is at or after its
// first character, in reading order.
func (s *SelText) begins(p fyne.Position) bool {
	runs := s.Rich.Runs()
	if len(runs) == 0 {
		return false
	}
	first := runs[0]
	return p.Y >= first.Pos.Y && (p.Y >= first.Pos.Y+first.Size.Height || p.X >= first.Pos.X)
}

func (s *SelText) MouseUp(e *desktop.MouseEvent) {
	if e.Button == desktop.MouseButtonTertiary {
		s.host.middle = false
	}
}

// Dragged extends the selection to the place under the pointer, in this
// block or any other on screen: the driver sends every move of a drag to
// the widget it began on, with the pointer's place relative to it.
func (s *SelText) Dragged(e *fyne.DragEvent) {
	if s.host.middle {
		return // the driver drags with the middle button too: it selects nothing
	}
	if !s.host.dragging {
		b, m := s.host.at(s, e.Position.Subtract(e.Dragged))
		s.host.press(spot{b.Row(), b.Part, m})
	}
	abs := e.AbsolutePosition
	if abs.IsZero() {
		abs = fyne.CurrentApp().Driver().AbsolutePositionForObject(s).Add(e.Position)
	}
	s.host.dragTo(abs)
}

// DragEnd ends the drag: what it selected is the primary selection.
func (s *SelText) DragEnd() {
	if !s.host.dragging {
		return // the middle button's drag
	}
	s.host.dragging = false
	s.host.own()
}

// Tapped (a click without a drag) clears the selection.
func (s *SelText) Tapped(*fyne.PointEvent) { s.host.Clear() }

// DoubleTapped selects the word under the pointer.
func (s *SelText) DoubleTapped(e *fyne.PointEvent) {
	s, m := s.host.at(s, e.Position)
	runs := s.Rich.Runs()
	if m.run >= len(runs) {
		return
	}
	text := runs[m.run].Text
	start, end := m.col, m.col
	for start > 0 && wordRune(text[start-1]) {
		start--
	}
	for end < len(text) && wordRune(text[end]) {
		end++
	}
	s.host.set(spot{s.Row(), s.Part, mark{m.run, start}}, spot{s.Row(), s.Part, mark{m.run, end}})
	s.host.own()
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// TappedSecondary offers Copy and Select all.
func (s *SelText) TappedSecondary(e *fyne.PointEvent) {
	c := fyne.CurrentApp().Driver().CanvasForObject(s)
	if c == nil {
		return
	}
	cp := fyne.NewMenuItem("Copy", func() { s.host.Copy() })
	cp.Disabled = s.host.Text() == ""
	row := s.Row()
	all := fyne.NewMenuItem("Select all", func() { s.host.SelectMessage(row) })
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", cp, all), c, e.AbsolutePosition)
}

// part is this block's part of the selection, in order; ok is false when
// none of it is selected.
func (s *SelText) part() (lo, hi mark, ok bool) {
	row := s.Row()
	a, b, any := s.host.span()
	at := spot{row: row, part: s.Part}
	if !any || row < 0 || at.blockBefore(a) || b.blockBefore(at) {
		return mark{}, mark{}, false
	}
	lo, hi = mark{}, endMark
	if at.sameBlock(a) {
		lo = a.m
	}
	if at.sameBlock(b) {
		hi = b.m
	}
	runs := s.Rich.Runs()
	lo, hi = clamp(lo, runs), clamp(hi, runs)
	return lo, hi, lo != hi
}

// Selected is this block's part of the selection as it would be copied;
// ok is false when none of it is selected or drawn.
func (s *SelText) Selected() (text string, ok bool) {
	lo, hi, ok := s.part()
	if !ok || len(s.Marks.Objects) == 0 {
		return "", false
	}
	return s.cut(lo, hi), true
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
// line) are joined with a space; paragraphs, list items and the lines of
// a paragraph that has line breaks with a line break.
func (s *SelText) cut(lo, hi mark) string {
	runs := s.Rich.Runs()
	lo, hi = clamp(lo, runs), clamp(hi, runs)
	if !lo.before(hi) {
		return ""
	}
	if s.Source != nil {
		if text, ok := cutSource(s.Source(), runs, lo, hi); ok && text != "" {
			return text
		}
	}
	breaks, glued := s.Rich.Breaks(runs)
	var b strings.Builder
	for i := lo.run; i <= hi.run; i++ {
		r := runs[i]
		c0, c1 := 0, len(r.Text)
		if i == lo.run {
			c0 = min(lo.col, c1)
		}
		if i == hi.run {
			c1 = min(hi.col, c1)
		}
		piece := string(r.Text[c0:c1])
		if isBullet(r.Text) && c1 == len(r.Text) {
			// Fyne draws a bullet as "•  ": one space after it is copied.
			piece = strings.TrimRight(piece, " ") + " "
		}
		if i > lo.run {
			prev := runs[i-1]
			switch {
			case sameRow(prev, r):
				if r.Cell && prev.Cell {
					b.WriteString("\t") // the next cell of a table's row
				}
			case r.Cell && prev.Cell:
				b.WriteString("\n") // the table's next row
			default: // a new row: a wrapped line, a new paragraph or list item
				gap := r.Pos.Y - (prev.Pos.Y + prev.Size.Height)
				switch {
				case gap > 0.5 || r.Cell != prev.Cell || isBullet(r.Text) || breaks[i]:
					b.WriteString("\n")
				case glued[i]: // a long word wrapped inside it
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
func cutSource(src string, runs []TextRun, lo, hi mark) (string, bool) {
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
func cutShown(src string, runs []TextRun, lo, hi mark) ([2]int, bool) {
	starts := make([]int, hi.run+1)
	at := 0
	for i := 0; i <= hi.run; i++ {
		j := strings.Index(src[at:], string(runs[i].Text))
		if j < 0 {
			return [2]int{}, false
		}
		starts[i] = at + j
		at = starts[i] + len(string(runs[i].Text))
	}
	from := starts[lo.run] + len(string(runs[lo.run].Text[:min(lo.col, len(runs[lo.run].Text))]))
	to := starts[hi.run] + len(string(runs[hi.run].Text[:min(hi.col, len(runs[hi.run].Text))]))
	if to < from {
		return [2]int{}, false
	}
	return [2]int{from, to}, true
}

// Draw puts the highlight behind the selected characters (and the
// marks of Selection.Found).
func (s *SelText) Draw() {
	lo, hi, ok := s.part()
	s.Marks.Objects, s.Over.Objects = s.Marks.Objects[:0], s.Over.Objects[:0]
	if ok {
		runs := s.Rich.Runs()
		fill := theme.Color(theme.ColorNameSelection)
		from, _, _ := s.host.span()
		for i := lo.run; i <= hi.run && i < len(runs); i++ {
			r := runs[i]
			c0, c1 := 0, len(r.Text)
			if i == lo.run {
				c0 = lo.col
			}
			if i == hi.run {
				c1 = hi.col
			}
			x0, x1 := r.Width(c0), r.Width(c1)
			if x1 <= x0 {
				continue
			}
			if i == 0 && c0 == 0 && from.row < s.Row() {
				x0 -= s.Gap // it runs on from the block before
			}
			rect := canvas.NewRectangle(fill)
			rect.Move(r.Pos.AddXY(x0, 0))
			rect.Resize(fyne.NewSize(x1-x0, r.Size.Height))
			s.Mark(r, rect)
		}
	}
	if s.host.Found != nil {
		s.host.Found(s) // a search's marks
	}
	s.Marks.Refresh()
	s.Over.Refresh()
}

// Mark adds a mark (translucent) on run r: behind it, or over it in a
// table's cell and inline code, whose opaque fills hid a mark behind.
func (s *SelText) Mark(r TextRun, rect *canvas.Rectangle) {
	if r.Cell || r.Boxed {
		s.Over.Objects = append(s.Over.Objects, rect)
		return
	}
	s.Marks.Objects = append(s.Marks.Objects, rect)
}

// spot is a place in the list: a row, a block of it (SelText.Part) and a
// place in that block.
type spot struct {
	row, part int
	m         mark
}

func (a spot) before(b spot) bool {
	return a.blockBefore(b) || a.sameBlock(b) && a.m.before(b.m)
}

// blockBefore: a is in a block above b's.
func (a spot) blockBefore(b spot) bool { return a.row < b.row || a.row == b.row && a.part < b.part }

func (a spot) sameBlock(b spot) bool { return a.row == b.row && a.part == b.part }

// lastPart is the part of a spot at the end of its row, whatever blocks
// the row has.
const lastPart = math.MaxInt32

// Selection is the window's one selection in the list of rows: from the
// place a drag began (anchor) to where it is (focus), across any number
// of blocks. It is kept by row number, not by widget: the list reuses
// its row views as it scrolls, and each view draws its row's part.
type Selection struct {
	anchor, focus spot
	active        bool // anchor and focus are set (they may be equal)
	dragging      bool
	middle        bool          // the middle button is down (its drag selects nothing)
	last          fyne.Position // where the drag's pointer was last (absolute)
	// Shown are the selectable blocks on screen, in row order.
	Shown func() []*SelText
	// Blocks are the selectable blocks of row i laid out off screen (to
	// copy a row scrolled out of view), in order; none if it has none.
	Blocks func(i int) []*SelText
	// Message is the first and last row of the message row i is part of.
	Message func(i int) (int, int)
	// Unfocus takes the focus from the message box, so that Ctrl+C
	// reaches the window's canvas.
	Unfocus func()
	// Clip sets the clipboard.
	Clip func(string)
	// Primary, if set, is given the selection once it is made (a drag's
	// end, a double click, Select all), not at each step of a drag: the
	// desktop's primary selection, which a middle click pastes.
	Primary func(string)
	// Found, if set, marks what a search found in a block.
	Found func(*SelText)
	// Edge, if set, scrolls the list when a drag goes past its top
	// or bottom edge (abs is the pointer, absolute in the window).
	Edge func(abs fyne.Position)
	// Join, if set, is what stands between the blocks of rows i-1 and i
	// in a copy when row i goes on with the paragraph of the row before
	// (ok); else a blank line does.
	Join func(i int) (sep string, ok bool)
	// InView, if set, tells whether a block of Shown is in view: a
	// drag ends in one of those only. Shown holds blocks the list keeps
	// out of sight too, whose places are stale.
	InView func(*SelText) bool
}

// span is the selection in order; ok is false when nothing is selected.
func (h *Selection) span() (lo, hi spot, ok bool) {
	if !h.active || h.anchor == h.focus {
		return spot{}, spot{}, false
	}
	if h.focus.before(h.anchor) {
		return h.focus, h.anchor, true
	}
	return h.anchor, h.focus, true
}

// press begins a selection at p (a press of the mouse).
func (h *Selection) press(p spot) {
	h.anchor, h.focus, h.active, h.dragging = p, p, true, true
	if h.Unfocus != nil {
		h.Unfocus()
	}
	h.Redraw()
}

// set selects from a to b.
func (h *Selection) set(a, b spot) {
	h.anchor, h.focus, h.active = a, b, true
	if h.Unfocus != nil {
		h.Unfocus()
	}
	h.Redraw()
}

// dragTo moves the selection's end to the place at abs (absolute, in the
// window): in the block under it; between blocks (a header, a tool card)
// the start of the next; past the last block on screen, its end.
func (h *Selection) dragTo(abs fyne.Position) {
	if !h.active || h.Shown == nil {
		return
	}
	h.last = abs
	if h.Edge != nil {
		h.Edge(abs)
	}
	blocks := h.Shown()
	if len(blocks) == 0 {
		return
	}
	drv := fyne.CurrentApp().Driver()
	last := blocks[len(blocks)-1]
	to := spot{last.Row(), last.Part, endMark}
	for k, b := range blocks {
		if h.InView != nil && !h.InView(b) {
			continue
		}
		pos := drv.AbsolutePositionForObject(b)
		if abs.Y >= pos.Y+b.Size().Height {
			continue
		}
		if abs.Y < pos.Y {
			to = spot{b.Row(), b.Part, mark{}}
		} else {
			b, pos = h.over(blocks[k+1:], b, pos, abs)
			to = spot{b.Row(), b.Part, b.hit(abs.Subtract(pos))}
		}
		break
	}
	if to != h.focus {
		h.focus = to
		h.Redraw()
	}
}

// Blocks may overlap: a row of a paragraph cut in rows goes on on the
// last line of the row before, and is drawn over it (package chat's
// flow.go). A place on that line is in the row before up to the end of
// its words, in the row after from its first word on, whichever of the
// two the pointer's event reached.

// at is the block that draws the place at p in s (relative to s), and
// the place in it.
func (h *Selection) at(s *SelText, p fyne.Position) (*SelText, mark) {
	if h.Shown == nil {
		return s, s.hit(p)
	}
	blocks := h.Shown()
	k := slices.Index(blocks, s)
	if k < 0 {
		return s, s.hit(p)
	}
	drv := fyne.CurrentApp().Driver()
	pos := drv.AbsolutePositionForObject(s)
	abs := pos.Add(p)
	b := s
	if k > 0 {
		prev := blocks[k-1]
		pp := drv.AbsolutePositionForObject(prev)
		if (h.InView == nil || h.InView(prev)) && abs.Y >= pp.Y && abs.Y < pp.Y+prev.Size().Height {
			b, pos, k = prev, pp, k-1
		}
	}
	b, pos = h.over(blocks[k+1:], b, pos, abs)
	return b, b.hit(abs.Subtract(pos))
}

// over is the block that draws abs, found in b at pos: b, or one of the
// blocks after it that overlap it there from their first word on.
func (h *Selection) over(after []*SelText, b *SelText, pos, abs fyne.Position) (*SelText, fyne.Position) {
	drv := fyne.CurrentApp().Driver()
	for _, n := range after {
		if h.InView != nil && !h.InView(n) {
			continue
		}
		np := drv.AbsolutePositionForObject(n)
		if abs.Y < np.Y {
			break
		}
		if n.begins(abs.Subtract(np)) {
			b, pos = n, np
		}
	}
	return b, pos
}

// SelectMessage selects every block of the message row i is part of.
func (h *Selection) SelectMessage(i int) {
	if h.Message == nil || i < 0 {
		return
	}
	first, last := h.Message(i)
	h.set(spot{first, 0, mark{}}, spot{last, lastPart, endMark})
	h.own()
}

// Dragging reports whether a drag is selecting, and where its pointer
// was last (absolute in the window).
func (h *Selection) Dragging() (bool, fyne.Position) { return h.active && h.dragging, h.last }

// DragAgain goes on with the drag as if the pointer moved where it is:
// with the pointer held past the list's edge, Edge scrolls on and the
// selection follows, with no move of the pointer.
func (h *Selection) DragAgain() {
	if h.active && h.dragging {
		h.dragTo(h.last)
	}
}

// Clear forgets the selection (a click elsewhere).
func (h *Selection) Clear() {
	if !h.active {
		return
	}
	h.active, h.dragging = false, false
	h.Redraw()
}

// Redraw draws the selection on every block on screen.
func (h *Selection) Redraw() {
	if h.Shown == nil {
		return
	}
	for _, b := range h.Shown() {
		b.Draw()
	}
}

// Text is what is selected, every block in order, a blank line between
// blocks (or what Join says stands between two rows of a paragraph).
func (h *Selection) Text() string {
	lo, hi, ok := h.span()
	if !ok {
		return ""
	}
	onScreen := map[int][]*SelText{}
	if h.Shown != nil {
		for _, b := range h.Shown() {
			onScreen[b.Row()] = append(onScreen[b.Row()], b)
		}
	}
	var b strings.Builder
	prev := -1
	for i := lo.row; i <= hi.row; i++ {
		blocks := onScreen[i]
		if blocks == nil && h.Blocks != nil {
			blocks = h.Blocks(i)
		}
		first := true // the first block of the row copied
		for _, blk := range blocks {
			at := spot{row: i, part: blk.Part}
			if at.blockBefore(lo) || hi.blockBefore(at) {
				continue
			}
			from, to := mark{}, endMark
			if at.sameBlock(lo) {
				from = lo.m
			}
			if at.sameBlock(hi) {
				to = hi.m
			}
			t := blk.cut(from, to)
			if t == "" {
				continue
			}
			if prev >= 0 {
				sep, ok := "", false
				if h.Join != nil && prev == i-1 && first {
					sep, ok = h.Join(i)
				}
				if !ok {
					sep = "\n\n"
				}
				b.WriteString(sep)
			}
			b.WriteString(t)
			prev, first = i, false
		}
	}
	return b.String()
}

// own gives Primary what is selected, if anything is: a press and a
// release with no drag between selects nothing, and leaves the primary
// selection to whoever had it.
func (h *Selection) own() {
	if h.Primary == nil {
		return
	}
	if t := h.Text(); t != "" {
		h.Primary(t)
	}
}

// Copy puts the selection on the clipboard; false if nothing is selected.
func (h *Selection) Copy() bool {
	t := h.Text()
	if t == "" || h.Clip == nil {
		return false
	}
	h.Clip(t)
	return true
}
