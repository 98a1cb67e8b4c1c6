package composer

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/tools"
)

// longPaste is the most a paste puts in the message box; more becomes an
// attached text file, as other chat apps do.
const longPaste = 32 << 10

// pasted takes a paste too long for the message box (over longPaste). One
// that fits a text file's limit is offered as an attachment (Enter attaches
// it, Escape drops it); a longer one is refused, saying its size and both
// limits (Enter or Escape closes the notice).
func (p *Composer) pasted(text string) {
	size := tools.Size(len(text))
	var d *dialog.CustomDialog
	var msg string
	var buttons []fyne.CanvasObject
	var enter, escape func()
	if len(text) <= maxTextFile {
		msg = fmt.Sprintf("The text you pasted (%s) is longer than the message box takes (%s). Attach it to the message as a text file instead? "+
			"A text file can be at most %s.", size, tools.Size(longPaste), tools.Size(maxTextFile))
		attach := func() { d.Hide(); p.addText("Pasted text", text) }
		drop := func() { d.Hide() }
		ok := widget.NewButton("Attach as a file", attach)
		ok.Importance = widget.HighImportance
		buttons = []fyne.CanvasObject{widget.NewButton("Cancel", drop), ok}
		enter, escape = attach, drop
	} else {
		msg = fmt.Sprintf("The text you pasted (%s) is too long: the message box takes at most %s, and an attached text file at most %s. "+
			"Paste a part of it, or attach a file that holds a part.", size, tools.Size(longPaste), tools.Size(maxTextFile))
		closeIt := func() { d.Hide() }
		ok := widget.NewButton("OK", closeIt)
		ok.Importance = widget.HighImportance
		buttons = []fyne.CanvasObject{ok}
		enter, escape = closeIt, closeIt
	}
	label := widget.NewLabel(msg)
	label.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons("Pasted text", label, p.host.Window())
	d.SetButtons(buttons)
	width := min(480, p.host.Window().Canvas().Size().Width-40)
	d.Resize(fyne.NewSize(width, 0))
	widgets.WithDialogKeys(d, p.host.Window(), enter, escape)
	// Again, now that the label wraps at the dialog's width: its height
	// before was that of a label one word wide.
	d.Resize(fyne.NewSize(width, 0))
}
