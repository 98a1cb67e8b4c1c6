package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// TestTextSizeSliderStaysInView: let go of the text-size slider and it is
// still where the pointer left it, in sight, at 640×480 and at 1280×800.
// The page grew with the text above it and the slider went below the fold,
// to be scrolled to again for the next try.
func TestTextSizeSliderStaysInView(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 640, Height: 480}, {Width: 1280, Height: 800}} {
		for _, to := range []float64{150, 80} {
			h := newHarness(t, harnessOptions{})
			h.ui.win.Resize(size)
			f := h.openSettings()
			h.drain()
			page := f.Tabs.Selected().Content.(*container.Scroll)
			page.ScrollToBottom()
			h.ui.win.Content().Refresh()
			if !inView(h.ui.win, f.TextSize) {
				t.Fatalf("at %v, scrolled to the bottom, the slider is out of sight", size)
			}
			before := fyne.CurrentApp().Driver().AbsolutePositionForObject(f.TextSize)
			f.TextSize.SetValue(to)
			f.TextSize.OnChangeEnded(to)
			h.drain()
			// Laid out again, as a real window is after a change of theme.
			h.ui.win.Content().Refresh()
			if !inView(h.ui.win, f.TextSize) {
				t.Errorf("at %v, after the slider was let go at %.0f%%, it is out of sight (it was at %v, now %v; the page's offset %v)", size, to,
					before, fyne.CurrentApp().Driver().AbsolutePositionForObject(f.TextSize), page.Offset)
			}
			f.Close()
		}
	}
}
