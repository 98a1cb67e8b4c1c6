// Command barewindow is the baseline of Deckhand's window memory
// benchmark: a bare Fyne window of the same size, with a list of 100 rows
// and a multi-line entry, under the same renderer, in the theme variant
// and text size Deckhand is measured at (-theme light|dark, -text-scale
// 1.2). It runs until killed; on SIGUSR1 it logs what Go holds.
package main

import (
	"flag"
	"fmt"
	"image/color"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

func main() {
	variant := flag.String("theme", "", "light or dark (default: the desktop's)")
	scale := flag.Float64("text-scale", 1, "the text size, 1 for 100%")
	flag.Parse()
	reportMemory()
	a := app.NewWithID("dev.deckhand.barewindow")
	look := &look{Theme: theme.DefaultTheme(), scale: float32(*scale)}
	switch *variant {
	case "light":
		v := theme.VariantLight
		look.variant = &v
	case "dark":
		v := theme.VariantDark
		look.variant = &v
	}
	a.Settings().SetTheme(look)
	w := a.NewWindow("Bare")
	list := widget.NewList(
		func() int { return 100 },
		func() fyne.CanvasObject { return widget.NewLabel("row") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(fmt.Sprintf("Row %d", i)) },
	)
	entry := widget.NewMultiLineEntry()
	w.SetContent(container.NewBorder(nil, entry, nil, nil, list))
	w.Resize(fyne.NewSize(1100, 720))
	fmt.Fprintln(os.Stderr, "ready")
	w.ShowAndRun()
}

// look is Fyne's theme in one variant with its text scaled, as Deckhand's
// (gui/theme.go) is.
type look struct {
	fyne.Theme
	variant *fyne.ThemeVariant
	scale   float32
}

func (l *look) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if l.variant != nil {
		v = *l.variant
	}
	return l.Theme.Color(n, v)
}

func (l *look) Size(n fyne.ThemeSizeName) float32 {
	s := l.Theme.Size(n)
	switch n {
	case theme.SizeNameText, theme.SizeNameCaptionText, theme.SizeNameHeadingText, theme.SizeNameSubHeadingText:
		return s * l.scale
	}
	return s
}
