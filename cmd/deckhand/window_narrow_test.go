package main

import (
	"fmt"
	"testing"

	"deckhand/gui"
)

// At any width the message box keeps at least three lines, and room to
// write in: in a narrow window the model picker and Send go under it
// rather than squeezing it.
func TestWindowNarrowMessageBox(t *testing.T) {
	cfg := scriptedConfig("http://127.0.0.1:9/v1")
	w := startRealWindow(t, cfg, nil)
	var lineH float32
	for _, width := range []int{1100, 700, 560} {
		w.xdo("windowsize", "--sync", w.win, fmt.Sprint(width), "700")
		var box gui.ScreenItem
		s := w.waitScreen(fmt.Sprintf("the window %d wide", width), func(s gui.Screen) bool {
			win := windowOf(s, "Deckhand")
			box, _ = findEntry(s, "Message Deckhand")
			return box.W > 0 && win != nil && win.W <= float32(width)+1
		})
		w.keep(fmt.Sprintf("narrow-%d.png", width))
		send, _ := find(s, "button", "Send")
		if lineH == 0 {
			lineH = box.H / 3
		}
		if box.H < 3*lineH-1 {
			t.Errorf("%d wide: the message box is %.0f high, less than three lines (%.0f)", width, box.H, 3*lineH)
		}
		if box.W < 300 {
			t.Errorf("%d wide: the message box is %.0f wide", width, box.W)
		}
		if send.X < box.X+box.W && send.Y < box.Y+box.H && send.Y+send.H > box.Y {
			t.Errorf("%d wide: Send %+v overlaps the box %+v", width, send, box)
		}
		if win := windowOf(s, "Deckhand"); send.X+send.W > win.W+1 {
			t.Errorf("%d wide: Send is outside the window: %+v", width, send)
		}
	}
}
