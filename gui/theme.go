package gui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
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
