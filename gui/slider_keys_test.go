package gui

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/settings"
	"deckhand/gui/widgets"
	"deckhand/keys"
)

// TestSettingsTextSizeKeysStepOnce: at 640×480 in the light theme, each
// arrow on the text-size slider moves it one 5% step in the key's
// direction, its value said at once, however far the size has gone. (New-
// user pass 12: Right ×6 from 100% gave 105%, a Left made the text bigger,
// and the value went 140, 140, 130.)
func TestSettingsTextSizeKeysStepOnce(t *testing.T) {
	for _, start := range []float64{0, 1.25} {
		t.Run(fmt.Sprintf("from %.0f%%", max(start, 1)*100), func(t *testing.T) {
			keys.MockInit()
			h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI = config.UI{Theme: "light", TextScale: start} }})
			applyLook(h.app, h.ui.cfg.UI)
			h.ui.win.Resize(fyne.NewSize(640, 480))
			f := h.openSettings()
			h.drain()
			h.ui.win.Canvas().Focus(f.TextSize)
			v := max(start, 1) * 100
			var keysPressed []string
			press := func(k fyne.KeyName, by float64) {
				t.Helper()
				h.key(k)
				keysPressed = append(keysPressed, string(k))
				v = max(config.MinTextScale*100, min(config.MaxTextScale*100, v+by))
				want := fmt.Sprintf("%.0f%%", v)
				if f.TextLabel.Text != want || f.TextSize.Value != v {
					t.Fatalf("after %v the slider is at %.2f and says %s, want %s", keysPressed, f.TextSize.Value, f.TextLabel.Text, want)
				}
				h.drain()
				if f.TextLabel.Text != want || f.TextSize.Value != v {
					t.Fatalf("after %v, once drawn, the slider is at %.2f and says %s, want %s", keysPressed, f.TextSize.Value, f.TextLabel.Text, want)
				}
				if got := h.ui.win.Canvas().Focused(); got != f.TextSize {
					t.Fatalf("after %v the keyboard is on %T, not the slider", keysPressed, got)
				}
			}
			for range 6 {
				press(fyne.KeyRight, 5)
			}
			press(fyne.KeyLeft, -5)
			for range 8 {
				press(fyne.KeyRight, 5)
			}
			for range 3 {
				press(fyne.KeyLeft, -5)
			}
		})
	}
}

// settingsButton is the settings' button named label, as the focus knows
// it.
func settingsButton(t *testing.T, f *settings.Form, label string) fyne.Focusable {
	t.Helper()
	var found fyne.Focusable
	guitest.Walk(f.Window().Canvas().Content(), func(o fyne.CanvasObject) {
		switch b := o.(type) {
		case *widgets.RingButton:
			if b.Text == label && found == nil {
				found = b
			}
		case *widget.Button:
			if b.Text == label && found == nil {
				found = b
			}
		}
	})
	if found == nil {
		t.Fatalf("no button %q in the settings", label)
	}
	return found
}

// TestSettingsTabFromCloseToSave: at 640×480 and 150%, Tab from Close
// lands on Save, which is ringed, and Return there saves the text size the
// arrows chose. (New-user pass 12: no ring anywhere after Close, and
// Return saved nothing; a click on Save did.)
func TestSettingsTabFromCloseToSave(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI = config.UI{Theme: "light", TextScale: 1.4} }})
	applyLook(h.app, h.ui.cfg.UI)
	h.ui.win.Resize(fyne.NewSize(640, 480))
	f := h.openSettings()
	h.drain()
	c := h.ui.win.Canvas()
	c.Focus(f.TextSize)
	h.key(fyne.KeyRight)
	h.drain()
	closeB, save := settingsButton(t, f, "Close"), settingsButton(t, f, "Save")
	c.Focus(closeB)
	h.drain()
	if shown, has := ringShown(closeB.(fyne.CanvasObject)); !shown || !has {
		t.Errorf("Close, focused, shows no ring (it can: %v)", has)
	}
	c.FocusNext()
	h.drain()
	if got := c.Focused(); got != save {
		t.Fatalf("Tab from Close went to %T, not Save", got)
	}
	if shown, has := ringShown(save.(fyne.CanvasObject)); !shown || !has {
		t.Errorf("Save, focused, shows no ring (it can: %v)", has)
	}
	h.key(fyne.KeyReturn)
	h.drain()
	data, err := os.ReadFile(h.ui.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "text_scale = 1.45") {
		t.Errorf("Return on Save: the config file holds\n%s\nwant text_scale = 1.45", data)
	}
}

