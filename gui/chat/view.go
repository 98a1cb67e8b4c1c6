package chat

import (
	"slices"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/appview"
	"deckhand/gui/chat/block"
	"deckhand/gui/chat/find"
	"deckhand/gui/toolcard"
	"deckhand/gui/widgets"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// View shows one conversation's transcript in a virtualized list: only
// the rows on screen have widgets. A row's height is estimated from its
// text until it is first shown, then measured (laid out off screen at the
// list's width) and corrected; rows that change while streaming are
// measured at once. Opening a long conversation lays out one screenful,
// not every message, and scrolling lays out only what comes into view.
type View struct {
	host     Host
	conv     string          // the conversation shown
	content  *fyne.Container // the list, and Empty over it
	List     *List
	Rows     []transcript.Row
	Heights  []float32
	measured []bool // heights[i] is exact at the current width
	width    float32
	measure  *RowView   // lays rows out off screen, to learn their height
	Views    []*RowView // the list's row views near the screen (recycle.go)
	recycle             // row views the list let go of, for it to use again (recycle.go)
	est      estimator
	icons    widgets.StatusIcons
	Sel      richtext.Selection // the selected text, across blocks
	edgeTick chan struct{}      // a drag held past the list's edge scrolls on (dragScroll); closed when it ends
	Find     *find.Finder       // the find bar (find.go)
	// Tips names the icon buttons (a message's, the find bar's) while the
	// pointer rests on one, over the transcript.
	Tips     *widgets.Tips
	running  bool              // an answer is being written: no message controls
	Follow   bool              // keep the end in view as rows arrive
	settling bool              // a second scroll to the end is due
	Empty    fyne.CanvasObject // what an empty conversation shows
	// aimed counts the times the view was put at a place other than the
	// end (the find's match): a second scroll to the end asked before
	// is then not made.
	aimed int
	// aim is the find's match the view was put at (ShowMatch), and
	// aimOff the list's offset it was left at: while the view stays
	// there and the match is the find's current one, the view brings it
	// into view again when the heights around it change (rows shown
	// with estimated heights measured, or all laid out again at a new
	// width). It kept the offset alone, and a re-measure after the
	// scroll moved the match out of view (held, reaim: find.go).
	aim    find.Hit
	aimOff float32
	aiming bool

	// The theme and variant the rows were drawn in (restyle).
	theme   fyne.Theme
	variant fyne.ThemeVariant

	resizing bool         // a re-measure at a new width is scheduled
	fixes    map[int]bool // rows shown with an estimated height
	fixing   bool         // fixHeights is scheduled
	leads    block.Leads  // the rows a paragraph flows on into (flow.go)

	cards     *toolcard.Cards // what the tool cards share: images, the tools' views
	findAfter string          // words to find once the version chosen for them shows
	findWords bool            // and then each alone if not found together (a search's)
	keepAt    string          // the run of the version chosen with ‹ ›: the view stays at its message
	// CopiedFor is how long a copy button says it copied.
	CopiedFor time.Duration
	// Tab's stops before and after the list, to the rows out of view
	// (tabedge.go); tabbing: the focus is being moved through them.
	topEdge, bottomEdge *tabEdge
	tabbing             bool
}

// New makes the chat view of the window host; its cards open the tools'
// views in apps.
func New(host Host, apps *appview.Views) *View {
	cv := &View{host: host, cards: toolcard.New(host, apps), Follow: true, fixes: map[int]bool{}, icons: widgets.NewStatusIcons(), CopiedFor: 1500 * time.Millisecond}
	cv.cards.Sel = &cv.Sel // a drag runs on through the cards, a copy takes them in
	cv.Sel.Unfocus = func() {
		if w := host.Window(); w != nil {
			w.Canvas().Unfocus()
		}
	}
	cv.Sel.Clip = func(s string) { host.App().Clipboard().SetContent(s) }
	cv.Sel.Shown, cv.Sel.Blocks, cv.Sel.Message = cv.shownBlocks, cv.offscreenBlocks, cv.messageRows
	cv.Sel.Join = func(i int) (string, bool) {
		if find.GoesOn(cv.Rows, i) {
			return cv.Rows[i].Join, true // one paragraph or code block, cut in rows
		}
		return "", false
	}
	cv.Sel.InView = cv.blockInView
	cv.Tips = cv.cards.Tips // one layer for the messages' buttons and the tool cards'
	cv.Find = find.New(findHost{cv}, cv.Tips)
	cv.Sel.Found = func(s *richtext.SelText) {
		// A card's matches are marked by its border (Finder.CardMark),
		// counted over its name, arguments and result together.
		if i := s.Row(); i < 0 || i >= len(cv.Rows) || cv.Rows[i].Kind != transcript.Tool {
			cv.Find.Draw(s)
		}
	}
	cv.Sel.Edge = cv.dragScroll
	cv.measure = newRowView(cv)
	cv.List = cv.newList()
	hint, obj := widgets.Subtle("Ask anything. The model can use the tools of your MCP servers; " +
		"each call waits for your approval unless a rule in Settings allows it.")
	hint.Alignment = fyne.TextAlignCenter
	hint.Wrapping = fyne.TextWrapWord // a narrow window wraps it, rather than being held wide
	cv.Empty = container.NewVBox(layout.NewSpacer(), obj, layout.NewSpacer())
	cv.topEdge, cv.bottomEdge = newTabEdge(cv), newTabEdge(cv)
	cv.content = container.NewStack(cv.topEdge, cv.List, cv.bottomEdge, cv.Empty, cv.Tips)
	s := host.App().Settings()
	cv.theme, cv.variant = s.Theme(), s.ThemeVariant()
	s.AddListener(func(fyne.Settings) { host.Post(cv.restyle) })
	return cv
}

// Content is what the window shows of the chat: the list, and what an
// empty conversation says over it.
func (cv *View) Content() *fyne.Container { return cv.content }

// Conv is the conversation shown.
func (cv *View) Conv() string { return cv.conv }

// restyle draws the chat again in the theme (or text size) just set. Fyne
// redraws only what is in the window, and only the colours its widgets
// look up again when refreshed: a panel (the settings, where the theme is
// chosen) stands in the chat's place, so the chat kept the old colours,
// and the rows' backgrounds and the cards' fill are taken from the theme
// when a row view is made, and a row view refreshes only what changed in
// its row. The list is made again, with new row views (one screenful) and
// heights measured at the new text size. (The rest of the chat, plain
// widgets, is refreshed when it comes back into the window.)
func (cv *View) restyle() {
	s := cv.host.App().Settings()
	if s.Theme() == cv.theme && s.ThemeVariant() == cv.variant {
		return
	}
	cv.theme, cv.variant = s.Theme(), s.ThemeVariant()
	cv.leads.Clear() // measured at the old text size
	cv.measure = newRowView(cv)
	cv.tmpl, cv.free = nil, nil
	cv.relayout()
}

// List is a widget.List that re-measures its rows when its width
// changes.
type List struct {
	widget.List
	cv *View
	// Drawn: the list has a renderer, hence a scroller to move. A list
	// that was never on screen (the first-run panel stands in its place)
	// has none, and Fyne's ScrollToBottom would dereference it.
	Drawn bool
	ToEnd bool // scroll to the end once drawn and laid out
	toRow int  // scroll to row toRow-1 once drawn and laid out (0: none)
}

func (cv *View) newList() *List {
	l := &List{cv: cv}
	l.Length = func() int { return len(cv.Rows) }
	l.CreateItem = cv.createItem
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		v := cv.viewIn(o)
		v.seen = cv.epoch
		if id >= len(cv.Rows) {
			return
		}
		v.show(id, cv.Rows[id], cv.flowOf(id))
		cv.showing(id, v)
		if !cv.measured[id] {
			cv.fixLater(id)
		}
	}
	l.HideSeparators = true
	l.ExtendBaseWidget(l)
	for i, h := range cv.Heights {
		l.SetItemHeight(i, h) // cheap: the list is not drawn yet
	}
	return l
}

