package main

import (
	"testing"

	"deckhand/gui"
)

// TestWindowFirstRunSmallScreen: a new user on a 640×480 screen, at the
// default text size, at 120% and at 150%, sees the first-run panel's Look again and
// Open settings without scrolling (below the explanation, they were past
// the window's bottom at 120%), and Open settings opens the settings.
func TestWindowFirstRunSmallScreen(t *testing.T) {
	for _, scale := range []string{"1.0", "1.2", "1.5"} {
		t.Run(scale, func(t *testing.T) {
			cfg := "[tools]\nenabled = false\n\n[ui]\ntext_scale = " + scale + "\n"
			w := startRealWindow(t, cfg, nil, withDisplay("640x480"))
			s := w.waitScreen("the first-run panel, done looking for local servers", func(s gui.Screen) bool {
				return shows(s, "No model server answered")
			})
			w.keep("first-run-" + scale + ".png")
			for _, label := range []string{"Look again", "Open settings"} {
				if it, ok := find(s, "button", label); !ok || !it.Visible {
					t.Errorf("at 640×480 and %s, %q is out of sight: %+v\n%s", scale, label, it, s.ScreenText())
				}
			}
			w.clickText("button", "Open settings")
			w.waitScreen("the settings", func(s gui.Screen) bool { _, ok := find(s, "button", "Save"); return ok })
		})
	}
}
