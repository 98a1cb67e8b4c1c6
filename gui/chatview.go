package gui

import (
	"slices"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/transcript"
)

// chatView shows one conversation's transcript in a virtualized list: only
// the rows on screen have widgets. A row's height is estimated from its
// text until it is first shown, then measured (laid out off screen at the
// list's width) and corrected; rows that change while streaming are
// measured at once. Opening a long conversation lays out one screenful,
// not every message, and scrolling lays out only what comes into view.
type chatView struct {
	ui       *UI
	list     *transcriptList
	rows     []transcript.Row
	heights  []float32
	measured []bool // heights[i] is exact at the current width
	width    float32
	measure  *rowView   // lays rows out off screen, to learn their height
	views    []*rowView // the list's row views near the screen (views.go)
	recycle             // row views the list let go of, for it to use again (views.go)
	est      estimator
	icons    widgets.StatusIcons
	sel      widgets.Selection // the selected text, across blocks
	find     *finder           // the find bar (find.go)
	running  bool              // an answer is being written: no message controls
	follow   bool              // keep the end in view as rows arrive
	settling bool              // a second scroll to the end is due
	empty    fyne.CanvasObject // what an empty conversation shows

	// The theme and variant the rows were drawn in (restyle).
	theme   fyne.Theme
	variant fyne.ThemeVariant

	resizing bool         // a re-measure at a new width is scheduled
	fixes    map[int]bool // rows shown with an estimated height
	fixing   bool         // fixHeights is scheduled

	// undecodable are images whose header read but whose data did not
	// decode, with why: a card shows the note in the image's place (and is
	// measured with it), rather than an empty box.
	undecodable *lru.Cache[string, string]
	// bitmaps are the cards holding a decoded image (toolcard_media.go).
	bitmaps *lru.Cache[*mediaView, struct{}]
	// decodes bounds the image decodes running at once: each may take up
	// to maxImageSide² pixels of memory until it is scaled down.
	decodes chan struct{}
}

func newChatView(u *UI) *chatView {
	cv := &chatView{ui: u, follow: true, fixes: map[int]bool{}, icons: widgets.NewStatusIcons()}
	cv.undecodable, _ = lru.New[string, string](64)
	cv.bitmaps, cv.decodes = newBitmaps(), make(chan struct{}, 2)
	cv.sel.Unfocus = func() {
		if u.win != nil {
			u.win.Canvas().Unfocus()
		}
	}
	cv.sel.Clip = func(s string) { u.app.Clipboard().SetContent(s) }
	cv.sel.Shown, cv.sel.Block, cv.sel.Message = cv.shownBlocks, cv.offscreenBlock, cv.messageRows
	cv.find = newFinder(cv)
	cv.sel.Found = func(s *widgets.SelText) { drawFound(s, cv.find) }
	cv.sel.Edge = cv.dragScroll
	cv.measure = newRowView(cv)
	cv.list = cv.newList()
	hint, obj := widgets.Subtle("Ask anything. The model can use the tools of your MCP servers; " +
		"each call waits for your approval unless a rule in Settings allows it.")
	hint.Alignment = fyne.TextAlignCenter
	hint.Wrapping = fyne.TextWrapWord // a narrow window wraps it, rather than being held wide
	cv.empty = container.NewVBox(layout.NewSpacer(), obj, layout.NewSpacer())
	s := u.app.Settings()
	cv.theme, cv.variant = s.Theme(), s.ThemeVariant()
	s.AddListener(func(fyne.Settings) { u.post(cv.restyle) })
	return cv
}

// restyle draws the chat again in the theme (or text size) just set. Fyne
// redraws only what is in the window, and only the colours its widgets
// look up again when refreshed: a panel (the settings, where the theme is
// chosen) stands in the chat's place, so the chat kept the old colours,
// and the rows' backgrounds and the cards' fill are taken from the theme
// when a row view is made, and a row view refreshes only what changed in
// its row. The list is made again, with new row views (one screenful) and
// heights measured at the new text size. (The rest of the chat, plain
// widgets, is refreshed when it comes back into the window.)
func (cv *chatView) restyle() {
	s := cv.ui.app.Settings()
	if s.Theme() == cv.theme && s.ThemeVariant() == cv.variant {
		return
	}
	cv.theme, cv.variant = s.Theme(), s.ThemeVariant()
	cv.measure = newRowView(cv)
	cv.tmpl, cv.free = nil, nil
	cv.relayout()
}

