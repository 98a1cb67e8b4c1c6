package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"deckhand/approval"
	"deckhand/config"
	"deckhand/keys"
)

// TestSettingsFitASmallWindow: at 640×480 with the text at 128%, every
// tab of the settings is as narrow as its pane, with a grant listed: its
// lines wrap and its Revoke button shows whole. (Issue 29: Permissions
// was wider than the pane, its lines cut at the edge with a sideways
// scrollbar, and Revoke showed as "× Revo"; General and Advanced fitted.)
func TestSettingsFitASmallWindow(t *testing.T) {
	keys.MockInit()
	h := approvalHarness(t, func(c *config.Config) {
		c.UI.TextScale = 1.28
		c.MCP.AutoApprove = map[string]bool{"t.add": true, "everything.get-tiny-image": false}
	})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	always := approval.AllowAlways
	if n := h.runToEnd("echo hi", &always); n != 1 {
		t.Fatalf("%d dialogs, want 1", n)
	}
	f := h.openSettings()
	for i, tab := range f.Tabs.Items {
		f.Tabs.SelectIndex(i)
		if tab.Text == "Permissions" {
			h.until("the grant", func() bool { return h.button(f.Window(), "Revoke") != nil })
		}
		h.drain()
		page := tab.Content.(*container.Scroll)
		page.Refresh()
		if need, have := page.Content.MinSize().Width, page.Size().Width; need > have {
			t.Errorf("%s needs %.0f px wide, its pane is %.0f", tab.Text, need, have)
		}
	}
	f.Tabs.SelectIndex(1)
	h.drain()
	revoke := h.button(f.Window(), "Revoke")
	d := fyne.CurrentApp().Driver()
	page := f.Tabs.Items[1].Content.(*container.Scroll)
	if right, edge := d.AbsolutePositionForObject(revoke).X+revoke.Size().Width, d.AbsolutePositionForObject(page).X+page.Size().Width; right > edge+0.5 || revoke.Size().Width < revoke.MinSize().Width {
		t.Errorf("Revoke ends at %.0f px, %.0f wide (it needs %.0f); the pane ends at %.0f", right, revoke.Size().Width, revoke.MinSize().Width, edge)
	}
}
