package main

import (
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"deckhand/gui"
)

// The text-size slider follows the pointer as it is dragged: each small
// move of the hand moves the value a little, never not at all and then a
// jump (it snapped to steps of 5%, and its percentage beside it, wider at
// 100% than at 95%, moved the track under the pointer).
func TestWindowTextSizeSliderFollowsThePointer(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	cfg := scriptedConfig("http://127.0.0.1:9")
	w := startRealWindow(t, cfg, nil)
	w.key("ctrl+comma")
	s := w.waitScreen("the settings", func(s gui.Screen) bool { return shows(s, "Answers") })
	any, _ := find(s, "label", "Answers")
	s = w.wheelUntil("the text-size slider", any, func(s gui.Screen) bool {
		sl, ok := find(s, "slider", "")
		return ok && sl.Y > 0 && sl.Y+sl.H < s.Windows[0].H-40 && len(sliders(s)) == 2
	})
	sl := sliders(s)[1] // below Creativity's
	value := func() float64 {
		v, _ := strconv.ParseFloat(sliders(w.screen())[1].Text, 64)
		return v
	}
	v0, _ := strconv.ParseFloat(sl.Text, 64)
	win := w.windowID(sl.Window)
	// The thumb, where the value puts it (the track spans the slider less
	// its end paddings, about the thumb's half on each side).
	const min, max = 90.0, 150.0
	pad := sl.H / 2
	x := sl.X + pad + float32((v0-min)/(max-min))*(sl.W-2*pad)
	y := sl.Y + sl.H/2
	w.xdo("mousemove", "--sync", "--window", win, fmt.Sprint(int(x)), fmt.Sprint(int(y)))
	w.xdo("mousedown", "1")
	defer w.xdo("mouseup", "1")
	perPixel := (max - min) / float64(sl.W-2*pad)
	const step = 6 // pixels a move
	move := func(dx int) {
		w.xdo("mousemove", "--sync", "--window", win, fmt.Sprint(int(x)+dx), fmt.Sprint(int(y)))
	}
	// The value where the drag begins, once the window has taken the
	// first move.
	move(-1)
	ref := value()
	for i := 0; i < 20; i++ {
		time.Sleep(50 * time.Millisecond) // kept: polling the window's value, which follows the pointer a frame later
		if v := value(); v == ref {
			break
		} else {
			ref = v
		}
	}
	// Each move of 6 px: the value follows to within about one move's
	// worth, once the window has taken it (a slider in steps of 5% stays
	// put, then jumps).
	var moves []string
	missed := 0
	for i := 1; i <= 12; i++ {
		move(-1 - i*step)
		want := ref - float64(i*step)*perPixel
		v := value()
		deadline := time.Now().Add(3 * time.Second)
		for math.Abs(v-want) > 0.6 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond) // kept: as above
			v = value()
		}
		moves = append(moves, fmt.Sprintf("%.2f (want %.2f)", v, want))
		if math.Abs(v-want) > 0.6 {
			missed++
		}
	}
	w.keep("text-size-dragged.png")
	if missed > 0 {
		t.Errorf("dragged left %d px a move (about %.2f%% each) from %.2f, the value went %v: %d moves not followed", step, step*perPixel, ref, moves, missed)
	}
}

// sliders are the visible sliders, top first.
func sliders(s gui.Screen) []gui.ScreenItem {
	var out []gui.ScreenItem
	for _, it := range s.Items {
		if it.Kind == "slider" && it.Visible {
			out = append(out, it)
		}
	}
	return out
}

// At 640×480, the text size dragged to 150% keeps the window within the
// screen, its Save and Close in sight (it grew to 769 px, and stayed so
// after Escape, with Send out of reach): what needs more scrolls inside
// it. Each screen read fails the test if the window is past the screen.
func TestWindowTextSizeKeepsTheWindowOnScreen(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	cfg := scriptedConfig("http://127.0.0.1:9")
	w := startRealWindow(t, cfg, nil, withDisplay("640x480"))
	w.key("ctrl+comma")
	s := w.waitScreen("the settings", func(s gui.Screen) bool { return shows(s, "Language model") })
	any, _ := find(s, "label", "Language model")
	s = w.wheelUntil("the text-size slider", any, func(s gui.Screen) bool {
		// Above the row under the page ("Saved in", which wraps, and the
		// buttons), not behind it.
		sl := sliders(s)
		foot, ok := find(s, "label", "Saved in")
		return ok && len(sl) == 2 && sl[1].Y > 0 && sl[1].Y+sl[1].H < foot.Y
	})
	sl := sliders(s)[1]
	closeB, _ := find(s, "button", "Close")
	y := sl.Y + sl.H/2
	w.drag(sl.Window, sl.X+sl.W/2, y, sl.X+sl.W+60, y)
	// Once let go, the text is drawn at 150%.
	s = w.waitScreen("the text at 150%", func(s gui.Screen) bool {
		b, ok := find(s, "button", "Close")
		return ok && b.H > closeB.H*1.2
	})
	w.keep("text-size-150-small.png")
	inSight := func(s gui.Screen, label string) {
		t.Helper()
		b, ok := find(s, "button", label)
		if !ok {
			t.Errorf("no button %s:\n%s", label, s.ScreenText())
			return
		}
		if win := s.Windows[0]; b.X < 0 || b.X+b.W > win.W {
			t.Errorf("%s is at x %.0f to %.0f, out of the %.0f-pixel window", label, b.X, b.X+b.W, win.W)
		}
	}
	inSight(s, "Save")
	inSight(s, "Close")
	w.key("Escape")
	s = w.waitScreen("the chat", func(s gui.Screen) bool { _, ok := findEntry(s, "Message Deckhand"); return ok })
	w.keep("text-size-escaped-small.png")
	inSight(s, "Send")
}