// transcriptList is a widget.List that re-measures its rows when its width
// changes.
type transcriptList struct {
	widget.List
	cv *chatView
	// drawn: the list has a renderer, hence a scroller to move. A list
	// that was never on screen (the first-run panel stands in its place)
	// has none, and Fyne's ScrollToBottom would dereference it.
	drawn bool
	toEnd bool // scroll to the end once drawn and laid out
	toRow int  // scroll to row toRow-1 once drawn and laid out (0: none)
}

func (cv *chatView) newList() *transcriptList {
	l := &transcriptList{cv: cv}
	l.Length = func() int { return len(cv.rows) }
	l.CreateItem = cv.createItem
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		v := o.(*rowView)
		v.seen = cv.epoch
		if id >= len(cv.rows) {
			return
		}
		v.show(id, cv.rows[id])
		cv.showing(id, v)
		if !cv.measured[id] {
			cv.fixLater(id)
		}
	}
	l.HideSeparators = true
	l.ExtendBaseWidget(l)
	for i, h := range cv.heights {
		l.SetItemHeight(i, h) // cheap: the list is not drawn yet
	}
	return l
}

func (l *transcriptList) CreateRenderer() fyne.WidgetRenderer {
	r := l.List.CreateRenderer()
	l.drawn = true
	return &listRenderer{WidgetRenderer: r, cv: l.cv}
}

func (l *transcriptList) Resize(s fyne.Size) {
	old := l.Size().Width
	l.List.Resize(s)
	if s.Width != old && s.Width > 0 {
		l.cv.widthChanged(s.Width)
	}
	if l.toEnd && l.drawn && s.Height > 0 {
		l.toEnd = false
		l.List.ScrollToBottom()
	}
	if l.toRow > 0 && l.drawn && s.Height > 0 {
		id := l.toRow - 1
		l.toRow = 0
		l.List.ScrollTo(id)
	}
}

// ScrollTo brings row id into view; a list not yet drawn (or laid out)
// scrolls when it is.
func (l *transcriptList) ScrollTo(id widget.ListItemID) {
	if !l.drawn || l.Size().Height <= 0 {
		l.toEnd, l.toRow = false, id+1
		return
	}
	l.toEnd, l.toRow = false, 0
	l.List.ScrollTo(id)
}

// ScrollToBottom keeps the end in view; a list not yet drawn (or laid
// out) scrolls when it is.
func (l *transcriptList) ScrollToBottom() {
	if !l.drawn || l.Size().Height <= 0 {
		l.toEnd = true
		return
	}
	l.toEnd = false
	l.List.ScrollToBottom()
}

// ScrollToOffset moves the view; a list not drawn yet has no view to move.
func (l *transcriptList) ScrollToOffset(offset float32) {
	if l.drawn {
		l.List.ScrollToOffset(offset)
	}
}

// A press in the list outside its rows' text (below the last) clears the
// transcript's selection, as a click elsewhere does.
func (l *transcriptList) MouseDown(*desktop.MouseEvent) { l.cv.sel.Clear() }
func (l *transcriptList) MouseUp(*desktop.MouseEvent)   {}

// Tapping a row must not select it: the transcript is read, not picked.
func (l *transcriptList) Select(widget.ListItemID) {}

// reset shows a whole transcript (another conversation, or a redraw),
// scrolled to its end.
func (cv *chatView) reset(rows []transcript.Row) {
	cv.rows = rows
	widgets.SetVisible(cv.empty, len(rows) == 0)
	cv.estimateAll()
	cv.measureEnd()
	cv.replaceList()
	cv.follow = true
	cv.list.ScrollToBottom()
	cv.find.refresh()
}

// scrollToRun brings the header of run's message into view, in place of
// the end.
func (cv *chatView) scrollToRun(run string) {
	for i, r := range cv.rows {
		if r.Kind == transcript.Header && r.Run == run {
			cv.follow = false
			cv.list.ScrollTo(i)
			return
		}
	}
}

// estimateAll guesses every row's height from its text.
func (cv *chatView) estimateAll() {
	cv.heights = make([]float32, len(cv.rows))
	cv.measured = make([]bool, len(cv.rows))
	clear(cv.fixes)
	w := cv.listWidth()
	for i, r := range cv.rows {
		cv.heights[i] = cv.est.height(cv, r, w)
	}
}

// measureEnd measures the rows of the last screenful and a half exactly:
// what the person sees when a conversation opens.
func (cv *chatView) measureEnd() {
	want := max(cv.list.Size().Height, 600) * 1.5
	for i := len(cv.rows) - 1; i >= 0 && want > 0; i-- {
		cv.heights[i], cv.measured[i] = cv.measureRow(cv.rows[i]), true
		want -= cv.heights[i]
	}
}

