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
// for the light theme, where they colour text on white: Fyne's green
// (#43F436, the Check result) reads at 1.5:1, its orange at 2.2:1 and its
// red at 3.7:1; these at 4.5:1 or more (WCAG AA for text).
var lightText = map[fyne.ThemeColorName]color.Color{
	theme.ColorNameSuccess: color.NRGBA{R: 0x1b, G: 0x7a, B: 0x2a, A: 0xff},
	theme.ColorNameWarning: color.NRGBA{R: 0xa8, G: 0x52, B: 0x00, A: 0xff},
	theme.ColorNameError:   color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff},
}

func (l *look) Font(s fyne.TextStyle) fyne.Resource     { return l.base.Font(s) }
func (l *look) Icon(n fyne.ThemeIconName) fyne.Resource { return l.base.Icon(n) }

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