func (l *List) CreateRenderer() fyne.WidgetRenderer {
	r := l.List.CreateRenderer()
	l.Drawn = true
	return &listRenderer{WidgetRenderer: r, cv: l.cv}
}

func (l *List) Resize(s fyne.Size) {
	old := l.Size().Width
	l.List.Resize(s)
	if s.Width != old && s.Width > 0 {
		l.cv.widthChanged(s.Width)
	}
	if l.ToEnd && l.Drawn && s.Height > 0 {
		l.ToEnd = false
		l.List.ScrollToBottom()
	}
	if l.toRow > 0 && l.Drawn && s.Height > 0 {
		id := l.toRow - 1
		l.toRow = 0
		l.List.ScrollTo(id)
	}
}

// ScreenChildren are the row views the screen dump walks into: those the
// list shows, not its spare ones.
func (l *List) ScreenChildren() []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, 0, len(l.cv.Views))
	for _, v := range l.cv.Views {
		out = append(out, v)
	}
	return out
}

// ScrollTo brings row id into view; a list not yet drawn (or laid out)
// scrolls when it is.
func (l *List) ScrollTo(id widget.ListItemID) {
	if !l.Drawn || l.Size().Height <= 0 {
		l.ToEnd, l.toRow = false, id+1
		return
	}
	l.ToEnd, l.toRow = false, 0
	l.List.ScrollTo(id)
}

