package chat

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
)

// Message controls: what a person can do with a finished run (the person's
// message and all that followed it). Retry asks again, and Edit sends the
// message as edited: each starts a new version of the message, and ‹ ›
// on it switch between the versions and what followed each
// (conversation.NewVersion, ChooseVersion). Delete takes the run out;
// Continue asks the model to go on after Stop, in the same answer. The
// conversation refuses them while an answer is being written; the
// transcript follows its RunRemoved and VersionChosen (the bridge's half,
// in package gui).

// Control is a message control pressed in the transcript. Delete asks
// first; Edit opens the message to edit.
func (cv *View) Control(action Action, run, text string) {
	switch action {
	case Edit:
		cv.editMessage(run, text)
	case Remove:
		back := cv.host.KeepFocus()
		widgets.ConfirmDanger("Delete this message?",
			fmt.Sprintf("%q and the answer to it leave this conversation: the model no longer sees them. The log keeps them, marked deleted.", widgets.Shorten(text, 80)),
			"Delete", func(ok bool) {
				back()
				if ok {
					cv.host.Tell(&RunAction{Action: Remove, Run: run})
				}
			}, cv.host.Window())
	case Choose:
		// The chat is drawn again with that version: the view stays at
		// its message (Reset), not at the chat's end.
		cv.keepAt = run
		cv.host.Tell(&RunAction{Action: action, Run: run})
		cv.host.FocusInput()
	default:
		cv.Follow = true
		cv.host.Tell(&RunAction{Action: action, Run: run})
		// The keyboard goes to the message box, as after Send: the
		// button pressed (Retry, Continue) hides as the run starts, and
		// an approval dialog gave the focus back to nothing.
		cv.host.FocusInput()
	}
}

// retryNow is Retry now on the notice of run, which waits for try: that
// try goes at once; a click that comes as it goes on its own asks for no
// later one.
func (cv *View) retryNow(run string, try int) {
	cv.Follow = true
	cv.host.Tell(&RunAction{Action: RetryNow, Run: run, Try: try})
	cv.host.FocusInput()
}

// editMessage opens the message of run to edit; Send (or Enter, as in
// the message box, Shift+Enter starting a new line) sends it as a new
// version of the message, the old one kept; Escape cancels.
func (cv *View) editMessage(run, text string) {
	back := cv.host.KeepFocus()
	win := cv.host.Window()
	var d *dialog.CustomDialog
	var send func()
	entry := widgets.NewMessageEntry(func() { send() })
	entry.SetText(text)
	entry.SetMinRowsVisible(4)
	entry.OnEscape = func() { d.Hide(); back() }
	send = func() {
		edited := strings.TrimSpace(entry.Text)
		if edited == "" {
			return
		}
		d.Hide()
		back()
		cv.Follow = true
		cv.host.Tell(&RunAction{Action: Edit, Run: run, Text: edited})
	}
	cancel := widget.NewButton("Cancel", func() { d.Hide(); back() })
	ok := widget.NewButton("Send", send)
	ok.Importance = widget.HighImportance
	hint := widget.NewLabel("Sent as a new version: the one before stays, with its answer (‹ › on the message). Enter sends, Shift+Enter starts a new line.")
	hint.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons("Edit message", container.NewBorder(nil, hint, nil, nil, entry), win)
	d.SetButtons([]fyne.CanvasObject{cancel, ok})
	d.Resize(fyne.NewSize(min(560, win.Canvas().Size().Width-40), 0))
	d.Show()
	// The caret goes to the end once the dialog is laid out: its first
	// layout wraps the text and keeps the caret within the first row,
	// after "17" in "please add 17 and 25, then…".
	entry.CaretAtEnd()
	win.Canvas().Focus(entry)
}
