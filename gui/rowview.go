package gui

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/transcript"
)

// rowView draws one transcript row; the list reuses it for any kind. Its
// parts change only what differs from the row it showed before: a list
// redraws every visible row when one changes, and re-decoding icons or
// re-wrapping unchanged text each time would make that cost grow.
type rowView struct {
	widget.BaseWidget
	cv  *chatView
	id  int
	row transcript.Row
	box *fyne.Container // holds the view of the row's kind
	// seen is the list refresh (chatView.epoch) in which the list last
	// showed it (views.go).
	seen uint64

	parts [transcript.Notice + 1]rowPart // by kind, made when first needed
}

// rowPart draws one kind of row.
type rowPart interface {
	set(transcript.Row)
	view() fyne.CanvasObject
}

// newPart makes the part that draws rows of kind k.
func (r *rowView) newPart(k transcript.Kind) rowPart {
	switch k {
	case transcript.Header:
		return newHeaderView(r)
	case transcript.Text:
		return newTextView(r)
	case transcript.Code:
		return newCodeView(r)
	case transcript.Tool:
		return newToolView(r)
	}
	return newNoticeView(r)
}

// tool is the row's tool card part, if it has drawn one.
func (r *rowView) tool() *toolView {
	t, _ := r.parts[transcript.Tool].(*toolView)
	return t
}

// text is the row's text part, if it has drawn one.
func (r *rowView) text() *textView {
	t, _ := r.parts[transcript.Text].(*textView)
	return t
}

func newRowView(cv *chatView) *rowView {
	r := &rowView{cv: cv, id: -2, box: container.NewStack()}
	r.ExtendBaseWidget(r)
	return r
}

func (r *rowView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.box) }

// A row takes the pointer's comings and goings for itself: the list would
// otherwise highlight the row under the pointer, as if rows could be
// picked, and the highlight stayed when the pointer left for a button in
// the row or left the window.
var _ desktop.Hoverable = (*rowView)(nil)

func (r *rowView) MouseIn(*desktop.MouseEvent)    {}
func (r *rowView) MouseMoved(*desktop.MouseEvent) {}
func (r *rowView) MouseOut()                      {}

// A press on a row outside its text (its header, a tool card, the
// margin) clears the transcript's selection, as a click elsewhere does.
var _ desktop.Mouseable = (*rowView)(nil)

func (r *rowView) MouseDown(*desktop.MouseEvent) { r.cv.sel.Clear() }
func (r *rowView) MouseUp(*desktop.MouseEvent)   {}

// show draws row (number id; -1 when measuring).
func (r *rowView) show(id int, row transcript.Row) {
	if id >= 0 && id == r.id && row == r.row {
		return
	}
	r.id, r.row = id, row
	k := min(row.Kind, transcript.Notice)
	if r.parts[k] == nil {
		r.parts[k] = r.newPart(k)
	}
	r.parts[k].set(row)
	obj := r.parts[k].view()
	if len(r.box.Objects) != 1 || r.box.Objects[0] != obj {
		// Another kind of row: its part goes in and is laid out. Not
		// r.box.Refresh(): that refreshes every widget of the part, and a
		// button's refresh parses, colours and rasterises its SVG icon
		// again (Fyne caches none of it): per row measured, that was most
		// of what a message allocated.
		r.box.Objects = []fyne.CanvasObject{obj}
		obj.Resize(r.box.Size())
		relayout(r.box)
		canvas.Refresh(r.box)
	} else {
		relayout(r.box)
	}
	// The selection is kept by row: this view draws its row's part.
	if s := r.selectable(); s != nil {
		s.Draw()
	}
}

// selectable is the selectable block the view shows (a text or code
// row's), if any.
func (r *rowView) selectable() *widgets.SelText {
	if len(r.box.Objects) != 1 {
		return nil
	}
	for _, p := range r.parts {
		if s, ok := p.(interface{ selectable() *widgets.SelText }); ok && p.view() == r.box.Objects[0] {
			return s.selectable()
		}
	}
	return nil
}

// relayout lays out a tree of containers again at their current sizes:
// what changed inside may have changed their children's sizes, which
// Resize (a no-op at the same size) would not notice.
func relayout(o fyne.CanvasObject) {
	c, ok := o.(*fyne.Container)
	if !ok || c.Hidden {
		return
	}
	if c.Layout != nil {
		c.Layout.Layout(c.Objects, c.Size())
	}
	for _, child := range c.Objects {
		relayout(child)
	}
}

// copy puts text on the clipboard and says so on the button that did it
// for a moment: a check mark, and "Copied" where the button has a label.
func (r *rowView) copy(text string, b *widget.Button) {
	r.cv.ui.app.Clipboard().SetContent(text)
	if b == nil {
		return
	}
	label := b.Text
	if label != "" {
		b.SetText("Copied")
	}
	b.SetIcon(theme.ConfirmIcon())
	ui := r.cv.ui
	time.AfterFunc(ui.copiedFor, func() {
		ui.post(func() {
			if label != "" {
				b.SetText(label)
			}
			b.SetIcon(theme.ContentCopyIcon())
		})
	})
}

// inset indents a message's blocks under its header.
const inset = 34

type insetLayout struct{ left, right float32 }

func (l insetLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(l.left, 0))
		o.Resize(fyne.NewSize(max(size.Width-l.left-l.right, 0), size.Height))
	}
}

func (l insetLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s.AddWidthHeight(l.left+l.right, 0)
}

func indented(o fyne.CanvasObject) *fyne.Container {
	return container.New(insetLayout{left: inset, right: theme.Padding() * 2}, o)
}
