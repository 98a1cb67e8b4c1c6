package main

import (
	"fmt"
	"strconv"
	"testing"

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
	cfg := "[model]\nbase_url = \"http://127.0.0.1:9\"\nname = \"scripted\"\n\n[tools]\nenabled = false\n"
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
	prev := value()
	var moves []string
	stalls, jumps := 0, 0
	for i := 1; i <= 14; i++ {
		w.xdo("mousemove", "--sync", "--window", win, fmt.Sprint(int(x)-i*step), fmt.Sprint(int(y)))
		v := value()
		d := prev - v
		moves = append(moves, fmt.Sprintf("%.2f", v))
		switch {
		case d <= 0:
			stalls++
		case d > 2.5*step*perPixel:
			jumps++
		}
		prev = v
	}
	w.keep("text-size-dragged.png")
	if stalls > 1 || jumps > 0 {
		t.Errorf("dragged left %d px a move (about %.2f%% each), the value went %v: %d moves did not move it, %d jumped", step, step*perPixel, moves, stalls, jumps)
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
