package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// FixedWidth holds a label at the width of its widest text (widest), so
// that what is beside it does not move as its text changes: the text-size
// slider's track moved under the pointer when "95%" became "100%".
func FixedWidth(l *widget.Label, widest string) fyne.CanvasObject {
	w := widget.NewLabel(widest)
	spacer := canvas.NewRectangle(color.Transparent)
	spacer.SetMinSize(fyne.NewSize(w.MinSize().Width, 0))
	return container.NewStack(spacer, l)
}
