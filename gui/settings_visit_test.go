package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"deckhand/config"
	"deckhand/gui/guitest"
)

// TestSettingsNewVisitStartsAtTheTop: the settings left scrolled down a
// page (and on another tab) open again at the top of General, the model
// in sight: at 640×480 (128%) a second visit opened at Appearance, where
// the last one had been. Ctrl+, again while they show is the same visit,
// and keeps the place.
func TestSettingsNewVisitStartsAtTheTop(t *testing.T) {
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.28 }})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	// page is the selected tab's scroller.
	page := func() *container.Scroll {
		t.Helper()
		f := h.ui.settingsF
		for _, s := range guitest.All[*container.Scroll](f.Tabs.Selected().Content) {
			return s
		}
		t.Fatal("no scroller on the settings' page")
		return nil
	}
	down := func() *container.Scroll {
		p := page()
		p.Refresh()
		p.ScrollToOffset(fyne.NewPos(0, p.Content.MinSize().Height-p.Size().Height))
		if p.Offset.Y == 0 {
			t.Fatalf("the page (%v high, in %v) does not scroll: nothing to test", p.Content.MinSize().Height, p.Size().Height)
		}
		return p
	}

	h.ui.showPlace(h.ui.showSettings)
	f := h.openSettings()
	general := down()
	h.ui.showPlace(h.ui.showSettings) // Ctrl+, again: the same visit
	if general.Offset.Y == 0 {
		t.Error("Ctrl+, again while the settings show moved them to the top")
	}
	h.ui.toChat()
	h.ui.showPlace(h.ui.showSettings)
	if f.Tabs.SelectedIndex() != 0 || general.Offset.Y != 0 {
		t.Errorf("reopened, the settings are on tab %d, General scrolled to %.0f; want its top", f.Tabs.SelectedIndex(), general.Offset.Y)
	}

	f.Tabs.SelectIndex(2)
	advanced := down()
	h.ui.toChat()
	h.ui.showPlace(h.ui.showSettings)
	if f.Tabs.SelectedIndex() != 0 || advanced.Offset.Y != 0 {
		t.Errorf("reopened after Advanced, the settings are on tab %d, Advanced scrolled to %.0f; want General's top", f.Tabs.SelectedIndex(), advanced.Offset.Y)
	}
}