// ScrollToBottom keeps the end in view; a list not yet drawn (or laid
// out) scrolls when it is.
func (l *List) ScrollToBottom() {
	if !l.Drawn || l.Size().Height <= 0 {
		l.ToEnd = true
		return
	}
	l.ToEnd = false
	l.List.ScrollToBottom()
}

// ScrollToOffset moves the view; a list not drawn yet has no view to move.
func (l *List) ScrollToOffset(offset float32) {
	if l.Drawn {
		l.List.ScrollToOffset(offset)
	}
}

// A press in the list outside its rows' text (below the last) clears the
// transcript's selection, as a click elsewhere does.
func (l *List) MouseDown(*desktop.MouseEvent) { l.cv.Sel.Clear() }
func (l *List) MouseUp(*desktop.MouseEvent)   {}

// Tapping a row must not select it: the transcript is read, not picked.
func (l *List) Select(widget.ListItemID) {}

// Reset shows a whole transcript of conversation conv (another
// conversation, or a redraw), scrolled to its end; redrawn with the
// version of a message chosen with ‹ ›, at that message, or at the words
// looked for in it (FindAt).
func (cv *View) Reset(conv string, rows []transcript.Row) {
	switched := conv != cv.conv
	if switched {
		cv.leads.Clear() // another chat's rows: kept, they would be kept for nothing
	}
	// The selection is kept by row number: over other rows it would mark,
	// and copy, words the person never selected (another chat's answer).
	cv.Sel.Clear()
	cv.Tips.Dismiss()
	cv.aiming = false
	cv.conv = conv
	cv.Rows = rows
	widgets.SetVisible(cv.Empty, len(rows) == 0)
	cv.estimateAll()
	cv.measureEnd()
	cv.replaceList()
	cv.Follow = true
	cv.List.ScrollToBottom()
	cv.Find.Refresh()
	switch {
	case switched:
		cv.findAfter, cv.findWords, cv.keepAt = "", false, ""
	case cv.findAfter != "":
		cv.findShown()
	case cv.keepAt != "":
		run := cv.keepAt
		cv.keepAt = ""
		cv.ScrollToRun(run)
	}
}

