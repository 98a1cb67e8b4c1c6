package gui

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// chatEntry is the message box: several lines, Enter sends, Shift+Enter
// starts a new line, Escape stops the run, Tab and Shift+Tab move the
// focus on (a tab character is never what a message needs), and the
// window's shortcuts (Ctrl+N, Ctrl+K, Ctrl+,) work while it has the focus:
// a focused entry would otherwise take every shortcut for itself.
type chatEntry struct {
	widget.Entry
	onSend func()
	// onEscape, if set, is Escape (stop the run).
	onEscape func()
	// onHelp, if set, is F1 (the shortcuts).
	onHelp func()
	// shortcuts are the window's Ctrl (Cmd) shortcuts, by key.
	shortcuts map[fyne.KeyName]func()
	shift     bool
	// onLongPaste, if set, takes a paste of more than longPaste bytes
	// instead of the box (it becomes an attachment): an entry holding
	// megabytes lays them out on every key.
	onLongPaste func(text string)
	// onPress, if set, is told of a press of the mouse in the box (a
	// click elsewhere than the transcript clears its selection).
	onPress func()
}

// longPaste is the most a paste puts in the message box; more becomes an
// attached text file, as other chat apps do.
const longPaste = 32 << 10

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
	switch {
	case (k.Name == fyne.KeyReturn || k.Name == fyne.KeyEnter) && !e.shift:
		e.onSend()
		return
	case k.Name == fyne.KeyEscape && e.onEscape != nil:
		e.onEscape()
		return
	case k.Name == fyne.KeyF1 && e.onHelp != nil:
		e.onHelp()
		return
	}
	e.Entry.TypedKey(k)
}

// AcceptsTab is false: Tab leaves the box, as in a form.
func (e *chatEntry) AcceptsTab() bool { return false }

// TypedShortcut runs the window's own shortcuts, and gives the rest (copy,
// paste, select all, undo) to the entry.
func (e *chatEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault {
		if f := e.shortcuts[cs.KeyName]; f != nil {
			f()
			return
		}
	}
	if p, ok := s.(*fyne.ShortcutPaste); ok && e.onLongPaste != nil && p.Clipboard != nil {
		if text := p.Clipboard.Content(); len(text) > longPaste {
			e.onLongPaste(text)
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

func (e *chatEntry) MouseDown(m *desktop.MouseEvent) {
	if e.onPress != nil {
		e.onPress()
	}
	e.Entry.MouseDown(m)
}

// FocusLost forgets Shift: its KeyUp may go to another widget.
func (e *chatEntry) FocusLost() {
	e.shift = false
	e.Entry.FocusLost()
}

func (e *chatEntry) blank() bool { return strings.TrimSpace(e.Text) == "" }

// setTextAtEnd puts text in the box with the caret after it, where typing
// goes on (SetText leaves the caret where it was in the old text).
func (e *chatEntry) setTextAtEnd(text string) {
	e.SetText(text)
	lines := strings.Split(text, "\n")
	e.CursorRow = len(lines) - 1
	e.CursorColumn = utf8.RuneCountInString(lines[len(lines)-1])
	e.Refresh()
}

func (e *chatEntry) focus(w fyne.Window) { w.Canvas().Focus(e) }
