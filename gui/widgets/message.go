package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// MessageEntry is a box to write a message in: several lines, Enter sends,
// Shift+Enter starts a new line, Escape does what OnEscape says, Tab and
// Shift+Tab move the focus on (a tab character is never what a message
// needs), and the window's shortcuts work while it has the focus: a
// focused entry would otherwise take every shortcut for itself.
type MessageEntry struct {
	widget.Entry
	OnSend func()
	// OnEscape, if set, is Escape.
	OnEscape func()
	// OnHelp, if set, is F1.
	OnHelp func()
	// Shortcuts are the window's Ctrl (Cmd) shortcuts, by key.
	Shortcuts map[fyne.KeyName]func()
	// OnLongPaste, if set, takes a paste of more than LongPaste bytes
	// instead of the box: an entry holding megabytes lays them out on
	// every key.
	OnLongPaste func(text string)
	LongPaste   int
	// OnPress, if set, is told of a press of the mouse in the box.
	OnPress func()
	shift   bool
}

var _ desktop.Keyable = (*MessageEntry)(nil)

// NewMessageEntry makes a box of three lines that grows with its text.
func NewMessageEntry(onSend func()) *MessageEntry {
	e := &MessageEntry{OnSend: onSend}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.SetMinRowsVisible(3)
	e.ExtendBaseWidget(e)
	return e
}

func (e *MessageEntry) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

func (e *MessageEntry) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

func (e *MessageEntry) TypedKey(k *fyne.KeyEvent) {
	switch {
	case (k.Name == fyne.KeyReturn || k.Name == fyne.KeyEnter) && !e.shift:
		e.OnSend()
		return
	case k.Name == fyne.KeyEscape && e.OnEscape != nil:
		e.OnEscape()
		return
	case k.Name == fyne.KeyF1 && e.OnHelp != nil:
		e.OnHelp()
		return
	}
	e.Entry.TypedKey(k)
}

// AcceptsTab is false: Tab leaves the box, as in a form.
func (e *MessageEntry) AcceptsTab() bool { return false }

// TypedShortcut runs the window's own shortcuts, and gives the rest (copy,
// paste, select all, undo) to the entry.
func (e *MessageEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault {
		if f := e.Shortcuts[cs.KeyName]; f != nil {
			f()
			return
		}
	}
	if p, ok := s.(*fyne.ShortcutPaste); ok && e.OnLongPaste != nil && p.Clipboard != nil {
		if text := p.Clipboard.Content(); len(text) > e.LongPaste {
			e.OnLongPaste(text)
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

func (e *MessageEntry) MouseDown(m *desktop.MouseEvent) {
	if e.OnPress != nil {
		e.OnPress()
	}
	e.Entry.MouseDown(m)
}

// FocusLost forgets Shift: its KeyUp may go to another widget.
func (e *MessageEntry) FocusLost() {
	e.shift = false
	e.Entry.FocusLost()
}

// Blank reports whether the box holds nothing but spaces.
func (e *MessageEntry) Blank() bool { return strings.TrimSpace(e.Text) == "" }

// SetTextAtEnd puts text in the box with the caret after it, where typing
// goes on (SetText leaves the caret where it was in the old text).
func (e *MessageEntry) SetTextAtEnd(text string) {
	e.SetText(text)
	e.CaretAtEnd()
}

// CaretAtEnd puts the caret after the text. Its row counts the lines as
// wrapped, which only the entry knows (a row and column counted by "\n"
// fall in the middle of a long line once it wraps), so Page Down, which
// goes to the end of the last wrapped row, places it. The box must be laid
// out at its width first: a layout that wraps the text again keeps the
// caret's row and cuts its column to that row's length.
func (e *MessageEntry) CaretAtEnd() {
	e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
}

// EntryWidget is the entry under it, for the window's screen dump.
func (e *MessageEntry) EntryWidget() *widget.Entry { return &e.Entry }
