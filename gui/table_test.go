package gui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"deckhand/gui/guitest"
	"deckhand/gui/widgets/richtext"
)

// TestTableSelectedAndFramed: a selection across a Markdown table is
// highlighted over its cells (drawn behind them, as for plain text, it was
// hidden by their opaque fill: copied, but nothing highlighted), and the
// table has a frame on all four sides (the last row's fill covered the
// bottom line of the grid).
func TestTableSelectedAndFramed(t *testing.T) {
	h := newCardHarness(t)
	h.tr.Assistant("Sums:\n\n| a | b | sum |\n|---|---|---|\n| 17 | 25 | 42 |\n| 1 | 2 | 3 |\n\nThat is all.", time.Now())
	h.frame()
	h.drain()
	st := h.selTextWith("42")
	if st == nil {
		t.Fatal("no block shows the table")
	}
	h.ui.chat.Sel.SelectMessage(st.Row())
	var cells, over int
	for _, r := range st.Rich.Runs() {
		if r.Cell {
			cells++
		}
	}
	over = len(st.Over.Objects)
	if cells == 0 || over < cells {
		t.Errorf("%d of the table's %d cells highlighted over their fill", over, cells)
	}
	objs := test.WidgetRenderer(st).Objects()[0].(*fyne.Container).Objects
	if len(objs) != 3 || objs[1] != fyne.CanvasObject(st.Rich) || objs[2] != fyne.CanvasObject(st.Over) {
		t.Errorf("the cells' highlight is not drawn over the text: layers %v", objs)
	}

	var box *richtext.TableBox
	guitest.Walk(st.Rich, func(o fyne.CanvasObject) {
		if b, ok := o.(*richtext.TableBox); ok {
			box = b
		}
	})
	if box == nil {
		t.Fatal("no table drawn")
	}
	objs = test.WidgetRenderer(box).Objects()
	frame, ok := objs[len(objs)-1].(*canvas.Rectangle)
	if !ok || frame.StrokeWidth < 1 || frame.Size() != box.Size() || frame.Position() != (fyne.Position{}) {
		t.Errorf("the table has no frame over it the size of the table (%v): its last layer is %T", box.Size(), objs[len(objs)-1])
	}
}
