package chat

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/chat/block"
	"deckhand/gui/chat/notice"
	"deckhand/gui/toolcard"
	"deckhand/gui/widgets"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// RowView draws one transcript row; the list reuses it for any kind. Its
// parts change only what differs from the row it showed before: a list
// redraws every visible row when one changes, and re-decoding icons or
// re-wrapping unchanged text each time would make that cost grow.
type RowView struct {
	widget.BaseWidget
	cv  *View
	ID  int
	Row transcript.Row
	box *fyne.Container // holds the view of the row's kind
	// Wheel takes the mouse wheel over the row (wheel.go).
	Wheel fyne.Scrollable
	// seen is the list refresh (View.epoch) in which the list last
	// showed it (recycle.go).
	seen uint64
	slot *slot      // the list's item it is in (recycle.go)
	flow block.Flow // how its text row flows with its neighbours' (flow.go)
	// running is the chat's state its header was drawn in: a header shows
	// Retry, Edit and Delete only once the answer is over.
	running bool

	Parts [transcript.Notice + 1]rowPart // by kind, made when first needed
}

// rowPart draws one kind of row.
type rowPart interface {
	Set(transcript.Row)
	View() fyne.CanvasObject
}

// newPart makes the part that draws rows of kind k.
func (r *RowView) newPart(k transcript.Kind) rowPart {
	switch k {
	case transcript.Header:
		return newHeaderView(r)
	case transcript.Text:
		return block.NewText(blockRow{r})
	case transcript.Code:
		return block.NewCode(blockRow{r})
	case transcript.Tool:
		return newCardPart(r)
	}
	cv := r.cv
	return notice.New(&cv.icons, notice.Actions{
		Continue:      func() { cv.Control(Continue, "", "") },
		Retry:         func() { cv.Control(Retry, "", "") },
		RetryNow:      cv.retryNow,
		KeySettings:   func() { cv.host.ShowKeySettings() },
		ModelSettings: func(at string) { cv.host.ShowModelSettings(at) },
	})
}

// blockRow is a row view as its text and code blocks' Row.
type blockRow struct{ r *RowView }

func (b blockRow) ID() int                        { return b.r.ID }
func (b blockRow) Flow() block.Flow               { return b.r.flow }
func (b blockRow) Selection() *richtext.Selection { return &b.r.cv.Sel }
func (b blockRow) Scrolled(e *fyne.ScrollEvent)   { b.r.Wheel.Scrolled(e) }
func (b blockRow) CopyCode(text string, w *widget.Button) {
	b.r.copy(block.WholeCode(b.r.cv.Rows, b.r.ID, text), w)
}

// Tool is the row's tool card, if it has drawn one.
func (r *RowView) Tool() *toolcard.Card {
	if p, ok := r.Parts[transcript.Tool].(*cardPart); ok {
		return p.card
	}
	return nil
}

// Text is the row's Text part, if it has drawn one.
func (r *RowView) Text() *block.Text {
	t, _ := r.Parts[transcript.Text].(*block.Text)
	return t
}

func newRowView(cv *View) *RowView {
	r := &RowView{cv: cv, ID: -2, box: container.NewStack(), Wheel: newRowWheel(cv)}
	r.ExtendBaseWidget(r)
	return r
}

func (r *RowView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(r.Wheel.(fyne.CanvasObject), r.box))
}

// A row takes the pointer's comings and goings for itself: the list would
// otherwise highlight the row under the pointer, as if rows could be
// picked, and the highlight stayed when the pointer left for a button in
// the row or left the window.
var _ desktop.Hoverable = (*RowView)(nil)

func (r *RowView) MouseIn(*desktop.MouseEvent)    {}
func (r *RowView) MouseMoved(*desktop.MouseEvent) {}
func (r *RowView) MouseOut()                      {}

// A press on a row outside its text (its header, a tool card, the
// margin) clears the transcript's selection, as a click elsewhere does.
var _ desktop.Mouseable = (*RowView)(nil)

func (r *RowView) MouseDown(*desktop.MouseEvent) { r.cv.Sel.Clear() }
func (r *RowView) MouseUp(*desktop.MouseEvent)   {}

// ScreenItem: a row is a message on the screen dump (package gui), its parts
// inside.
func (r *RowView) ScreenItem() (kind, text string, leaf bool) { return "message", "", false }

// ScreenChildren are what the screen dump walks into (package gui's
// screen.go).
func (r *RowView) ScreenChildren() []fyne.CanvasObject { return []fyne.CanvasObject{r.box} }

// show draws row (number id; -1 when measuring), a text row after a blank
// flowing with its neighbours as f says (View.flowOf).
func (r *RowView) show(id int, row transcript.Row, f block.Flow) {
	// Drawn alike, unless it is a header drawn while the chat ran and the
	// run is over: SetRunning redraws the views the chat holds, and one
	// the list kept out of sight came back without its Retry, Edit and
	// Delete (new-user pass 8, at 640×480).
	if id >= 0 && id == r.ID && row == r.Row && f == r.flow && (row.Kind != transcript.Header || r.running == r.cv.running) {
		return
	}
	r.ID, r.Row, r.flow, r.running = id, row, f, r.cv.running
	k := min(row.Kind, transcript.Notice)
	if r.Parts[k] == nil {
		r.Parts[k] = r.newPart(k)
	}
	r.Parts[k].Set(row)
	obj := r.Parts[k].View()
	if len(r.box.Objects) != 1 || r.box.Objects[0] != obj {
		// Another kind of row: its part goes in and is laid out. Not
		// r.box.Refresh(): that refreshes every widget of the part, and a
		// button's refresh parses, colours and rasterises its SVG icon
		// again (Fyne caches none of it): per row measured, that was most
		// of what a message allocated.
		r.box.Objects = []fyne.CanvasObject{obj}
		obj.Resize(r.box.Size())
		widgets.Relayout(r.box)
		canvas.Refresh(r.box)
	} else {
		widgets.Relayout(r.box)
	}
	// The selection is kept by row: this view draws its row's part.
	for _, s := range r.Selectables() {
		s.Draw()
	}
}

// Selectable is the selectable block the view shows (a text or code
// row's), if any.
func (r *RowView) Selectable() *richtext.SelText {
	if len(r.box.Objects) != 1 {
		return nil
	}
	for _, p := range r.Parts {
		if s, ok := p.(interface{ Selectable() *richtext.SelText }); ok && p.View() == r.box.Objects[0] {
			return s.Selectable()
		}
	}
	return nil
}

// Selectables are the selectable blocks the view shows, in reading
// order: a text or code row's, or a tool card's arguments and result.
func (r *RowView) Selectables() []*richtext.SelText {
	if s := r.Selectable(); s != nil {
		return []*richtext.SelText{s}
	}
	if len(r.box.Objects) != 1 {
		return nil
	}
	if p, ok := r.Parts[transcript.Tool].(*cardPart); ok && p.View() == r.box.Objects[0] {
		return p.selectables()
	}
	return nil
}

// copy puts text on the clipboard and says so on the button that did it
// for a moment: a check mark, and "Copied" where the button has a label.
func (r *RowView) copy(text string, b *widget.Button) {
	r.cv.host.App().Clipboard().SetContent(text)
	if b == nil {
		return
	}
	label := b.Text
	if label != "" {
		b.SetText("Copied")
	}
	b.SetIcon(theme.ConfirmIcon())
	host := r.cv.host
	time.AfterFunc(r.cv.CopiedFor, func() {
		host.Post(func() {
			if label != "" {
				b.SetText(label)
			}
			b.SetIcon(theme.ContentCopyIcon())
		})
	})
}
