// Command barewindow is the baseline of Deckhand's window memory
// benchmark: a bare Fyne window of the same size, with a list of 100 rows
// and a multi-line entry, under the same renderer. It prints its PID and
// runs until killed.
package main

import (
	"fmt"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.NewWithID("dev.deckhand.barewindow")
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
