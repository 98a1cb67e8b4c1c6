package sidebar

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/store"
)

// Row is one session in the list: its title over a caption. A secondary
// tap opens its menu.
type Row struct {
	widget.BaseWidget
	side  *Sidebar
	item  Item
	Title *widget.Label // for tests
	// snip is a search's snippet of the session, its words marked.
	snip *widget.RichText
	sub  *widget.Label
	box  *fyne.Container
	// hover is the row's hover fill: the row hears the pointer (hold.go),
	// and Fyne's list item, which drew it, no longer does.
	hover *canvas.Rectangle
	seen  uint64 // the list's last full refresh that showed it
	index int    // the item it shows
}

var (
	_ fyne.Tappable          = (*Row)(nil)
	_ fyne.SecondaryTappable = (*Row)(nil)
	_ desktop.Hoverable      = (*Row)(nil)
)

func newRow(side *Sidebar) *Row {
	r := &Row{side: side}
	r.Title = widget.NewLabel("A session title long enough")
	r.Title.Truncation = fyne.TextTruncateEllipsis
	r.Title.TextStyle.Bold = true
	var subObj fyne.CanvasObject
	r.sub, subObj = widgets.Caption("2 h ago · 1.2k tokens")
	r.sub.Truncation = fyne.TextTruncateEllipsis
	r.snip = widget.NewRichText()
	r.snip.Truncation = fyne.TextTruncateEllipsis
	r.snip.Hide()
	r.box = container.New(&tightVBox{}, r.Title, r.snip, subObj)
	r.hover = canvas.NewRectangle(theme.Color(theme.ColorNameHover))
	r.hover.Hide()
	r.ExtendBaseWidget(r)
	return r
}

// Item is the session the row shows.
func (r *Row) Item() Item { return r.item }

func (r *Row) set(item Item) {
	r.item = item
	if item.Pinned {
		r.Title.SetText(PinMark + item.Title)
	} else {
		r.Title.SetText(item.Title)
	}
	r.sub.SetText(item.Subtitle(time.Now()))
	if m := item.Match; m.Snippet != "" {
		r.fitSnippet()
		widgets.SetVisible(r.snip, true)
	} else {
		widgets.SetVisible(r.snip, false)
	}
}

// Resize lays the row out, its snippet cut to show its first word found.
func (r *Row) Resize(size fyne.Size) {
	width := r.Size().Width
	r.BaseWidget.Resize(size)
	if size.Width != width && r.item.Match.Snippet != "" {
		r.fitSnippet()
	}
}

// fitSnippet shows the search's snippet from a little before its first
// word found, so that the word shows in the row's width: the snippet
// starts up to 30 characters before it, and a narrow sidebar (a 640-pixel
// window) showed those and cut the word off.
func (r *Row) fitSnippet() {
	m := r.item.Match
	if w := r.Size().Width; w > 0 {
		size := theme.CaptionTextSize()
		label := float32(0)
		if m.Tool != "" {
			label = fyne.MeasureText(ResultLabel, size, fyne.TextStyle{Italic: true}).Width
		}
		m = fitSnippet(m, w-2*theme.InnerPadding()-label, func(s string, bold bool) float32 {
			return fyne.MeasureText(s, size, fyne.TextStyle{Bold: bold}).Width
		})
	}
	r.snip.Segments = snippetSegments(m)
	r.snip.Refresh()
}

// fitSnippet cuts the start of m's snippet so that its first word found
// ends within width (measure gives a text's width, bold for a word found),
// with at most a third of width of what comes before it, after "…". A
// snippet whose first word fits already is left whole.
func fitSnippet(m store.Match, width float32, measure func(s string, bold bool) float32) store.Match {
	if len(m.Marks) == 0 {
		return m
	}
	first := m.Marks[0]
	if first[0] < 0 || first[1] > len(m.Snippet) || first[0] > first[1] {
		return m
	}
	word := m.Snippet[first[0]:first[1]]
	if measure(m.Snippet[:first[0]], false)+measure(word, true) <= width {
		return m
	}
	room := min(width/3, width-measure(word, true)) - measure(ellipsis, false)
	before := m.Snippet[:first[0]]
	cut := len(before)
	for i := range before { // from the start: the longest tail that fits
		if measure(before[i:], false) <= room {
			cut = i
			break
		}
	}
	for cut < len(before) && before[cut] == ' ' {
		cut++ // "…" then a word, not a space
	}
	if cut == 0 {
		return m
	}
	out := store.Match{Snippet: ellipsis + m.Snippet[cut:], Run: m.Run, Tool: m.Tool}
	shift := len(ellipsis) - cut
	for _, mk := range m.Marks {
		if mk[0] >= cut {
			out.Marks = append(out.Marks, [2]int{mk[0] + shift, mk[1] + shift})
		}
	}
	return out
}

// ellipsis marks a snippet's cut start.
const ellipsis = "…"