// ScrollToRun brings the header of run's message into view, in place of
// the end.
func (cv *View) ScrollToRun(run string) {
	for i, r := range cv.Rows {
		if r.Kind == transcript.Header && r.Run == run {
			cv.Follow = false
			cv.aiming = false
			cv.List.ScrollTo(i)
			return
		}
	}
}

// estimateAll guesses every row's height from its text.
func (cv *View) estimateAll() {
	cv.Heights = make([]float32, len(cv.Rows))
	cv.measured = make([]bool, len(cv.Rows))
	clear(cv.fixes)
	w := cv.listWidth()
	cv.width = cv.List.Size().Width // what the heights are for (0: not laid out, remeasure lays them out again once it is)
	for i, r := range cv.Rows {
		cv.Heights[i] = cv.est.height(cv, r, w)
	}
}

// measureEnd measures the rows of the last screenful and a half exactly:
// what the person sees when a conversation opens.
func (cv *View) measureEnd() {
	want := max(cv.List.Size().Height, 600) * 1.5
	for i := len(cv.Rows) - 1; i >= 0 && want > 0; i-- {
		cv.Heights[i], cv.measured[i] = cv.measureRow(cv.Rows[i], cv.flowOf(i)), true
		want -= cv.Heights[i]
	}
}

// replaceList swaps in a fresh list with every height set: setting them on
// a list that is on screen would redraw it once per row.
func (cv *View) replaceList() {
	old := cv.List
	cv.Views, cv.free = nil, nil
	cv.List = cv.newList()
	cv.List.Resize(old.Size())
	for i, o := range cv.content.Objects {
		if o == fyne.CanvasObject(old) {
			cv.content.Objects[i] = cv.List
			// A list never drawn is not on screen (the first-run panel
			// stands in the chat's place): refreshing it would draw it.
			if old.Drawn {
				cv.content.Refresh()
			}
		}
	}
}

// Update applies a frame's changed rows.
func (cv *View) Update(n int, changed map[int]transcript.Row) {
	if n == len(cv.Rows) && len(changed) == 0 {
		return
	}
	follow := cv.AtEnd()
	widgets.SetVisible(cv.Empty, n == 0)
	if n < len(cv.Rows) {
		cv.Rows, cv.Heights, cv.measured = cv.Rows[:n], cv.Heights[:n], cv.measured[:n]
	}
	for len(cv.Rows) < n {
		cv.Rows = append(cv.Rows, transcript.Row{})
		cv.Heights = append(cv.Heights, 0)
		cv.measured = append(cv.measured, false)
	}
	for i, r := range changed {
		cv.Rows[i] = r // first: a row's find marks read its neighbours
	}
	for i, r := range changed {
		// Redraw the row's view alone (RefreshItem would redraw the whole
		// list, at a cost that grows with its length), and learn the row's
		// height from it; a row not on screen is measured off screen.
		v := cv.viewOf(i)
		if v != nil {
			v.show(i, r, cv.flowOf(i))
		}
		h := cv.heightOf(v, i)
		cv.measured[i] = true
		if h != cv.Heights[i] {
			cv.Heights[i] = h
			cv.List.SetItemHeight(i, h)
		}
	}
	cv.flowOn(changed)
	if len(changed) == 0 {
		cv.List.Refresh()
	}
	cv.Find.Refresh()
	if follow || cv.Follow {
		cv.Follow = false
		cv.toBottom()
	}
	cv.forget()
}