// replaceList swaps in a fresh list with every height set: setting them on
// a list that is on screen would redraw it once per row.
func (cv *chatView) replaceList() {
	old := cv.list
	cv.views, cv.free = nil, nil
	cv.list = cv.newList()
	cv.list.Resize(old.Size())
	for i, o := range cv.ui.body.Objects {
		if o == fyne.CanvasObject(old) {
			cv.ui.body.Objects[i] = cv.list
			cv.ui.body.Refresh()
		}
	}
}

// update applies a frame's changed rows.
func (cv *chatView) update(n int, changed map[int]transcript.Row) {
	if n == len(cv.rows) && len(changed) == 0 {
		return
	}
	follow := cv.atEnd()
	widgets.SetVisible(cv.empty, n == 0)
	if n < len(cv.rows) {
		cv.rows, cv.heights, cv.measured = cv.rows[:n], cv.heights[:n], cv.measured[:n]
	}
	for len(cv.rows) < n {
		cv.rows = append(cv.rows, transcript.Row{})
		cv.heights = append(cv.heights, 0)
		cv.measured = append(cv.measured, false)
	}
	for i, r := range changed {
		cv.rows[i] = r
		// Redraw the row's view alone (RefreshItem would redraw the whole
		// list, at a cost that grows with its length), and learn the row's
		// height from it; a row not on screen is measured off screen.
		v := cv.viewOf(i)
		if v != nil {
			v.show(i, r)
		}
		h := cv.heightOf(v, r)
		cv.measured[i] = true
		if h != cv.heights[i] {
			cv.heights[i] = h
			cv.list.SetItemHeight(i, h)
		}
	}
	if len(changed) == 0 {
		cv.list.Refresh()
	}
	cv.find.refresh()
	if follow || cv.follow {
		cv.follow = false
		cv.toBottom()
	}
	cv.forget()
}

// toBottom scrolls to the end, and again once the list has laid out the
// heights just set: a scroll asked in the same frame as a much taller row
// (a long paste sent) stops short of the end, and the next rows would then
// not follow.
func (cv *chatView) toBottom() {
	cv.list.ScrollToBottom()
	if !cv.settling {
		cv.settling = true
		cv.ui.post(func() {
			cv.settling = false
			cv.list.ScrollToBottom()
		})
	}
}

// fixLater measures a row shown with an estimated height once the list is
// done drawing (changing a height while it draws would redraw it within).
func (cv *chatView) fixLater(id int) {
	cv.fixes[id] = true
	if !cv.fixing {
		cv.fixing = true
		cv.ui.post(cv.fixHeights)
	}
}

// fixHeights replaces the estimates of the rows just shown with their
// measured heights, keeping the rows in view where they were.
func (cv *chatView) fixHeights() {
	cv.fixing = false
	if len(cv.fixes) == 0 {
		return
	}
	end := cv.atEnd()
	offset := cv.list.GetScrollOffset()
	pad := theme.Padding()
	var top, shift float32
	for i := range cv.rows {
		if cv.fixes[i] && !cv.measured[i] {
			h := cv.heightOf(cv.viewOf(i), cv.rows[i])
			cv.measured[i] = true
			if d := h - cv.heights[i]; d != 0 {
				if top < offset {
					shift += d // a row above the view grew: move the view with it
				}
				cv.heights[i] = h
				cv.list.SetItemHeight(i, h)
			}
		}
		top += cv.heights[i] + pad
	}
	clear(cv.fixes)
	switch {
	case end:
		cv.toBottom()
	case shift != 0:
		cv.list.ScrollToOffset(offset + shift)
	}
}

// atEnd reports whether the end of the transcript is in view (so new rows
// should keep it there).
func (cv *chatView) atEnd() bool {
	pad := theme.Padding()
	total := float32(0)
	for _, h := range cv.heights {
		total += h + pad
	}
	return cv.list.GetScrollOffset()+cv.list.Size().Height >= total-2*pad-40
}

// widthChanged re-measures every row once the width settles (a window being
// dragged wider sends many sizes).
func (cv *chatView) widthChanged(w float32) {
	if cv.resizing {
		return
	}
	cv.resizing = true
	time.AfterFunc(150*time.Millisecond, func() {
		cv.ui.post(func() {
			cv.resizing = false
			cv.remeasure()
		})
	})
}

