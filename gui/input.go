package gui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// chatEntry is the message box: several lines, Enter sends, Shift+Enter
// starts a new line.
type chatEntry struct {
	widget.Entry
	onSend func()
	shift  bool
}

var _ desktop.Keyable = (*chatEntry)(nil)

func newChatEntry(onSend func()) *chatEntry {
	e := &chatEntry{onSend: onSend}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.SetPlaceHolder("Message Deckhand (Enter sends, Shift+Enter starts a new line)")
	e.SetMinRowsVisible(3)
	e.ExtendBaseWidget(e)
	return e
}

func (e *chatEntry) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

func (e *chatEntry) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

func (e *chatEntry) TypedKey(k *fyne.KeyEvent) {
	if (k.Name == fyne.KeyReturn || k.Name == fyne.KeyEnter) && !e.shift {
		e.onSend()
		return
	}
	e.Entry.TypedKey(k)
}

// FocusLost forgets Shift: its KeyUp may go to another widget.
func (e *chatEntry) FocusLost() {
	e.shift = false
	e.Entry.FocusLost()
}

func (e *chatEntry) blank() bool { return strings.TrimSpace(e.Text) == "" }

func (e *chatEntry) focus(w fyne.Window) { w.Canvas().Focus(e) }
