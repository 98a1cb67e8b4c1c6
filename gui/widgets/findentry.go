package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// FindEntry is a find bar's box: what is typed is looked for as it
// changes, Enter goes to the next match, Shift+Enter to the previous,
// Escape closes the bar, and the window's shortcuts work in it.
type FindEntry struct {
	widget.Entry
	onNext, onPrev, onEscape func()
	// Shortcut, if set, is the window's Ctrl (Cmd) shortcut on a key, or
	// nil.
	Shortcut func(fyne.KeyName) func()
	shift    bool
}

var _ desktop.Keyable = (*FindEntry)(nil)

// NewFindEntry looks with find as the text changes.
func NewFindEntry(find func(string), next, prev, escape func()) *FindEntry {
	e := &FindEntry{onNext: next, onPrev: prev, onEscape: escape}
	e.OnChanged = find
	e.ExtendBaseWidget(e)
	return e
}

// EntryWidget is the entry under it, for the window's screen dump.
func (e *FindEntry) EntryWidget() *widget.Entry { return &e.Entry }

func (e *FindEntry) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

func (e *FindEntry) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

func (e *FindEntry) FocusLost() {
	e.shift = false
	e.Entry.FocusLost()
}

func (e *FindEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.shift {
			e.onPrev()
		} else {
			e.onNext()
		}
		return
	case fyne.KeyEscape:
		e.onEscape()
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut: Ctrl+F again selects what the box holds; the window's
// other shortcuts work in it as in the message box.
func (e *FindEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault && e.Shortcut != nil {
		if f := e.Shortcut(cs.KeyName); f != nil {
			f()
			return
		}
	}
	e.Entry.TypedShortcut(s)
}
