package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/keys"
)

// TestSettingsNothingCutSmall: at 640x480 and 128%, the Service's value,
// the saved key's placeholder and the config file's path show whole.
// (Issue 29: "Other (its address is under Adva…", the placeholder cut by
// the Remove key button beside it, "Saved in …/deckhand/con…".)
func TestSettingsNothingCutSmall(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) {
		c.UI.TextScale = 1.28
		c.Path = t.TempDir() + "/a/rather/long/home/of/someone/.config/deckhand/config.toml"
	}})
	if err := keys.Store(h.model.URL, "sk-saved-2b7f"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { keys.Remove(h.model.URL) })
	h.ui.win.Resize(fyne.NewSize(640, 480))
	f := h.openSettings()
	h.until("Remove key", func() bool { return !f.RemoveKey.Hidden })
	h.drain()
	h.ui.win.Content().Refresh()
	c := h.ui.win.Canvas()
	guitest.Walk(c.Content(), func(o fyne.CanvasObject) {
		if x, ok := o.(*canvas.Text); ok && strings.HasSuffix(x.Text, "…") {
			t.Errorf("cut off: %q", x.Text)
		}
	})
	if got := f.Service.Selected; !strings.HasPrefix(got, "Other") {
		t.Fatalf("the Service shows %q, want Other", got)
	}
	size := theme.TextSize() // the look's, at 128%
	ph := f.APIKey.PlaceHolder
	need := fyne.MeasureText(ph, size, fyne.TextStyle{}).Width + 3*theme.InnerPadding() + theme.IconInlineSize()
	if have := f.APIKey.Size().Width; have < need {
		t.Errorf("the key's placeholder %q needs %.0f px, its field is %.0f wide", ph, need, have)
	}
	var path *widgets.DimLabel
	guitest.Walk(c.Content(), func(o fyne.CanvasObject) {
		if x, ok := o.(*widgets.DimLabel); ok && strings.HasPrefix(x.Text, "Saved in ") {
			path = x
		}
	})
	if path == nil {
		t.Fatal("no \"Saved in\" line")
	}
	var shown strings.Builder
	guitest.Walk(path, func(o fyne.CanvasObject) {
		if x, ok := o.(*canvas.Text); ok {
			shown.WriteString(x.Text)
		}
	})
	if path.Size().Height < path.MinSize().Height-0.5 {
		t.Errorf("the config's path is %.0f px high, its lines need %.0f", path.Size().Height, path.MinSize().Height)
	}
	if shown.String() != path.Text {
		t.Errorf("the config's path shows as %q, want %q", shown.String(), path.Text)
	}
}