// ToolsChanged redraws the chat's tool cards: the tools offered changed
// (a server connected or went, a tool was turned off or on), and with
// them a card's Open view, which showed on as its server went and stayed
// away once it was back.
// The rows did not change: the cards of the views the list holds are set
// again (Update's views skip a row they show already) and measured; the
// others are drawn afresh when the list shows them. Only those: a server
// that changes its tools often costs a few cards, not every card of a
// long chat.
func (cv *View) ToolsChanged() {
	for _, v := range cv.free {
		v.ID = -1 // kept its row: shown it again, it would skip the drawing
	}
	for _, v := range cv.Views {
		i := v.ID
		if i < 0 || i >= len(cv.Rows) || v.Row != cv.Rows[i] || v.Row.Kind != transcript.Tool {
			continue
		}
		p := v.Parts[transcript.Tool]
		if p == nil {
			continue
		}
		p.Set(v.Row)
		widgets.Relayout(v.box)
		if h := v.MinSize().Height; h != cv.Heights[i] {
			cv.Heights[i] = h
			cv.List.SetItemHeight(i, h)
		}
	}
}

// flowOn redraws the rows after a changed row that go on with its
// paragraph, and the row before it if it goes on from it: each begins
// after a blank as wide as the last line of the row before, and a row
// ends where its last line ends when the next goes on on it (flow.go),
// which may have changed with it.
func (cv *View) flowOn(changed map[int]transcript.Row) {
	redraw := func(j int) {
		v := cv.viewOf(j)
		if v != nil {
			v.show(j, cv.Rows[j], cv.flowOf(j))
		}
		if h := cv.heightOf(v, j); h != cv.Heights[j] {
			cv.Heights[j] = h
			cv.List.SetItemHeight(j, h)
		}
	}
	for i := range changed {
		// The row before, whose last line it may go on on (or no more).
		if _, ok := changed[i-1]; !ok && find.GoesOn(cv.Rows, i) {
			redraw(i - 1)
		}
		for j := i + 1; find.GoesOn(cv.Rows, j); j++ {
			if _, ok := changed[j]; ok {
				break
			}
			redraw(j)
		}
	}
}

// toBottom scrolls to the end, and again once the list has laid out the
// heights just set: a scroll asked in the same frame as a much taller row
// (a long paste sent) stops short of the end, and the next rows would then
// not follow.
func (cv *View) toBottom() {
	cv.aiming = false
	cv.List.ScrollToBottom()
	if !cv.settling {
		cv.settling = true
		aimed := cv.aimed
		cv.host.Post(func() {
			cv.settling = false
			if cv.aimed == aimed {
				cv.List.ScrollToBottom()
			}
		})
	}
}

// fixLater measures a row shown with an estimated height once the list is
// done drawing (changing a height while it draws would redraw it within).
func (cv *View) fixLater(id int) {
	cv.fixes[id] = true
	if !cv.fixing {
		cv.fixing = true
		cv.host.Post(cv.fixHeights)
	}
}

// fixHeights replaces the estimates of the rows just shown with their
// measured heights, keeping the rows in view where they were.
func (cv *View) fixHeights() {
	cv.fixing = false
	if len(cv.fixes) == 0 {
		return
	}
	end := cv.AtEnd()
	held := cv.held()
	offset := cv.List.GetScrollOffset()
	pad := theme.Padding()
	var top, shift float32
	for i := range cv.Rows {
		if cv.fixes[i] && !cv.measured[i] {
			h := cv.heightOf(cv.viewOf(i), i)
			cv.measured[i] = true
			if d := h - cv.Heights[i]; d != 0 {
				if top < offset {
					shift += d // a row above the view grew: move the view with it
				}
				cv.Heights[i] = h
				cv.List.SetItemHeight(i, h)
			}
		}
		top += cv.Heights[i] + pad
	}
	clear(cv.fixes)
	switch {
	case end:
		cv.toBottom()
	case held:
		cv.List.ScrollToOffset(offset + shift)
		cv.reaim()
	case shift != 0:
		cv.List.ScrollToOffset(offset + shift)
	}
}

// AtEnd reports whether the end of the transcript is in view (so new rows
// should keep it there).
func (cv *View) AtEnd() bool {
	pad := theme.Padding()
	total := float32(0)
	for _, h := range cv.Heights {
		total += h + pad
	}
	return cv.List.GetScrollOffset()+cv.List.Size().Height >= total-2*pad-40
}

