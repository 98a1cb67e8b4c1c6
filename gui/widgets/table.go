package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A Markdown table that fits its row is drawn without a scroller, so that
// the wheel over it moves the list it is in; one wider than its row keeps
// it, since it needs scrolling sideways.

// FitTables puts the tables of rt in fitTable segments; false if it has
// none.
func FitTables(rt *MDText) bool {
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

// TableBox shows a table's grid as it is when it fits its width, and in
// its horizontal scroller when it does not.
type TableBox struct {
	widget.BaseWidget
	sc      *container.Scroll
	content fyne.CanvasObject
	wide    bool
}

func newTableBox(sc *container.Scroll) *TableBox {
	b := &TableBox{sc: sc, content: sc.Content}
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
		return
	}
	b.content.Move(fyne.Position{})
	b.content.Resize(size)
}

// MinSize never asks for the table's whole width: a wide one scrolls.
func (r *tableBoxRenderer) MinSize() fyne.Size { return r.b.sc.MinSize() }

func (r *tableBoxRenderer) Objects() []fyne.CanvasObject {
	if r.b.wide {
		return []fyne.CanvasObject{r.b.sc, r.frame}
	}
	return []fyne.CanvasObject{r.b.content, r.frame}
}

func (r *tableBoxRenderer) Refresh() {
	r.frame.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	r.frame.Refresh()
	r.Layout(r.b.Size())
}
func (r *tableBoxRenderer) Destroy() {}
