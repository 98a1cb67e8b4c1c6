package gui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/keys"
)

// TestSettingsTabTitlesReadable: in a 640×480 settings window with the
// text at 140% and 150%, every tab's title is shown whole in the tab bar,
// inside the window: none is put away behind the tab bar's "…" (Fyne's
// overflow menu, which is all a person saw of the tabs that did not fit).
func TestSettingsTabTitlesReadable(t *testing.T) {
	for _, scale := range []float64{1.4, 1.5} {
		t.Run(fmt.Sprintf("%.0f%%", scale*100), func(t *testing.T) {
			keys.MockInit()
			h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = scale }})
			h.ui.win.Resize(fyne.NewSize(640, 480))
			f := h.openSettings()
			win := f.Window()
			h.drain()
			f.Tabs.Refresh()
			h.drain()

			content := map[fyne.CanvasObject]bool{}
			for _, it := range f.Tabs.Items {
				content[it.Content] = true
			}
			d := fyne.CurrentApp().Driver()
			edge := win.Canvas().Size()
			shown := map[string]bool{}
			for _, o := range test.WidgetRenderer(f.Tabs).Objects() {
				if content[o] {
					continue
				}
				for _, tx := range guitest.All[*canvas.Text](o) {
					at := d.AbsolutePositionForObject(tx)
					whole := tx.Size().Width+0.5 >= tx.MinSize().Width && tx.Size().Width > 0
					inside := at.X >= 0 && at.Y >= 0 && at.X+tx.MinSize().Width <= edge.Width+0.5 && at.Y+tx.Size().Height <= edge.Height+0.5
					if tx.Text != "" && whole && inside {
						shown[tx.Text] = true
					}
				}
			}
			for _, it := range f.Tabs.Items {
				if !shown[it.Text] {
					t.Errorf("the tab %q is not shown whole in a %.0f×%.0f window (shown: %v)", it.Text, edge.Width, edge.Height, shown)
				}
			}
		})
	}
}
