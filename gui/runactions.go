package gui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/conversation"
	"deckhand/gui/widgets"

	"fyne.io/fyne/v2/dialog"
	"github.com/asynkron/protoactor-go/actor"
)

// Message controls: what a person can do with a finished run (the person's
// message and all that followed it). Retry asks again, and Edit sends the
// message as edited: each starts a new version of the message, and ‹ ›
// on it switch between the versions and what followed each
// (conversation.NewVersion, ChooseVersion). Delete takes the run out;
// Continue asks the model to go on after Stop, in the same answer. The
// conversation refuses them while an answer is being written; the
// transcript follows its RunRemoved and VersionChosen.

// Run actions.
const (
	runRetry    = "retry"
	runRemove   = "remove" // Delete
	runContinue = "continue"
	runChoose   = "choose" // ‹ or ›: run is the version to show
	runEdit     = "edit"   // text is the message as edited
)

// uiRunAction asks the bridge to act on a run of the current conversation
// (run "" is the last).
type uiRunAction struct {
	action string
	run    string
	text   string
}

func (b *bridge) runAction(c actor.Context, m *uiRunAction) {
	cs := b.convs[b.current]
	if cs == nil || cs.pid == nil {
		return
	}
	switch m.action {
	case runRetry:
		c.Send(cs.pid, &conversation.NewVersion{Run: m.run})
	case runEdit:
		c.Send(cs.pid, &conversation.NewVersion{Run: m.run, Text: m.text})
	case runChoose:
		c.Send(cs.pid, &conversation.ChooseVersion{Run: m.run})
	case runRemove:
		c.Send(cs.pid, &conversation.RemoveRun{Run: m.run})
	case runContinue:
		c.Send(cs.pid, &conversation.ContinueRun{})
	}
}

// versionChosen shows the branch the conversation now holds.
func (b *bridge) versionChosen(cs *convState, m *conversation.VersionChosen) {
	cs.tr.Show(m.Path, m.Versions)
	if cs.id == b.current {
		b.reset = true
	}
}

// runRemoved takes a removed run out of the transcript.
func (b *bridge) runRemoved(cs *convState, m *conversation.RunRemoved) {
	if cs.tr.RemoveRun(m.Run) && cs.id == b.current {
		b.reset = true
	}
}

// runAction is a message control pressed in the transcript. Delete asks
// first; Edit opens the message to edit.
func (u *UI) runAction(action, run, text string) {
	switch action {
	case runEdit:
		u.editMessage(run, text)
	case runRemove:
		back := u.keepFocus()
		widgets.ConfirmDanger("Delete this message?",
			fmt.Sprintf("%q and the answer to it leave this conversation: the model no longer sees them. The log keeps them, marked deleted.", widgets.Shorten(text, 80)),
			"Delete", func(ok bool) {
				back()
				if ok {
					u.tell(&uiRunAction{action: runRemove, run: run})
				}
			}, u.win)
	case runChoose:
		// The chat is drawn again with that version: the view stays at
		// its message (UI.apply), not at the chat's end.
		u.keepAt = run
		u.tell(&uiRunAction{action: action, run: run})
		u.input.focus(u.win)
	default:
		u.chat.follow = true
		u.tell(&uiRunAction{action: action, run: run})
		// The keyboard goes to the message box, as after Send: the
		// button pressed (Retry, Continue) hides as the run starts, and
		// an approval dialog gave the focus back to nothing.
		u.input.focus(u.win)
	}
}

// editMessage opens the message of run to edit; Send (or Enter, as in
// the message box, Shift+Enter starting a new line) sends it as a new
// version of the message, the old one kept; Escape cancels.
func (u *UI) editMessage(run, text string) {
	back := u.keepFocus()
	var d *dialog.CustomDialog
	var send func()
	entry := newChatEntry(func() { send() })
	entry.SetPlaceHolder("")
	entry.setTextAtEnd(text)
	entry.SetMinRowsVisible(4)
	entry.onEscape = func() { d.Hide(); back() }
	send = func() {
		edited := strings.TrimSpace(entry.Text)
		if edited == "" {
			return
		}
		d.Hide()
		back()
		u.chat.follow = true
		u.tell(&uiRunAction{action: runEdit, run: run, text: edited})
	}
	cancel := widget.NewButton("Cancel", func() { d.Hide(); back() })
	ok := widget.NewButton("Send", send)
	ok.Importance = widget.HighImportance
	hint := widget.NewLabel("Sent as a new version: the one before stays, with its answer (‹ › on the message). Enter sends, Shift+Enter starts a new line.")
	hint.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons("Edit message", container.NewBorder(nil, hint, nil, nil, entry), u.win)
	d.SetButtons([]fyne.CanvasObject{cancel, ok})
	d.Resize(fyne.NewSize(min(560, u.win.Canvas().Size().Width-40), 0))
	d.Show()
	u.win.Canvas().Focus(entry)
}