func (cv *chatView) remeasure() {
	w := cv.list.Size().Width
	if w == cv.width || w <= 0 {
		return
	}
	cv.width = w
	if len(cv.rows) == 0 {
		return
	}
	cv.relayout()
}

func (cv *chatView) listWidth() float32 {
	if w := cv.list.Size().Width; w > 0 {
		return w
	}
	return 700 // not laid out yet: remeasure fixes it
}

// viewOf is the list's view of row i, if it has one laid out at the
// list's width.
func (cv *chatView) viewOf(i int) *rowView {
	for _, v := range cv.views {
		if v.id == i && v.Size().Width == cv.list.Size().Width {
			return v
		}
	}
	return nil
}

// heightOf is a row's height: its view's, if it has one (laid out anyway),
// else measured off screen.
func (cv *chatView) heightOf(v *rowView, r transcript.Row) float32 {
	if v != nil && v.row == r {
		return v.MinSize().Height
	}
	return cv.measureRow(r)
}

// measureRow lays a row out at the list's width and returns its height.
func (cv *chatView) measureRow(r transcript.Row) float32 {
	w := cv.listWidth()
	cv.width = w
	m := cv.measure
	m.show(-1, r)
	m.Resize(fyne.NewSize(w, m.MinSize().Height))
	m.box.Refresh()
	return m.MinSize().Height
}

// setRunning shows or hides the message controls of the rows on screen
// (the conversation refuses them while an answer is being written).
func (cv *chatView) setRunning(running bool) {
	if cv.running == running {
		return
	}
	cv.running = running
	for _, v := range cv.views {
		if h, ok := v.parts[transcript.Header].(*headerView); ok && v.id >= 0 && v.row.Kind == transcript.Header {
			h.set(v.row)
			relayout(v.box)
		}
	}
}

// dragScroll scrolls the transcript as far as a selecting drag went past
// its top or bottom edge, so that a selection can run beyond the screen
// (each move of the pointer out there scrolls on).
func (cv *chatView) dragScroll(abs fyne.Position) {
	top := fyne.CurrentApp().Driver().AbsolutePositionForObject(cv.list).Y
	bottom := top + cv.list.Size().Height
	var by float32
	switch {
	case abs.Y < top:
		by = abs.Y - top
	case abs.Y > bottom:
		by = abs.Y - bottom
	default:
		return
	}
	cv.follow = false
	cv.list.ScrollToOffset(max(0, cv.list.GetScrollOffset()+by))
}

// shownBlocks are the selectable blocks of the rows near the screen, in
// row order.
func (cv *chatView) shownBlocks() []*widgets.SelText {
	views := slices.Clone(cv.views)
	slices.SortFunc(views, func(a, b *rowView) int { return a.id - b.id })
	var out []*widgets.SelText
	for _, v := range views {
		if v.id < 0 || v.id >= len(cv.rows) || v.row != cv.rows[v.id] {
			continue
		}
		if s := v.selectable(); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// offscreenBlock is row i's selectable block laid out off screen at the
// list's width (the same runs as on screen), or nil.
func (cv *chatView) offscreenBlock(i int) *widgets.SelText {
	if i < 0 || i >= len(cv.rows) {
		return nil
	}
	if k := cv.rows[i].Kind; k != transcript.Text && k != transcript.Code {
		return nil
	}
	cv.measureRow(cv.rows[i])
	return cv.measure.selectable()
}

// messageRows are the first and last selectable rows of the message row i
// is part of: from its header to the next.
func (cv *chatView) messageRows(i int) (first, last int) {
	start, end := i, i
	for start > 0 && cv.rows[start].Kind != transcript.Header {
		start--
	}
	for end+1 < len(cv.rows) && cv.rows[end+1].Kind != transcript.Header {
		end++
	}
	first, last = -1, -1
	for j := start; j <= end; j++ {
		if k := cv.rows[j].Kind; k == transcript.Text || k == transcript.Code {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	if first < 0 {
		return i, i
	}
	return first, last
}

// relayout estimates every row again and puts a new list in the old one's
// place (after a change of width, theme or text size), keeping the view
// where it was: at the end if it was there, else at the same offset.
func (cv *chatView) relayout() {
	end := cv.atEnd()
	offset := cv.list.GetScrollOffset()
	cv.estimateAll()
	if end {
		cv.measureEnd()
	}
	cv.replaceList()
	if end {
		cv.list.ScrollToBottom()
	} else {
		cv.list.ScrollToOffset(offset)
	}
}
