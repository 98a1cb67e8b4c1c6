package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// Compact draws o with half the theme's paddings, inside its widgets as
// between them: a bar or a chip of one line of text that takes little of
// a short window's height (a find bar, an attached file). Text, icons and
// colours are the app's theme's, as it changes.
func Compact(o fyne.CanvasObject) *container.ThemeOverride {
	return container.NewThemeOverride(o, compactTheme{})
}

type compactTheme struct{}

func (compactTheme) base() fyne.Theme {
	if a := fyne.CurrentApp(); a != nil {
		return a.Settings().Theme()
	}
	return theme.DefaultTheme()
}

func (c compactTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return c.base().Color(n, v)
}
func (c compactTheme) Font(s fyne.TextStyle) fyne.Resource     { return c.base().Font(s) }
func (c compactTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return c.base().Icon(n) }

func (c compactTheme) Size(n fyne.ThemeSizeName) float32 {
	s := c.base().Size(n)
	switch n {
	case theme.SizeNamePadding, theme.SizeNameInnerPadding:
		return s / 2
	}
	return s
}
