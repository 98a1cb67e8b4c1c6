package connect

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
)

// formEntry is a field of the connect and edit form in which Escape and
// Ctrl+W (Cmd+W) do what they do in every panel, Cancel here, and Ctrl+Q
// quits. A focused entry keeps every key from the window's handler, and
// the form opens with a field focused: neither key closed it, though they
// close the tools and the resources.
type formEntry struct {
	widgets.PageEntry // Tab onto it scrolls the form to it: InPage
	f                 *Form
}

func newFormEntry(f *Form, multiLine bool) *formEntry {
	e := &formEntry{f: f}
	e.MultiLine = multiLine
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip) // as widget.NewEntry and NewMultiLineEntry
	e.ExtendBaseWidget(e)
	e.Outer(e)
	return e
}

func (e *formEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape {
		e.f.cancel()
		return
	}
	e.Entry.TypedKey(k)
}

func (e *formEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault {
		switch cs.KeyName {
		case fyne.KeyW:
			e.f.cancel()
			return
		case fyne.KeyQ:
			e.f.h.Quit()
			return
		}
	}
	e.PageEntry.TypedShortcut(s)
}

// EntryWidget is the entry under it, for the window's screen dump.
func (e *formEntry) EntryWidget() *widget.Entry { return &e.Entry }
