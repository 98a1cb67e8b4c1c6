package gui

import (
	"image/color"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// A caption's text takes the placeholder colour, also after it changes,
// without a theme override (whose fonts Fyne would load and keep once per
// caption).
func TestCaptionColour(t *testing.T) {
	guitest.NewApp(t)
	l, obj := widgets.Caption("first")
	test.NewTempWindow(t, obj)
	colour := func() string {
		var got string
		for _, o := range test.WidgetRenderer(obj.(*widgets.DimLabel)).Objects() {
			if rt, ok := o.(*widget.RichText); ok {
				got = string(rt.Segments[0].(*widget.TextSegment).Style.ColorName)
			}
		}
		return got
	}
	if c := colour(); c != string(theme.ColorNamePlaceHolder) {
		t.Errorf("colour %q", c)
	}
	l.SetText("second")
	if c := colour(); c != string(theme.ColorNamePlaceHolder) {
		t.Errorf("colour after widgets.SetText %q", c)
	}
	if _, ok := obj.(*widgets.DimLabel); !ok {
		t.Errorf("caption is a %T", obj)
	}
}

// TestThemeChangeRepaintsTheChat: a theme chosen in the settings, while the
// settings stand in the chat's place, reaches the chat at once: the tool
// card's fill and text, the person's tinted message and the headers are in
// the new theme's colours when the chat comes back (they stayed in the
// old: white on white, or light grey cards on the dark theme).
func TestThemeChangeRepaintsTheChat(t *testing.T) {
	for _, tc := range []struct{ name, from, to string }{
		{"dark to light", config.ThemeDark, "Light"},
		{"light to dark", config.ThemeLight, "Dark"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newCardHarnessWith(t, harnessOptions{cfg: func(c *config.Config) { c.UI.Theme = tc.from }})
			now := time.Now()
			h.tr.User("add 17 and 25", now)
			h.finished("c1", "t.add", "42", nil)
			h.tr.Assistant("It is 42.", now)
			h.frame()
			h.drain()
			if h.card("t.add") == nil {
				t.Fatal("no card on screen")
			}
			f := h.openSettings()
			f.Theme.SetSelected(tc.to)
			h.saveSettings(f)
			h.drain()

			fg, fill := theme.Color(theme.ColorNameForeground), theme.Color(theme.ColorNameInputBackground)
			c := h.card("t.add")
			if c == nil {
				t.Fatal("no card on screen after saving")
			}
			if got := c.Tool().Border.FillColor; got != fill {
				t.Errorf("card fill = %v, want %v", got, fill)
			}
			for _, want := range []string{`"q"`, "42", "t.add"} {
				if got, ok := textColour(c, want); !ok || got != fg {
					t.Errorf("card text %q colour = %v (found %v), want %v", want, got, ok, fg)
				}
			}
			var user, header bool
			for _, r := range h.visibleRows() {
				if tv := r.Text(); tv != nil && r.Row.Kind == transcript.Text && r.Row.Role == "user" {
					user = true
					if tv.Bg.FillColor != fill {
						t.Errorf("the person's message fill = %v, want %v", tv.Bg.FillColor, fill)
					}
				}
				if r.Row.Kind == transcript.Header && r.Row.Role == "user" {
					header = true
					if got, ok := textColour(r, "You"); !ok || got != fg {
						t.Errorf("header text colour = %v (found %v), want %v", got, ok, fg)
					}
				}
			}
			if got, ok := textColour(h.ui.title, h.ui.title.Text); !ok || got != fg {
				t.Errorf("the chat's title colour = %v (found %v), want %v", got, ok, fg)
			}
			if !user || !header {
				t.Errorf("the person's message shown %v, its header %v", user, header)
			}
		})
	}
}

// textColour is the colour of the first drawn text under o that holds
// text.
func textColour(o fyne.CanvasObject, text string) (color.Color, bool) {
	var found color.Color
	guitest.Walk(o, func(o fyne.CanvasObject) {
		if x, ok := o.(*canvas.Text); ok && found == nil && strings.Contains(x.Text, text) {
			found = x.Color
		}
	})
	return found, found != nil
}

// TestLightThemeTextContrast: on the light theme, text in the success,
// warning and error colours (the settings' Check result, the key's
// warnings, errors) reads at 4.5:1 or more on the background (Fyne's green
// was 1.5:1).
func TestLightThemeTextContrast(t *testing.T) {
	guitest.NewApp(t)
	l := newLook(config.UI{Theme: config.ThemeLight})
	bg := l.Color(theme.ColorNameBackground, theme.VariantLight)
	for _, n := range []fyne.ThemeColorName{theme.ColorNameSuccess, theme.ColorNameWarning, theme.ColorNameError, theme.ColorNameForeground} {
		if c := contrast(l.Color(n, theme.VariantLight), bg); c < 4.5 {
			t.Errorf("%s on the light background: %.1f:1, want at least 4.5:1", n, c)
		}
	}
}

// contrast is WCAG's contrast ratio of two colours, as the find marks
// choose their ink by.
var contrast = richtext.Contrast

// TestUncheckedBoxContrast: on the light theme an unchecked check box's
// outline (Fyne draws it in the input border's colour) stands out from
// the background at 3:1 or more (WCAG's non-text contrast; Fyne's
// #E3E3E3 was 1.3:1, the box nearly invisible), drawn so too; the dark
// theme keeps Fyne's colour.
func TestUncheckedBoxContrast(t *testing.T) {
	guitest.NewApp(t)
	for _, tc := range []struct {
		ui      config.UI
		variant fyne.ThemeVariant
	}{
		{config.UI{Theme: config.ThemeLight}, theme.VariantLight},
		{config.UI{Theme: config.ThemeDark}, theme.VariantDark},
	} {
		l := newLook(tc.ui)
		border, bg := l.Color(theme.ColorNameInputBorder, tc.variant), l.Color(theme.ColorNameBackground, tc.variant)
		if tc.variant == theme.VariantDark {
			if want := theme.DefaultTheme().Color(theme.ColorNameInputBorder, tc.variant); border != want {
				t.Errorf("the dark theme's input border is %v, want Fyne's %v", border, want)
			}
			continue
		}
		if c := contrast(border, bg); c < 3 {
			t.Errorf("the light theme's input border %v on its background %v: %.2f:1, want at least 3:1", border, bg, c)
		}
	}

	// Drawn: the most contrasted pixel of an unchecked box, on its own.
	l := newLook(config.UI{Theme: config.ThemeLight})
	fyne.CurrentApp().Settings().SetTheme(l)
	w := test.NewTempWindow(t, widget.NewCheck("", nil))
	bg := l.Color(theme.ColorNameBackground, theme.VariantLight)
	img := w.Canvas().Capture()
	best := 0.0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			best = max(best, contrast(img.At(x, y), bg))
		}
	}
	t.Logf("the unchecked box drawn on the light theme: its outline at %.2f:1 at best", best)
	if best < 3 {
		t.Errorf("the unchecked box drawn on the light theme: its outline at %.2f:1 at best, want at least 3:1", best)
	}
}
