package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// The mouse wheel over the transcript. Fyne gives a wheel event to the
// innermost scrollable thing under the pointer: the list's own scroller
// moves 25 px a notch, and a Markdown table (which Fyne puts in a
// horizontal scroller) took the wheel for itself and stopped the
// transcript. Rows now take the wheel and move the list three lines a
// notch, and a table that fits its row is drawn without a scroller; one
// wider than its row keeps it, since it needs scrolling sideways.

// wheelStep is how far one notch moves the transcript, as a multiple of
// the driver's step.
const wheelStep = 3

var _ fyne.Scrollable = (*rowView)(nil)

// Scrolled moves the transcript.
func (r *rowView) Scrolled(e *fyne.ScrollEvent) { r.cv.wheel(e.Scrolled.DY) }

func (cv *chatView) wheel(dy float32) {
	l := cv.list
	if !l.drawn || dy == 0 {
		return
	}
	l.ScrollToOffset(l.GetScrollOffset() - dy*wheelStep)
}

// fitTables puts the tables of rt in fitTable segments; false if it has
// none.
func fitTables(rt *mdText) bool {
	found := false
	for i, s := range rt.Segments {
		if t, ok := s.(*widget.TableSegment); ok {
			rt.Segments[i] = &fitTable{TableSegment: t}
			found = true
		}
	}
	return found
}

// fitTable is a Markdown table drawn by tableBox.
type fitTable struct{ *widget.TableSegment }

func (t *fitTable) Visual() fyne.CanvasObject {
	v := t.TableSegment.Visual()
	sc, ok := v.(*container.Scroll)
	if !ok {
		return v
	}
	return newTableBox(sc)
}

// tableBox shows a table's grid as it is when it fits its width, and in
// its horizontal scroller when it does not.
type tableBox struct {
	widget.BaseWidget
	sc      *container.Scroll
	content fyne.CanvasObject
	wide    bool
}

func newTableBox(sc *container.Scroll) *tableBox {
	b := &tableBox{sc: sc, content: sc.Content}
	b.ExtendBaseWidget(b)
	return b
}

func (b *tableBox) CreateRenderer() fyne.WidgetRenderer { return &tableBoxRenderer{b: b} }

type tableBoxRenderer struct{ b *tableBox }

func (r *tableBoxRenderer) Layout(size fyne.Size) {
	b := r.b
	b.wide = size.Width < b.content.MinSize().Width
	if b.wide {
		if b.sc.Content != b.content {
			b.sc.Content = b.content
			b.sc.Refresh()
		}
		b.sc.Move(fyne.Position{})
		b.sc.Resize(size)
		return
	}
	b.content.Move(fyne.Position{})
	b.content.Resize(size)
}

// MinSize never asks for the table's whole width: a wide one scrolls.
func (r *tableBoxRenderer) MinSize() fyne.Size { return r.b.sc.MinSize() }

func (r *tableBoxRenderer) Objects() []fyne.CanvasObject {
	if r.b.wide {
		return []fyne.CanvasObject{r.b.sc}
	}
	return []fyne.CanvasObject{r.b.content}
}

func (r *tableBoxRenderer) Refresh() { r.Layout(r.b.Size()) }
func (r *tableBoxRenderer) Destroy() {}
