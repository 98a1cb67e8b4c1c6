package gui

import (
	"image/color"
	"math"
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

// contrast is WCAG's contrast ratio of two colours.
func contrast(a, b color.Color) float64 {
	lum := func(c color.Color) float64 {
		r, g, b, _ := c.RGBA()
		ch := func(v uint32) float64 {
			x := float64(v) / 0xffff
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(r) + 0.7152*ch(g) + 0.0722*ch(b)
	}
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}
