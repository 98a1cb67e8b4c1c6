package chat

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The list draws only the rows in view, and Fyne's Tab goes only through
// what is drawn: the controls of a message scrolled out of view (its
// Retry, Edit, Delete, Copy, ‹ ›, a card's chevron) could not be reached
// with the keyboard, and a long answer hid its own header's. Two
// invisible stops, just before and just after the list, notice when Tab
// has gone through the controls in view: the list scrolls on by a
// screen, and the focus goes to the first control that came into view
// (Shift+Tab: the last, scrolling up), until the chat's end (its start),
// where the focus leaves the chat as before. Tab into the chat from above
// starts at the first control in view, Shift+Tab from below at the last,
// and the chat stays where it is: it jumped to the chat's first message
// (its last), a long answer away from where the person was reading. The
// controls above the view are reached with Shift+Tab, those below with
// Tab, in the order on screen.
type tabEdge struct {
	widget.BaseWidget
	cv *View
}

var _ fyne.Focusable = (*tabEdge)(nil)

func newTabEdge(cv *View) *tabEdge {
	e := &tabEdge{cv: cv}
	e.ExtendBaseWidget(e)
	return e
}

func (e *tabEdge) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(layout.NewSpacer())
}

// An edge keeps no size (the chat's stack would give it the list's): it
// is never under the pointer.
func (e *tabEdge) Resize(fyne.Size)   {}
func (e *tabEdge) MinSize() fyne.Size { return fyne.Size{} }

func (e *tabEdge) FocusLost()              {}
func (e *tabEdge) TypedRune(rune)          {}
func (e *tabEdge) TypedKey(*fyne.KeyEvent) {}

// FocusGained: Tab (or Shift+Tab) came onto the edge; the focus moves on
// at once, through the rows out of view when there are any.
func (e *tabEdge) FocusGained() {
	cv := e.cv
	if cv.tabbing {
		return // the focus passing over it while the chat moves it
	}
	w := cv.host.Window()
	if w == nil {
		return
	}
	c := w.Canvas()
	cv.tabbing = true
	defer func() { cv.tabbing = false }()
	back := false
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		back = d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0
	}
	// Each turn scrolls by a screen at least, or leaves: bounded by rows.
	// With no control in view (a new chat) it takes three turns to come
	// in, pass over the list and leave by the far edge: with two, the
	// focus stayed on that edge, a Tab stop that shows nothing.
	for range len(cv.Rows) + 3 {
		switch f := c.Focused(); {
		case f == cv.topEdge && !back, f == cv.bottomEdge && back, f == fyne.Focusable(cv.List):
			// Coming into the chat: onto its first (last) control in view.
			// The list itself (Fyne's, focusable) is passed over: it shows
			// no mark, and its arrow keys would pick rows.
			if back {
				c.FocusPrevious()
			} else {
				c.FocusNext()
			}
		case f == cv.bottomEdge:
			// Past the last control in view, going down.
			last := cv.lastInView()
			if last >= len(cv.Rows)-1 {
				c.FocusNext() // the chat's end: on to the message box's row
				return
			}
			cv.Follow = false
			cv.List.ScrollToOffset(cv.rowTop(last + 1))
			c.Focus(cv.topEdge)
			back = false
		case f == cv.topEdge:
			// Before the first control in view, going up.
			first := cv.firstInView()
			if first <= 0 {
				c.FocusPrevious()
				return
			}
			cv.Follow = false
			cv.List.ScrollToOffset(max(0, cv.rowTop(first-1)+cv.Heights[first-1]-cv.List.Size().Height))
			c.Focus(cv.bottomEdge)
			back = true
		default:
			return // a control, or out of the chat
		}
	}
}

// rowTop is where row i starts in the list.
func (cv *View) rowTop(i int) float32 {
	pad, top := theme.Padding(), float32(0)
	for _, h := range cv.Heights[:i] {
		top += h + pad
	}
	return top
}

// firstInView and lastInView are the first and last rows the list draws.
func (cv *View) firstInView() int {
	offset, pad, top := cv.List.GetScrollOffset(), theme.Padding(), float32(0)
	for i, h := range cv.Heights {
		if top+h > offset {
			return i
		}
		top += h + pad
	}
	return len(cv.Heights) - 1
}

func (cv *View) lastInView() int {
	end, pad, top := cv.List.GetScrollOffset()+cv.List.Size().Height, theme.Padding(), float32(0)
	last := -1
	for i, h := range cv.Heights {
		if top >= end {
			break
		}
		last = i
		top += h + pad
	}
	return last
}