// setHeights gives the rows showing a snippet their height (a list's rows
// are otherwise all the height of its first), and every other row the
// plain height. Fyne's list keeps a height given to an index until it is
// given another (it has no way to forget one), so once any row was given
// a height, every index ever given one is given its height at each Set: a
// search with no match (no rows) then a cleared box left the first chat
// at a snippet's height, its rows below shifted, and a right-click at a
// row's place opened another chat's menu.
func (s *Sidebar) setHeights(items []Item) {
	any := false
	for _, it := range items {
		any = any || it.Match.Snippet != ""
	}
	if !any && s.sized == 0 {
		return // every row the height of the first: nothing to set
	}
	if any {
		s.sized = max(s.sized, len(items))
	}
	if s.measure == nil {
		s.measure = newRow(s)
	}
	m := s.measure
	m.set(Item{Title: "x"})
	plain := m.MinSize().Height
	m.set(Item{Title: "x", Match: store.Match{Snippet: "x"}})
	tall := m.MinSize().Height
	for i := range max(s.sized, len(items)) {
		h := plain
		if i < len(items) && items[i].Match.Snippet != "" {
			h = tall
		}
		s.List.SetItemHeight(i, h)
	}
}

// ResultLabel begins the snippet of a match in a tool's result, not a
// message.
const ResultLabel = "Tool result: "

// snippetSegments shows a search's snippet, its words marked (bold, in
// the primary colour), after ResultLabel when it is from a tool's result.
func snippetSegments(m store.Match) []widget.RichTextSegment {
	plain := widget.RichTextStyle{Inline: true, SizeName: theme.SizeNameCaptionText, ColorName: theme.ColorNamePlaceHolder}
	marked := widget.RichTextStyle{Inline: true, SizeName: theme.SizeNameCaptionText, ColorName: theme.ColorNamePrimary, TextStyle: fyne.TextStyle{Bold: true}}
	var segs []widget.RichTextSegment
	if m.Tool != "" {
		label := plain
		label.TextStyle.Italic = true
		segs = append(segs, &widget.TextSegment{Text: ResultLabel, Style: label})
	}
	at := 0
	for _, mk := range m.Marks {
		if mk[0] < at || mk[1] > len(m.Snippet) || mk[0] > mk[1] {
			continue
		}
		if mk[0] > at {
			segs = append(segs, &widget.TextSegment{Text: m.Snippet[at:mk[0]], Style: plain})
		}
		segs = append(segs, &widget.TextSegment{Text: m.Snippet[mk[0]:mk[1]], Style: marked})
		at = mk[1]
	}
	if at < len(m.Snippet) {
		segs = append(segs, &widget.TextSegment{Text: m.Snippet[at:], Style: plain})
	}
	return segs
}

func (r *Row) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(r.hover, r.box))
}

func (r *Row) MouseIn(*desktop.MouseEvent) {
	r.side.pointerIn()
	r.showHover(true)
}

// MouseMoved counts as the pointer coming: the window sends no MouseIn
// when the pointer comes back onto the object it last was on.
func (r *Row) MouseMoved(*desktop.MouseEvent) {
	r.side.pointerIn()
	r.showHover(true)
}

func (r *Row) MouseOut() {
	r.showHover(false)
	r.side.pointerOut()
}

// showHover fills the row as Fyne's list fills a row under the pointer,
// unless it is the chat open, filled as selected.
func (r *Row) showHover(on bool) {
	on = on && !r.item.Current
	if on == r.hover.Visible() {
		return
	}
	if on {
		r.hover.FillColor = theme.Color(theme.ColorNameHover) // the theme's now
		r.hover.Show()
	} else {
		r.hover.Hide()
	}
	r.hover.Refresh()
}

// Tapped opens the row's session (Fyne's list would, but a row that takes
// secondary taps is the target of primary ones too), and gives the
// message box the focus, as a new chat does: what is typed next is a
// message. (Tab reaches the list, for its keys.) The focus moves first: a
// search's result opens the find bar with the keyboard in it, at once
// when its chat is the one shown, and the message box took the keyboard
// back from it (Escape did not close the bar).
func (r *Row) Tapped(*fyne.PointEvent) {
	if r.item.ID == "" {
		return
	}
	r.side.host.FocusInput()
	for i, it := range r.side.Items {
		if it.ID == r.item.ID {
			r.side.List.Highlight(i)
			r.side.open(i)
		}
	}
}

func (r *Row) TappedSecondary(e *fyne.PointEvent) {
	if r.item.ID != "" {
		r.side.showMenu(r.item, e.AbsolutePosition)
	}
}

// tightVBox stacks objects with no padding between them (a title and its
// caption).
type tightVBox struct{}

func (tightVBox) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h - theme.Padding()
	}
}

func (tightVBox) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height - theme.Padding()
	}
	return s.AddWidthHeight(0, theme.Padding())
}

// ScreenChildren is what the row shows, for the window's screen dump
// (package gui's screen.go, read by the real-window tests).
func (r *Row) ScreenChildren() []fyne.CanvasObject { return []fyne.CanvasObject{r.box} }

// ScreenChildren are the rows the list shows, for the screen dump.
func (l *List) ScreenChildren() []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, 0, len(l.side.rows))
	for _, r := range l.side.rows {
		out = append(out, r)
	}
	return out
}
