package gui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
)

// subdued is the app's theme with text in the placeholder colour, for
// captions that should recede but stay readable (a LowImportance label
// takes the disabled colour, too faint on the dark theme).
type subdued struct{}

func (subdued) base() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

func (s subdued) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if n == theme.ColorNameForeground {
		n = theme.ColorNamePlaceHolder
	}
	return s.base().Color(n, v)
}

func (s subdued) Font(st fyne.TextStyle) fyne.Resource    { return s.base().Font(st) }
func (s subdued) Icon(n fyne.ThemeIconName) fyne.Resource { return s.base().Icon(n) }
func (s subdued) Size(n fyne.ThemeSizeName) float32       { return s.base().Size(n) }

// caption makes a small label in the subdued colour, and what to place in a
// layout for it.
func caption(text string) (*widget.Label, fyne.CanvasObject) {
	l := widget.NewLabel(text)
	l.SizeName = theme.SizeNameCaptionText
	return l, container.NewThemeOverride(l, subdued{})
}

// subtle is a label of normal size in the subdued colour.
func subtle(text string) (*widget.Label, fyne.CanvasObject) {
	l := widget.NewLabel(text)
	return l, container.NewThemeOverride(l, subdued{})
}

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
	return l.base.Color(n, v)
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