// widthChanged re-measures every row once the width settles (a window being
// dragged wider sends many sizes).
func (cv *View) widthChanged(w float32) {
	if cv.resizing {
		return
	}
	cv.resizing = true
	time.AfterFunc(150*time.Millisecond, func() {
		cv.host.Post(func() {
			cv.resizing = false
			cv.remeasure()
		})
	})
}

func (cv *View) remeasure() {
	w := cv.List.Size().Width
	if w == cv.width || w <= 0 {
		return
	}
	cv.width = w
	if len(cv.Rows) == 0 {
		return
	}
	cv.relayout()
}

func (cv *View) listWidth() float32 {
	if w := cv.List.Size().Width; w > 0 {
		return w
	}
	return 700 // not laid out yet: remeasure fixes it
}

// viewOf is the list's view of row i, if it has one laid out at the
// list's width.
func (cv *View) viewOf(i int) *RowView {
	for _, v := range cv.Views {
		if v.ID == i && v.Size().Width == cv.List.Size().Width {
			return v
		}
	}
	return nil
}

// heightOf is row i's height: its view's, if it has one (laid out anyway),
// else measured off screen.
func (cv *View) heightOf(v *RowView, i int) float32 {
	r, f := cv.Rows[i], cv.flowOf(i)
	if v != nil && v.Row == r && v.flow == f {
		return v.MinSize().Height
	}
	return cv.measureRow(r, f)
}

// measureRow lays a row out at the list's width, a text row after a blank
// flowing with its neighbours' as f says (flow.go), and returns its
// height. It does not make the list's width the rows' (width): one row
// measured at a new width (a frame's, just after the window was resized)
// made remeasure skip the others, which kept the old width's heights.
func (cv *View) measureRow(r transcript.Row, f block.Flow) float32 {
	w := cv.listWidth()
	m := cv.measure
	m.show(-1, r, f)
	m.Resize(fyne.NewSize(w, m.MinSize().Height))
	m.box.Refresh()
	return m.MinSize().Height
}

// SetRunning shows or hides the message controls of the rows on screen
// (the conversation refuses them while an answer is being written).
func (cv *View) SetRunning(running bool) {
	if cv.running == running {
		return
	}
	cv.running = running
	cv.Tips.Dismiss() // the messages' buttons hide or show
	for _, v := range cv.Views {
		if h, ok := v.Parts[transcript.Header].(*HeaderView); ok && v.ID >= 0 && v.Row.Kind == transcript.Header {
			h.Set(v.Row)
			v.running = running
			widgets.Relayout(v.box)
		}
	}
}

// dragScroll scrolls the transcript as far as a selecting drag went past
// its top or bottom edge, so that a selection can run beyond the screen,
// and goes on scrolling while the pointer is held there, without moving
// (it scrolled only as the pointer moved: new-user pass 8).
func (cv *View) dragScroll(abs fyne.Position) {
	by := cv.pastEdge(abs)
	if by == 0 {
		return
	}
	cv.Follow = false
	cv.List.ScrollToOffset(max(0, cv.List.GetScrollOffset()+by))
	if cv.edgeTick == nil {
		cv.edgeTick = make(chan struct{})
		go cv.scrollOn(cv.edgeTick)
	}
}

// pastEdge is how far abs is above the list's top (negative) or below its
// bottom; 0 inside.
func (cv *View) pastEdge(abs fyne.Position) float32 {
	top := fyne.CurrentApp().Driver().AbsolutePositionForObject(cv.List).Y
	bottom := top + cv.List.Size().Height
	switch {
	case abs.Y < top:
		return abs.Y - top
	case abs.Y > bottom:
		return abs.Y - bottom
	}
	return 0
}

// edgeRepeat is how often a drag held past the list's edge scrolls on.
const edgeRepeat = 50 * time.Millisecond

