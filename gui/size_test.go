package gui

import (
	"testing"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"deckhand/config"
)

// TestWindowNeverOutgrowsASmallScreen: whatever the text size, the main
// window's content asks for no more than a 640×480 screen, with the chat
// or with the settings in its place: what needs more scrolls inside the
// window. A window whose content needs more is grown by Fyne past the
// screen's edge (769 px wide at 150%, Save, Close and Send out of reach),
// and never shrunk again.
func TestWindowNeverOutgrowsASmallScreen(t *testing.T) {
	for _, scale := range []float64{1, 1.5} {
		h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = scale }})
		h.until("a new conversation", func() bool { return h.ui.conv != "" })
		h.drain()
		split := h.ui.win.Content().(*container.Split)
		fits := func(what string) {
			t.Helper()
			// The window manager's title bar takes some of the 480.
			if m := h.ui.win.Content().MinSize(); m.Width > 640 || m.Height > 440 {
				t.Errorf("at %.0f%%, the window with %s needs %.0f×%.0f, more than a 640×480 screen", scale*100, what, m.Width, m.Height)
			}
			// Shown whole, without scrolling sideways: the chat and the
			// settings (their Save and Close).
			side, main := split.Leading.MinSize(), h.ui.mainArea.MinSize()
			if w := side.Width + main.Width + theme.Padding(); what != "the servers" && w > 640 {
				t.Errorf("at %.0f%%, %s needs %.0f px wide (the sidebar %.0f), more than a 640-pixel screen", scale*100, what, w, side.Width)
			}
		}
		fits("the chat")
		f := h.openSettings()
		fits("the settings")
		f.Close()
		h.ui.showServers()
		fits("the servers")
	}
}
