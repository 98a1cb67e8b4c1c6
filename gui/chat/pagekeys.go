package chat

import "fyne.io/fyne/v2/theme"

// The keys that read a long chat (the window calls these): Page Up and
// Page Down move the transcript by about a screen, keeping a few lines of
// the screen before in sight; Top and End go to its first and last
// message. The wheel and Tab through every message's buttons were the
// only ways to move through a chat (new-user pass 15, N5). The list holds
// every row (only those in view have widgets), so a page needs no
// loading: rows shown with estimated heights are measured after they are
// drawn, and the view is kept on them (fixHeights).

// Page moves the transcript by about a screen: up, or down.
func (cv *View) Page(up bool) {
	l := cv.List
	if !l.Drawn {
		return
	}
	h := l.Size().Height
	step := max(h-3*theme.TextSize(), h/2)
	if up {
		step = -step
	}
	cv.moveTo(l.GetScrollOffset() + step)
}

// Top shows the chat's first message.
func (cv *View) Top() {
	if cv.List.Drawn {
		cv.moveTo(0)
	}
}

// End shows the chat's end, and keeps it in view as rows arrive.
func (cv *View) End() {
	if cv.List.Drawn {
		cv.Tips.Dismiss()
		cv.toBottom()
	}
}

// moveTo puts the view at offset (within the transcript): the person
// moved it, so a frame does not take it back to the end.
func (cv *View) moveTo(offset float32) {
	cv.Follow = false
	cv.Tips.Dismiss() // the button under the pointer moves away
	cv.List.ScrollToOffset(max(0, offset))
}