// scrollOn drags again, on the UI goroutine, every edgeRepeat while the
// drag goes on past the list's edge; it ends (closing stop) once the drag
// ends or comes back inside.
func (cv *View) scrollOn(stop chan struct{}) {
	t := time.NewTicker(edgeRepeat)
	defer t.Stop()
	var queued atomic.Bool // one at a time: a UI goroutine that stops running them is not flooded
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if !queued.CompareAndSwap(false, true) {
				continue
			}
			cv.host.Post(func() {
				queued.Store(false)
				if cv.edgeTick != stop {
					return
				}
				if on, abs := cv.Sel.Dragging(); !on || cv.pastEdge(abs) == 0 {
					close(stop)
					cv.edgeTick = nil
					return
				}
				cv.Sel.DragAgain()
			})
		}
	}
}

// shownBlocks are the selectable blocks of the rows near the screen, in
// row order.
func (cv *View) shownBlocks() []*richtext.SelText {
	views := slices.Clone(cv.Views)
	slices.SortFunc(views, func(a, b *RowView) int { return a.ID - b.ID })
	var out []*richtext.SelText
	for _, v := range views {
		if v.ID < 0 || v.ID >= len(cv.Rows) || v.Row != cv.Rows[v.ID] {
			continue
		}
		out = append(out, v.Selectables()...)
	}
	return out
}

// blockInView: the row of s is in the list's view. The chat keeps the
// views of rows just out of sight, which the list holds in its pool, out
// of the window: Fyne reads the window's top-left as their place, and a
// drag across the second cut of a long code block ended in its first
// row, out of sight.
func (cv *View) blockInView(s *richtext.SelText) bool {
	id := s.Row()
	if id < 0 || id >= len(cv.Heights) {
		return false
	}
	var top float32
	pad := theme.Padding()
	for _, h := range cv.Heights[:id] {
		top += h + pad
	}
	off := cv.List.GetScrollOffset()
	return top < off+cv.List.Size().Height && top+cv.Heights[id] > off
}

// offscreenBlocks are row i's selectable blocks laid out off screen at
// the list's width (the same runs as on screen), in order.
func (cv *View) offscreenBlocks(i int) []*richtext.SelText {
	if i < 0 || i >= len(cv.Rows) {
		return nil
	}
	if k := cv.Rows[i].Kind; k != transcript.Text && k != transcript.Code && k != transcript.Tool {
		return nil
	}
	cv.measureRow(cv.Rows[i], cv.flowOf(i))
	return cv.measure.Selectables()
}

// messageRows are the first and last selectable rows of the message row i
// is part of: from its header to the next; of a tool card's row, that row
// alone (Select all in a card selects the call's arguments and result: the
// cards of an answer are drawn after the person's message, before the
// answer's header).
func (cv *View) messageRows(i int) (first, last int) {
	if i >= 0 && i < len(cv.Rows) && cv.Rows[i].Kind == transcript.Tool {
		return i, i
	}
	start, end := i, i
	for start > 0 && cv.Rows[start].Kind != transcript.Header {
		start--
	}
	for end+1 < len(cv.Rows) && cv.Rows[end+1].Kind != transcript.Header {
		end++
	}
	first, last = -1, -1
	for j := start; j <= end; j++ {
		if k := cv.Rows[j].Kind; k == transcript.Text || k == transcript.Code {
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
func (cv *View) relayout() {
	end := cv.AtEnd()
	held := cv.held()
	offset := cv.List.GetScrollOffset()
	cv.estimateAll()
	if end {
		cv.measureEnd()
	}
	cv.replaceList()
	switch {
	case end:
		cv.List.ScrollToBottom()
	case held:
		// The heights above the match are estimates now: the same
		// offset no longer shows it.
		cv.List.ScrollToOffset(offset)
		cv.reaim()
	default:
		cv.List.ScrollToOffset(offset)
	}
}
