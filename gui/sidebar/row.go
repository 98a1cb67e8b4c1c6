package sidebar

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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
	snip  *widget.RichText
	sub   *widget.Label
	box   *fyne.Container
	seen  uint64 // the list's last full refresh that showed it
	index int    // the item it shows
}

var (
	_ fyne.Tappable          = (*Row)(nil)
	_ fyne.SecondaryTappable = (*Row)(nil)
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
		r.snip.Segments = snippetSegments(m)
		r.snip.Refresh()
		widgets.SetVisible(r.snip, true)
	} else {
		widgets.SetVisible(r.snip, false)
	}
}

// setHeights gives the rows showing a snippet their height (a list's rows
// are otherwise all the height of its first).
func (s *Sidebar) setHeights(items []Item) {
	any := false
	for _, it := range items {
		any = any || it.Match.Snippet != ""
	}
	if !any && !s.sized {
		return // every row the height of the first: nothing to set
	}
	s.sized = any
	if s.measure == nil {
		s.measure = newRow(s)
	}
	m := s.measure
	m.set(Item{Title: "x"})
	plain := m.MinSize().Height
	m.set(Item{Title: "x", Match: store.Match{Snippet: "x"}})
	tall := m.MinSize().Height
	for i, it := range items {
		h := plain
		if it.Match.Snippet != "" {
			h = tall
		}
		s.List.SetItemHeight(i, h)
	}
}

// snippetSegments shows a search's snippet, its words marked (bold, in
// the primary colour).
func snippetSegments(m store.Match) []widget.RichTextSegment {
	plain := widget.RichTextStyle{Inline: true, SizeName: theme.SizeNameCaptionText, ColorName: theme.ColorNamePlaceHolder}
	marked := widget.RichTextStyle{Inline: true, SizeName: theme.SizeNameCaptionText, ColorName: theme.ColorNamePrimary, TextStyle: fyne.TextStyle{Bold: true}}
	var segs []widget.RichTextSegment
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

func (r *Row) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.box) }

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