// TestSettingsFitAtTheLargestText: at 640×480 and the largest text size
// the slider gives, every tab of the settings is as narrow as its pane,
// and nothing in it runs past the window's right edge. (New-user pass 12:
// at 140% and more the page was wider than the window, the text size's
// value cut to "1…" and the theme's "Dark" cut.)
func TestSettingsFitAtTheLargestText(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI = config.UI{Theme: "light", TextScale: config.MaxTextScale} }})
	applyLook(h.app, h.ui.cfg.UI)
	h.ui.win.Resize(fyne.NewSize(640, 480))
	f := h.openSettings()
	d := fyne.CurrentApp().Driver()
	for i, tab := range f.Tabs.Items {
		f.Tabs.SelectIndex(i)
		h.drain()
		page := tab.Content.(*container.Scroll)
		page.Refresh()
		if need, have := page.Content.MinSize().Width, page.Size().Width; need > have {
			t.Errorf("%s needs %.0f px wide, its pane is %.0f", tab.Text, need, have)
		}
		edge := d.AbsolutePositionForObject(page).X + page.Size().Width
		// The page's containers, down to its controls (an entry's text
		// scrolls inside it, and is not looked into).
		var walk func(o fyne.CanvasObject)
		walk = func(o fyne.CanvasObject) {
			if !o.Visible() {
				return
			}
			if right := d.AbsolutePositionForObject(o).X + o.Size().Width; right > edge+0.5 {
				t.Errorf("%s: %s ends at %.0f px, past the pane's edge at %.0f", tab.Text, named(o), right, edge)
			}
			if c, ok := o.(*fyne.Container); ok {
				for _, x := range c.Objects {
					walk(x)
				}
			}
		}
		walk(page.Content)
	}
}

// named names a control for a failure message: its type, and its text if
// it has one.
func named(o fyne.CanvasObject) string {
	switch x := o.(type) {
	case *widget.Label:
		return fmt.Sprintf("label %q", x.Text)
	case *widget.RadioGroup:
		return fmt.Sprintf("choice %q", x.Options)
	}
	return fmt.Sprintf("a %T", o)
}

// TestSettingsTextSizeKeysShowAtOnce: arrows typed in one go move the
// slider and its value at once, each key, and the size is applied once,
// after them, at the last key's value. Each new size redraws every window
// (every widget's theme, Fyne's font caches); applied at each press it
// held the next keys and frames back, and at 640×480 a person saw the
// keys act late, as if lost or reversed (new-user pass 12: Right ×6 from
// 100% showed 105%, a Left made the text bigger).
func TestSettingsTextSizeKeysShowAtOnce(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI = config.UI{Theme: "light"} }})
	applyLook(h.app, h.ui.cfg.UI)
	h.ui.win.Resize(fyne.NewSize(640, 480))
	f := h.openSettings()
	h.drain()
	redraws := 0
	h.app.Settings().AddListener(func(fyne.Settings) { redraws++ })
	h.ui.win.Canvas().Focus(f.TextSize)
	for i := range 6 {
		h.key(fyne.KeyRight)
		if want := fmt.Sprintf("%d%%", 105+5*i); f.TextLabel.Text != want {
			t.Fatalf("Right ×%d from 100%%: the slider says %s, want %s", i+1, f.TextLabel.Text, want)
		}
	}
	h.key(fyne.KeyLeft)
	if f.TextLabel.Text != "125%" || f.TextSize.Value != 125 {
		t.Fatalf("then Left: the slider is at %.2f and says %s, want 125%%", f.TextSize.Value, f.TextLabel.Text)
	}
	if redraws != 0 {
		t.Errorf("the window was redrawn at a new size %d times while the keys came, want none until they are in", redraws)
	}
	h.drain()
	if redraws != 1 {
		t.Errorf("the keys redrew the window at a new size %d times, want once", redraws)
	}
	if got := h.app.Settings().Theme().Size(theme.SizeNameText) / theme.DefaultTheme().Size(theme.SizeNameText); got < 1.24 || got > 1.26 {
		t.Errorf("once the keys are in, the text is drawn at %.2f of its size, want 1.25", got)
	}
	if f.TextLabel.Text != "125%" || f.TextSize.Value != 125 {
		t.Errorf("once applied, the slider is at %.2f and says %s, want 125%%", f.TextSize.Value, f.TextLabel.Text)
	}
}
