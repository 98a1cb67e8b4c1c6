package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// The mouse wheel over the transcript. Fyne gives a wheel event to the
// innermost scrollable thing under the pointer: the list's own scroller
// moves 25 px a notch, and a Markdown table (which Fyne puts in a
// horizontal scroller) took the wheel for itself and stopped the
// transcript. Rows now take the wheel (rowWheel) and move the list three
// lines a notch, and a table that fits its row is drawn without a scroller
// (richtext.TableBox); a wide one scrolls sideways with Shift and the
// wheel, or a sideways turn, and hands the wheel's other turns to its row
// (richtext.MDText.Wheel).

// wheelStep is how far one notch moves the transcript, as a multiple of
// the driver's step.
const wheelStep = 3

// rowWheel takes the wheel over a row: it lies under the row's parts,
// with nothing in it. The row itself does not take the wheel: Fyne's
// painter clips what a scrollable thing holds to its bounds, and the
// next row of a paragraph cut in rows draws its first line above its own
// bounds (package block), where it was cut off.
type rowWheel struct {
	widget.BaseWidget
	cv *View
}

var _ fyne.Scrollable = (*rowWheel)(nil)

func newRowWheel(cv *View) *rowWheel {
	w := &rowWheel{cv: cv}
	w.ExtendBaseWidget(w)
	return w
}

// Scrolled moves the transcript.
func (w *rowWheel) Scrolled(e *fyne.ScrollEvent) { w.cv.wheel(e.Scrolled.DY) }

func (w *rowWheel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}

func (cv *View) wheel(dy float32) {
	l := cv.List
	if !l.Drawn || dy == 0 {
		return
	}
	cv.Tips.Dismiss() // the button under it moves away
	l.ScrollToOffset(l.GetScrollOffset() - dy*wheelStep)
}
