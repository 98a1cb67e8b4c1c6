package richtext

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A Markdown table that fits its row is drawn without a scroller, so that
// the wheel over it moves the list it is in; one wider than its row keeps
// it, since it needs scrolling sideways, but the wheel's turns still move
// the list (MDText.Wheel): the table scrolls sideways with Shift and the
// wheel, a sideways wheel or trackpad, or its scrollbar. Fyne gives the
// wheel to the innermost scroller under the pointer, and its horizontal
// scroller turns a vertical turn into a sideways one: over a wide table
// the chat stopped, and at 640x480, where the table filled the
// transcript, the wheel almost never moved it.

// FitTables puts the tables of rt in fitTable segments; false if it has
// none.
func FitTables(rt *MDText) bool {
	found := false
	for i, s := range rt.Segments {
		if t, ok := s.(*widget.TableSegment); ok {
			rt.Segments[i] = &fitTable{TableSegment: t, rt: rt}
			found = true
		}
	}
	return found
}

// fitTable is a Markdown table drawn by tableBox, in rt.
type fitTable struct {
	*widget.TableSegment
	rt *MDText
}

func (t *fitTable) Visual() fyne.CanvasObject {
	v := t.TableSegment.Visual()
	sc, ok := v.(*container.Scroll)
	if !ok {
		return v
	}
	b := newTableBox(sc)
	b.wheel.up = func(e *fyne.ScrollEvent) {
		if t.rt.Wheel != nil {
			t.rt.Wheel(e)
		}
	}
	return b
}

// tableWheel lies over a wide table and takes the wheel: sideways turns
// (and turns with Shift held) scroll the table, the others go up to the
// list (up). It takes nothing else: a press, a drag of the scrollbar, the
// pointer go through to the table under it.
type tableWheel struct {
	widget.BaseWidget
	sc    *container.Scroll
	up    func(*fyne.ScrollEvent)
	shift func() bool // Shift is held
}

var _ fyne.Scrollable = (*tableWheel)(nil)

func newTableWheel(sc *container.Scroll) *tableWheel {
	w := &tableWheel{sc: sc, shift: func() bool {
		d, ok := fyne.CurrentApp().Driver().(desktop.Driver)
		return ok && d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0
	}}
	w.ExtendBaseWidget(w)
	return w
}

func (w *tableWheel) Scrolled(e *fyne.ScrollEvent) {
	dx, dy := e.Scrolled.DX, e.Scrolled.DY
	if dx == 0 && w.shift() {
		dx, dy = dy, 0
	}
	if dx != 0 {
		w.sc.Scrolled(&fyne.ScrollEvent{PointEvent: e.PointEvent, Scrolled: fyne.Delta{DX: dx}})
	}
	if dy != 0 && w.up != nil {
		w.up(&fyne.ScrollEvent{PointEvent: e.PointEvent, Scrolled: fyne.Delta{DY: dy}})
	}
}

func (w *tableWheel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}

// TableBox shows a table's grid as it is when it fits its width, and in
// its horizontal scroller when it does not.
type TableBox struct {
	widget.BaseWidget
	sc      *container.Scroll
	content fyne.CanvasObject
	wide    bool
	wheel   *tableWheel // over the scroller, while wide
}

func newTableBox(sc *container.Scroll) *TableBox {
	b := &TableBox{sc: sc, content: sc.Content, wheel: newTableWheel(sc)}
	b.ExtendBaseWidget(b)
	return b
}

// Wide reports whether the table is wider than its place, and so
// scrolls sideways.
func (b *TableBox) Wide() bool { return b.wide }

// Scroll is the table's horizontal scroller (shown only while it is wide).
func (b *TableBox) Scroll() *container.Scroll { return b.sc }

func (b *TableBox) CreateRenderer() fyne.WidgetRenderer {
	r := &tableBoxRenderer{b: b, frame: canvas.NewRectangle(color.Transparent)}
	r.frame.StrokeWidth = 1
	r.frame.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	return r
}

// tableBoxRenderer draws the table and, over it, its frame: Fyne's grid
// shows its lines through gaps between the cells' fills, and the last
// row's fill, rounded to whole pixels, covered the bottom line.
type tableBoxRenderer struct {
	b     *TableBox
	frame *canvas.Rectangle
}

func (r *tableBoxRenderer) Layout(size fyne.Size) {
	b := r.b
	r.frame.Move(fyne.Position{})
	r.frame.Resize(size)
	b.wide = size.Width < b.content.MinSize().Width
	if b.wide {
		if b.sc.Content != b.content {
			b.sc.Content = b.content
			b.sc.Refresh()
		}
		b.sc.Move(fyne.Position{})
		b.sc.Resize(size)
		b.wheel.Move(fyne.Position{})
		b.wheel.Resize(size)
		return
	}
	b.content.Move(fyne.Position{})
	b.content.Resize(size)
}

// MinSize never asks for the table's whole width: a wide one scrolls.
func (r *tableBoxRenderer) MinSize() fyne.Size { return r.b.sc.MinSize() }

func (r *tableBoxRenderer) Objects() []fyne.CanvasObject {
	if r.b.wide {
		return []fyne.CanvasObject{r.b.sc, r.frame, r.b.wheel}
	}
	return []fyne.CanvasObject{r.b.content, r.frame}
}

func (r *tableBoxRenderer) Refresh() {
	r.frame.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	r.frame.Refresh()
	r.Layout(r.b.Size())
}
func (r *tableBoxRenderer) Destroy() {}
