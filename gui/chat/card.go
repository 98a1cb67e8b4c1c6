package chat

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/chat/block"
	"deckhand/gui/toolcard"
	"deckhand/gui/widgets"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// cardPart draws a tool call's row: its card (package toolcard), indented
// under its message. It is the card's Row: what the person does on the
// card (fold it, Show all) changes the row at once, and the bridge keeps
// it.
type cardPart struct {
	r    *RowView
	card *toolcard.Card
	obj  fyne.CanvasObject
}

var _ toolcard.Row = (*cardPart)(nil)

func newCardPart(r *RowView) *cardPart {
	p := &cardPart{r: r}
	p.card = r.cv.cards.NewCard(p)
	p.obj = block.Indented(p.card.View())
	return p
}

func (p *cardPart) Set(row transcript.Row)  { p.card.Set(row) }
func (p *cardPart) View() fyne.CanvasObject { return p.obj }

func (p *cardPart) selectables() []*richtext.SelText { return p.card.Selectables() }

func (p *cardPart) Shown() (transcript.Row, bool) { return p.r.Row, p.r.ID >= 0 }
func (p *cardPart) Conv() string                  { return p.r.cv.conv }
func (p *cardPart) ID() int                       { return p.r.ID }
func (p *cardPart) FindMark() color.Color         { return p.r.cv.Find.CardMark(p.r.ID) }
func (p *cardPart) Copy(text string, b *widget.Button) {
	p.r.copy(text, b)
}

func (p *cardPart) Expand(expanded bool, keep fyne.CanvasObject) {
	r := p.r
	row := r.Row
	row.Expanded, row.Collapsed = expanded, false
	p.apply(row, keep)
	r.cv.host.Tell(&Expand{Conv: r.cv.conv, Row: r.ID, Expanded: expanded})
}

func (p *cardPart) Collapse(collapsed bool) {
	r := p.r
	row := r.Row
	row.Collapsed = collapsed
	p.apply(row, nil)
	r.cv.host.Tell(&Collapse{Conv: r.cv.conv, Row: r.ID, Collapsed: collapsed})
}

// apply shows a change the person made to the card (folded, Show all) at
// once, and gives the row its new height, keeping the view where it is: the
// card grows or shrinks below its header, or around keep (the control
// pressed at a cut text's end), which stays where it was on screen: Show
// less there kept the view's offset, and left the person in whatever came
// below the card. The bridge's copy of the row, when it comes, is the
// same, and changes nothing; nor does it scroll to the chat's end, as a
// Reset's pending Follow had it do (the view jumped from the header's
// Show all to the chat's end).
func (p *cardPart) apply(row transcript.Row, keep fyne.CanvasObject) {
	r, cv := p.r, p.r.cv
	id := r.ID
	if id < 0 || id >= len(cv.Rows) {
		return
	}
	cv.Follow = false
	offset := cv.List.GetScrollOffset()
	var at float32
	if keep != nil {
		at = p.yOf(keep)
	}
	cv.Rows[id] = row
	r.show(id, row, block.Flow{})
	// Laid out at the list's width first: a label that wraps (the note
	// under a text too long to draw) is as high as its lines only once it
	// has its width (measured before, the row was a line short, and keep
	// moved by as much).
	r.Resize(fyne.NewSize(r.Size().Width, r.MinSize().Height))
	widgets.Relayout(r.box)
	h := cv.heightOf(r, id)
	cv.measured[id] = true
	if keep != nil && keep.Visible() {
		// Laid out at its new height, the card says where keep went (before
		// the list has it: at the old offset, a card shrunk may be out of
		// the list's view, its row given to another).
		r.Resize(fyne.NewSize(r.Size().Width, h))
		widgets.Relayout(r.box)
		offset = max(offset+p.yOf(keep)-at, 0)
	}
	if h != cv.Heights[id] {
		cv.Heights[id] = h
		cv.List.SetItemHeight(id, h)
	}
	if cv.List.GetScrollOffset() != offset {
		cv.List.ScrollToOffset(offset)
	}
}

// Remeasure gives the row the height of what the card now shows (a note
// in an image's place), keeping the view where it is.
func (p *cardPart) Remeasure() {
	r, cv := p.r, p.r.cv
	id := r.ID
	if id < 0 || id >= len(cv.Rows) {
		return
	}
	widgets.Relayout(r.box)
	offset := cv.List.GetScrollOffset()
	if h := r.MinSize().Height; h != cv.Heights[id] {
		cv.Heights[id] = h
		cv.List.SetItemHeight(id, h)
	}
	if cv.List.GetScrollOffset() != offset {
		cv.List.ScrollToOffset(offset)
	}
}

// Reveal scrolls the list so that o (a control of the card's, just
// focused) shows whole: above the view, to its top; below it, to its
// bottom.
func (p *cardPart) Reveal(o fyne.CanvasObject) {
	r, cv := p.r, p.r.cv
	id := r.ID
	if id < 0 || id >= len(cv.Rows) || !cv.List.Drawn {
		return
	}
	y := cv.rowTop(id) + p.yOf(o)
	h, view, off := o.Size().Height, cv.List.Size().Height, cv.List.GetScrollOffset()
	switch {
	case y < off:
		off = y
	case y+h > off+view:
		off = y + h - view
	default:
		return
	}
	cv.Follow = false
	cv.List.ScrollToOffset(max(off, 0))
}

// yOf is where o is down the card's row.
func (p *cardPart) yOf(o fyne.CanvasObject) float32 {
	d := fyne.CurrentApp().Driver()
	return d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(p.r).Y
}
