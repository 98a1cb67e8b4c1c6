package chat

import "fyne.io/fyne/v2"

// The mouse wheel over the transcript. Fyne gives a wheel event to the
// innermost scrollable thing under the pointer: the list's own scroller
// moves 25 px a notch, and a Markdown table (which Fyne puts in a
// horizontal scroller) took the wheel for itself and stopped the
// transcript. Rows now take the wheel and move the list three lines a
// notch, and a table that fits its row is drawn without a scroller
// (widgets.TableBox); a wide one scrolls sideways with Shift and the
// wheel, or a sideways turn, and hands the wheel's other turns to its row
// (widgets.MDText.Wheel).

// wheelStep is how far one notch moves the transcript, as a multiple of
// the driver's step.
const wheelStep = 3

var _ fyne.Scrollable = (*RowView)(nil)

// Scrolled moves the transcript.
func (r *RowView) Scrolled(e *fyne.ScrollEvent) { r.cv.wheel(e.Scrolled.DY) }

func (cv *View) wheel(dy float32) {
	l := cv.List
	if !l.Drawn || dy == 0 {
		return
	}
	cv.Tips.Dismiss() // the button under it moves away
	l.ScrollToOffset(l.GetScrollOffset() - dy*wheelStep)
}
