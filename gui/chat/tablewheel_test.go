package chat

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/gui/guitest"
	"deckhand/gui/widgets/richtext"
)

// TestWheelOverAWideTable: the wheel's turns over a table wider than its
// row move the transcript (three steps a notch, as over any row), and
// the table scrolls sideways with a sideways turn (a horizontal wheel, a
// trackpad; Shift and the wheel: widgets' TestTableWheelShift). The
// events go where the window sends them, to the innermost scrollable
// thing under the pointer. Before, the table's scroller took the wheel
// and turned it sideways, and the chat stopped under the pointer (at
// 640x480 the table filled the transcript).
func TestWheelOverAWideTable(t *testing.T) {
	h := newCardHarness(t)
	h.ui.Win.Resize(fyne.NewSize(640, 430))
	cols := strings.Repeat("| column with a long heading ", 7) + "|\n" + strings.Repeat("|---", 7) + "|\n"
	var rows strings.Builder
	for range 12 {
		rows.WriteString(strings.Repeat("| a cell of the table ", 7) + "|\n")
	}
	var after strings.Builder
	for range 30 {
		after.WriteString("A line after the table.\n\n")
	}
	h.tr.User("markdown tour please", time.Now())
	h.tr.Assistant("A table:\n\n"+cols+rows.String()+"\n"+after.String(), time.Now())
	h.frame()
	h.drain()
	cv := h.ui.chat
	var box *richtext.TableBox
	for i := range cv.Rows {
		cv.List.ScrollTo(i)
		h.drain()
		for _, v := range h.visibleRows() {
			guitest.Walk(v, func(o fyne.CanvasObject) {
				if b, ok := o.(*richtext.TableBox); ok && b.Wide() && box == nil {
					box = b
				}
			})
		}
		if box != nil {
			break
		}
	}
	if box == nil {
		t.Fatal("no wide table drawn")
	}
	d := fyne.CurrentApp().Driver()
	at := func() fyne.Position {
		p := d.AbsolutePositionForObject(box)
		return p.AddXY(box.Size().Width/2, min(box.Size().Height, cv.List.Size().Height)/4)
	}
	// The table's top in view, and room below to scroll.
	cv.List.ScrollToOffset(cv.List.GetScrollOffset())
	h.drain()
	pos := at()
	before, side := cv.List.GetScrollOffset(), box.Scroll().Offset.X
	test.Scroll(h.ui.Win.Canvas(), pos, 0, -25)
	if got := cv.List.GetScrollOffset() - before; got != 75 {
		t.Errorf("a notch down over the table moved the transcript %v px, want 75", got)
	}
	if got := box.Scroll().Offset.X; got != side {
		t.Errorf("a notch down over the table scrolled it sideways to %v", got)
	}
	h.drain()
	before = cv.List.GetScrollOffset()
	test.Scroll(h.ui.Win.Canvas(), at(), -25, 0)
	if got := box.Scroll().Offset.X; got <= side {
		t.Errorf("a sideways turn left the table at %v", got)
	}
	if got := cv.List.GetScrollOffset(); got != before {
		t.Errorf("a sideways turn moved the transcript from %v to %v", before, got)
	}
}
