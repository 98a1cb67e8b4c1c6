package gui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"deckhand/config"
)

// look is the app's theme: Fyne's, with the light or dark variant the
// person chose (or the desktop's) and their text size. It is set on the
// app by applyLook, when the window is made and when the settings change:
// never at package init.
type look struct {
	base    fyne.Theme
	variant *fyne.ThemeVariant // nil: the desktop's
	scale   float32
}

func newLook(ui config.UI) *look {
	l := &look{base: theme.DefaultTheme(), scale: float32(ui.Scale())}
	switch ui.ThemeOrDefault() {
	case config.ThemeLight:
		v := theme.VariantLight
		l.variant = &v
	case config.ThemeDark:
		v := theme.VariantDark
		l.variant = &v
	}
	return l
}

func (l *look) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if l.variant != nil {
		v = *l.variant
	}
	if v == theme.VariantLight {
		if c, ok := lightText[n]; ok {
			return c
		}
	}
	return l.base.Color(n, v)
}

// lightText are darker shades of Fyne's success, warning and error colours
// (and input border) for the light theme, where they colour text on white: Fyne's green
// (#43F436, the Check result) reads at 1.5:1, its orange at 2.2:1 and its
// red at 3.7:1; these at 4.5:1 or more (WCAG AA for text).
var lightText = map[fyne.ThemeColorName]color.Color{
	theme.ColorNameSuccess: color.NRGBA{R: 0x1b, G: 0x7a, B: 0x2a, A: 0xff},
	theme.ColorNameWarning: color.NRGBA{R: 0xa8, G: 0x52, B: 0x00, A: 0xff},
	theme.ColorNameError:   color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff},
	// The outline of an unchecked check box (and of a field): Fyne's
	// #E3E3E3 stands out from white at 1.3:1, the box nearly invisible;
	// this grey at 3.9:1 (3.5:1 on the fields' fill), WCAG's 3:1 for a
	// control's boundary.
	theme.ColorNameInputBorder: color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xff},
}

func (l *look) Font(s fyne.TextStyle) fyne.Resource { return l.base.Font(s) }
func (l *look) Icon(n fyne.ThemeIconName) fyne.Resource {
	if n == theme.IconNameCheckButton && l.light() {
		return checkOutline
	}
	return l.base.Icon(n)
}

// light reports whether the light variant is drawn.
func (l *look) light() bool {
	if l.variant != nil {
		return *l.variant == theme.VariantLight
	}
	return fyne.CurrentApp() != nil && fyne.CurrentApp().Settings().ThemeVariant() == theme.VariantLight
}

// checkOutline is an unchecked box's outline on the light theme: 2 px at
// the inline icon's 20 px, on whole pixels. Fyne's is 0.83 px on half
// pixels, drawn as two pixels half and a third covered: in the input
// border's colour it read at half its contrast (2.0:1 at best, for 3.9:1).
// About Fyne's box (3 to 21 of 24), its corners square.
var checkOutline = fyne.NewStaticResource("check-box-outline.svg", []byte(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">
  <path fill-rule="evenodd" d="M 2.4,2.4 H 21.6 V 21.6 H 2.4 Z M 4.8,4.8 V 19.2 H 19.2 V 4.8 Z" />
</svg>`))

func (l *look) Size(n fyne.ThemeSizeName) float32 {
	s := l.base.Size(n)
	switch n {
	case theme.SizeNameText, theme.SizeNameCaptionText, theme.SizeNameHeadingText, theme.SizeNameSubHeadingText:
		return s * l.scale
	}
	return s
}

// applyLook gives the app the theme and text size of ui, redrawing every
// window. Call it on the UI goroutine.
func applyLook(a fyne.App, ui config.UI) {
	if a == nil {
		return
	}
	if cur, ok := a.Settings().Theme().(*look); ok {
		next := newLook(ui)
		if (cur.variant == nil) == (next.variant == nil) && (cur.variant == nil || *cur.variant == *next.variant) && cur.scale == next.scale {
			return // nothing changed: no redraw
		}
	}
	a.Settings().SetTheme(newLook(ui))
}
