package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A form's page scrolls with the wheel wherever the pointer is. Every
// entry has a scroller of its own (a one-line one too, for text wider than
// it), and Fyne gives the wheel to the innermost scroller under the
// pointer: scrolling the settings stopped dead over the Instructions box,
// and over the API key. So the entries of a page grow
// with their text (they never need to scroll), and the wheel over them
// moves the page.

// Growing makes a multi-line entry as tall as its wrapped text (at least
// minRows), counting its lines on each change.
func Growing(e *widget.Entry, minRows int) {
	if e.Wrapping != fyne.TextWrapWord {
		e.Wrapping = fyne.TextWrapBreak // paths and rules: broken anywhere, shown whole
	}
	prev := e.OnChanged
	e.OnChanged = func(s string) {
		fitRows(e, minRows)
		if prev != nil {
			prev(s)
		}
	}
	fitRows(e, minRows)
}

// fitRows sets e's visible rows to the lines its text wraps to at its
// width (a guess of 560 before it is drawn), plus one to type on.
func fitRows(e *widget.Entry, minRows int) {
	width := e.Size().Width - 4*theme.InnerPadding()
	if width <= 0 {
		width = 560
	}
	style := fyne.TextStyle{}
	size := theme.TextSize()
	rows := 0
	for _, para := range strings.Split(e.Text, "\n") {
		w := fyne.MeasureText(para, size, style).Width
		rows += max(1, int(w/width)+1)
	}
	e.SetMinRowsVisible(max(minRows, rows+1))
}

// pageWheel lies over an entry and hands the wheel to the page's
// scroller. It takes nothing else: taps, drags, the cursor and keys go
// through to the entry under it.
type pageWheel struct {
	widget.BaseWidget
	page func() *container.Scroll
}

func OverPage(e fyne.CanvasObject, page func() *container.Scroll) fyne.CanvasObject {
	w := &pageWheel{page: page}
	w.ExtendBaseWidget(w)
	return container.NewStack(e, w)
}

func (w *pageWheel) Scrolled(ev *fyne.ScrollEvent) {
	if p := w.page(); p != nil {
		p.Scrolled(ev)
	}
}

func (w *pageWheel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}
