package widgets

import (
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// MessageEntry is a box to write a message in: several lines, Enter sends,
// Shift+Enter starts a new line, Escape does what OnEscape says, Tab and
// Shift+Tab move the focus on (a tab character is never what a message
// needs), and the window's shortcuts work while it has the focus: a
// focused entry would otherwise take every shortcut for itself. With a
// Primary, text selected in it becomes the desktop's primary selection,
// and a middle click pastes that where it clicks.
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
	// OnPress, if set, is told of a press of the mouse in the box (not of
	// the middle button's, which pastes).
	OnPress func()
	// Primary, if set, is the desktop's primary selection.
	Primary PrimarySelection
	// OnDeleteEmpty, if set, is Delete pressed in the empty box as the
	// first thing done in it since ArmDelete (a click on a chat in the
	// window's list gave the box the keyboard, and Delete then means the
	// chat, as it does in the list); it reports whether it took the key.
	// Delete anywhere else in the box deletes text, as ever.
	OnDeleteEmpty func() bool
	// OnPage, if set, is Page Up (up) or Page Down pressed in the box
	// while its text fits in it (the box has nothing to page through): the
	// chat above pages, as in other chat apps. With a text taller than the
	// box they move in it, as ever.
	OnPage func(up bool)
	// OnEnds, if set, is Ctrl+Home (top) or Ctrl+End pressed in the empty
	// box: the chat's start, its end.
	OnEnds      func(top bool)
	shift       bool
	middle      bool // the middle button is down: its drag selects nothing
	deleteArmed bool // ArmDelete, and nothing done in the box since
}

// ArmDelete makes a Delete pressed next, in the empty box, OnDeleteEmpty:
// any other key, a letter, a shortcut, a click or the focus gone first
// forget it.
func (e *MessageEntry) ArmDelete() { e.deleteArmed = true }

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
	e.Entry.KeyUp(k)
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
		e.ownSelection() // Shift with the arrows selected
	}
}

func (e *MessageEntry) TypedKey(k *fyne.KeyEvent) {
	armed := e.deleteArmed
	e.deleteArmed = false
	switch {
	case k.Name == fyne.KeyDelete && armed && e.Text == "" && e.OnDeleteEmpty != nil:
		if e.OnDeleteEmpty() {
			return
		}
	case (k.Name == fyne.KeyReturn || k.Name == fyne.KeyEnter) && !e.shift:
		e.OnSend()
		return
	case k.Name == fyne.KeyEscape && e.OnEscape != nil:
		e.OnEscape()
		return
	case k.Name == fyne.KeyF1 && e.OnHelp != nil:
		e.OnHelp()
		return
	case (k.Name == fyne.KeyPageUp || k.Name == fyne.KeyPageDown) && e.OnPage != nil && !e.overflows():
		e.OnPage(k.Name == fyne.KeyPageUp)
		return
	}
	e.Entry.TypedKey(k)
}

// overflows reports whether the box's text is taller than the box (it
// scrolls in it), as near as its lines measured at its width tell: each
// line takes its width over the box's, rounded up, in rows.
func (e *MessageEntry) overflows() bool {
	size, pad := e.Size(), theme.InnerPadding()
	text := theme.TextSize()
	width := size.Width - 2*pad
	row := fyne.MeasureText("M", text, e.TextStyle).Height
	if width <= 0 || row <= 0 {
		return false
	}
	shown := int((size.Height - 2*pad) / row)
	rows := 0
	for line := range strings.SplitSeq(e.Text, "\n") {
		w := fyne.MeasureText(line, text, e.TextStyle).Width
		rows += max(1, int(math.Ceil(float64(w/width))))
		if rows > shown {
			return true
		}
	}
	return false
}

// AcceptsTab is false: Tab leaves the box, as in a form.
func (e *MessageEntry) AcceptsTab() bool { return false }

// TypedShortcut runs the window's own shortcuts, and gives the rest (copy,
// paste, select all, undo) to the entry.
func (e *MessageEntry) TypedShortcut(s fyne.Shortcut) {
	e.deleteArmed = false
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault {
		if (cs.KeyName == fyne.KeyHome || cs.KeyName == fyne.KeyEnd) && e.Text == "" && e.OnEnds != nil {
			e.OnEnds(cs.KeyName == fyne.KeyHome)
			return
		}
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
	if _, ok := s.(*fyne.ShortcutSelectAll); ok {
		e.ownSelection()
	}
}

func (e *MessageEntry) MouseDown(m *desktop.MouseEvent) {
	e.deleteArmed = false
	// A press of another button forgets the middle one, whose release
	// another widget may have had.
	e.middle = m.Button == desktop.MouseButtonTertiary && e.Primary != nil
	if e.middle {
		e.pastePrimary(m)
		return
	}
	if e.OnPress != nil {
		e.OnPress()
	}
	e.Entry.MouseDown(m)
}

// pastePrimary pastes the primary selection where the middle button was
// pressed, as GTK's and Qt's boxes do, by the rules of a paste (one too
// long for the box goes to OnLongPaste) and undone as one. OnPress is not
// told: a selection elsewhere (the transcript's) stays, as it is what is
// being pasted.
func (e *MessageEntry) pastePrimary(m *desktop.MouseEvent) {
	if e.Disabled() {
		return
	}
	text := e.Primary.Get() // once: it may ask another program
	// A press of the first button there: the caret goes where the
	// pointer is, and a selection in the box ends rather than being
	// pasted over.
	at := *m
	at.Button, at.Modifier = desktop.MouseButtonPrimary, 0
	e.Entry.MouseDown(&at)
	if text != "" {
		e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: textClipboard(text)})
	}
}

// MouseUp ends a drag that selected (the primary selection is what it
// selected) or the middle button's paste.
func (e *MessageEntry) MouseUp(m *desktop.MouseEvent) {
	e.Entry.MouseUp(m)
	if e.middle {
		e.middle = false
		return
	}
	e.ownSelection()
}

// Dragged selects, but not with the middle button held: it pasted.
func (e *MessageEntry) Dragged(d *fyne.DragEvent) {
	if e.middle {
		return
	}
	e.Entry.Dragged(d)
}

// DoubleTapped selects the word (the entry's), which becomes the primary
// selection.
func (e *MessageEntry) DoubleTapped(p *fyne.PointEvent) {
	e.Entry.DoubleTapped(p)
	e.ownSelection()
}

// ownSelection makes what is selected in the box the primary selection,
// if anything is.
func (e *MessageEntry) ownSelection() {
	if e.Primary == nil {
		return
	}
	if t := e.SelectedText(); t != "" {
		e.Primary.Set(t)
	}
}

// FocusLost forgets Shift: its KeyUp may go to another widget.
func (e *MessageEntry) FocusLost() {
	e.shift, e.deleteArmed = false, false
	e.Entry.FocusLost()
}

// TypedRune types r, and forgets ArmDelete.
func (e *MessageEntry) TypedRune(r rune) {
	e.deleteArmed = false
	e.Entry.TypedRune(r)
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
