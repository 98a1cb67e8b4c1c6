package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// EscEntry is a one-line entry in which Escape does something (a focused
// entry keeps every key from the window's own handler).
type EscEntry struct {
	widget.Entry
	OnEscape func()
	OnQuit   func() // Ctrl+Q (Cmd+Q), if set
}

func NewEscEntry(onEscape func()) *EscEntry {
	e := &EscEntry{OnEscape: onEscape}
	e.ExtendBaseWidget(e)
	return e
}

func (e *EscEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.OnEscape != nil {
		e.OnEscape()
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut quits on Ctrl+Q (a focused entry gets the shortcuts
// before the window does), and gives the rest to the entry.
func (e *EscEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault && cs.KeyName == fyne.KeyQ && e.OnQuit != nil {
		e.OnQuit()
		return
	}
	e.Entry.TypedShortcut(s)
}

// EntryWidget is the entry under it, for the window's screen dump.
func (e *EscEntry) EntryWidget() *widget.Entry { return &e.Entry }
