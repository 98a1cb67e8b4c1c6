package main

import (
	"fmt"
	"image"
	"image/color"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// TestWindowPickerArrowAfterThemeChange: after the light theme is chosen
// in the settings (the dark one at start) and saved, the model picker
// beside the message box still shows its ▾. It kept the dark theme's
// light grey on the light theme's white, unseen, until a restart: the
// chat was out of the window while the settings showed, and Fyne applied
// the theme only to what was in it. Read from the real window's pixels,
// where the screen dump (the widget tree) cannot tell an icon's colour;
// it waits for the light theme to be drawn, then for the arrow.
func TestWindowPickerArrowAfterThemeChange(t *testing.T) {
	cfg := "[model]\nbase_url = \"http://127.0.0.1:9/v1\"\nname = \"scripted\"\n\n[tools]\nenabled = false\n\n[ui]\ntheme = \"dark\"\n"
	w := startRealWindow(t, cfg, nil)
	picker := func() gui.ScreenItem {
		s := w.waitScreen("the model picker", func(s gui.Screen) bool { _, ok := find(s, "select", "scripted"); return ok })
		it, _ := find(s, "select", "scripted")
		return it
	}
	dark := arrowOf(w.windowShot("Deckhand", "theme-dark.png"), picker())
	if dark.bg > 0.4 || dark.arrow < 10 {
		t.Fatalf("in the dark theme the picker's background is %.2f light with %d pixels of arrow: the measure is off", dark.bg, dark.arrow)
	}

	w.clickTheme(t, themeLight)
	w.waitScreen("Light chosen", func(s gui.Screen) bool { _, ok := find(s, "radio", "Light"); return ok })
	w.clickText("button", "Save")
	w.waitScreen("the chat again", func(s gui.Screen) bool { _, ok := findEntry(s, "Message Deckhand"); return ok })

	// The light theme drawn (the picker's background light), then the
	// arrow on it.
	deadline := time.Now().Add(15 * time.Second)
	for {
		light := arrowOf(w.windowShot("Deckhand", "theme-light.png"), picker())
		if light.bg > 0.6 && light.arrow >= dark.arrow/2 {
			t.Logf("the arrow: %d pixels in the dark theme, %d in the light", dark.arrow, light.arrow)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the switch to the light theme the picker's background is %.2f light with %d pixels of arrow, want about %d as in the dark theme",
				light.bg, light.arrow, dark.arrow)
		}
		time.Sleep(200 * time.Millisecond) // between screenshots
	}
}

// Where each theme's option sits along Settings' theme radio (System,
// Light and Dark side by side), as a fraction of its width.
const (
	themeLight float32 = 0.52
	themeDark  float32 = 0.85
)

// clickTheme opens Settings, brings the theme's radio into sight with the
// wheel and clicks the option at fraction at of its width; Settings stay
// open.
func (w *realWindow) clickTheme(t *testing.T, at float32) {
	t.Helper()
	w.key("ctrl+comma")
	s := w.waitScreen("the settings", func(s gui.Screen) bool { _, ok := find(s, "button", "Check"); return ok })
	// The theme is further down the page: the wheel brings it up.
	page, _ := find(s, "label", "Language model")
	w.xdo("mousemove", "--window", w.win, fmt.Sprint(int(page.CX)), fmt.Sprint(int(page.CY)))
	var radio gui.ScreenItem
	testutil.Eventually(t, 90*time.Second, func() bool { // a notch a look; a look may take seconds under load
		var ok bool
		if radio, ok = find(w.screen(), "radio", ""); ok && radio.H > 0 && radio.CY >= radio.Y+radio.H/2-1 {
			return true // all of it in sight
		}
		w.xdo("click", "5")
		return false
	}, "the theme never came into view")
	radio.CX = radio.X + radio.MinW*at
	w.click(radio)
}

// arrowMeasure is what a screenshot shows of a picker: its background's
// luminance (0 black, 1 white) and how many pixels of its right end (the
// ▾ and the padding around it) stand out from it by 0.25 or more.
type arrowMeasure struct {
	bg    float64
	arrow int
}

func arrowOf(img image.Image, picker gui.ScreenItem) arrowMeasure {
	const end = 36 // the icon (20) and its inner padding (8) each side
	y0, y1 := int(picker.Y+2), int(picker.Y+picker.H-2)
	x1 := int(picker.X + picker.W - 1)
	m := arrowMeasure{bg: lum(img.At(x1-2, int(picker.Y+picker.H/2)))}
	for y := y0; y < y1; y++ {
		for x := x1 - end; x < x1; x++ {
			if d := lum(img.At(x, y)) - m.bg; d > 0.25 || d < -0.25 {
				m.arrow++
			}
		}
	}
	return m
}

func lum(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}
