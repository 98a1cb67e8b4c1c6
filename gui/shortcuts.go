package gui

import (
	"runtime"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The window's keyboard shortcuts, in one table: the Ctrl (Cmd) ones the
// window and the message box run are made from it, and F1 or Ctrl+/ show
// it, so that the list cannot leave a shortcut out. Keys other widgets
// handle themselves (Enter in the message box, F2 in the chat list) are
// in it for the list alone.

// shortcut is one row of the table.
type shortcut struct {
	keys string // as the list shows them; "Ctrl+" becomes "Cmd+" on a Mac
	what string
	// ctrl, if set, is the key that with Ctrl (Cmd) runs run, in the
	// window and in the message box.
	ctrl fyne.KeyName
	run  func()
}

// shortcuts is the window's table.
func (u *UI) shortcuts() []shortcut {
	return []shortcut{
		{keys: "Ctrl+N", what: "New chat", ctrl: fyne.KeyN, run: sidebarHost{u}.NewChat},
		{keys: "Ctrl+F", what: "Find in the chat (Enter: the next match, Shift+Enter: the one before)", ctrl: fyne.KeyF, run: func() { u.toChat(); u.chat.Find.Open("") }},
		{keys: "Ctrl+K", what: "Quick prompt", ctrl: fyne.KeyK, run: u.quickFromKeys},
		{keys: "Ctrl+,", what: "Settings", ctrl: fyne.KeyComma, run: func() { u.showPlace(u.showSettings) }},
		{keys: "Ctrl+/", what: "This list of shortcuts", ctrl: fyne.KeySlash, run: u.showShortcuts},
		{keys: "F1", what: "This list of shortcuts"},
		{keys: "Ctrl+Q", what: "Quit Deckhand (asks first while a run is going)", ctrl: fyne.KeyQ, run: u.quit},
		{keys: "Enter", what: "Send the message, or the edited message in Edit"},
		{keys: "Shift+Enter", what: "A new line in the message, and in Edit"},
		{keys: "Escape", what: "Stop the answer being written; close a dialog"},
		{keys: "Page Up, Page Down", what: "Scroll the chat by a screen (from the message box too, unless its text is taller than the box)"},
		{keys: "Ctrl+Home, Ctrl+End", what: "The chat's first message, its end (from the message box when it is empty)"},
		{keys: "Ctrl+C", what: "Copy the text selected in the chat"},
		{keys: "Tab, Shift+Tab", what: "Move to the next, the previous control"},
		{keys: "Up, Down", what: "In the chat list: open the chat above, below"},
		{keys: "F2", what: "In the chat list: rename the chat"},
		{keys: "Delete", what: "In the chat list: delete the chat"},
		{keys: "Shift+F10, Menu", what: "In the chat list: the chat's menu (pin, export, rename, delete)"},
		{keys: "Ctrl+W", what: "Close the Servers or Settings panel"},
		{keys: "Ctrl+Tab, Ctrl+Page Down", what: "In Settings: the next tab (Ctrl+Shift+Tab, Ctrl+Page Up: the one before)"},
		{keys: "Ctrl+S", what: "In Settings: save (as Save does)"},
		{keys: "Up, Down, Page Up, Page Down", what: "In this list: scroll it (Home, End: its start, its end)"},
	}
}

// reading reports whether the chat is what the window shows, with no
// dialog over it: the keys that read it (readingKey) are its.
func (u *UI) reading() bool { return u.panel == nil && u.win.Canvas().Overlays().Top() == nil }

// readingKey is a key pressed with nothing focused (a click in the
// transcript took the keyboard from the message box): Page Up and Page
// Down scroll the chat by a screen, Home and End go to its start and end.
func (u *UI) readingKey(key fyne.KeyName) {
	if !u.reading() {
		return
	}
	switch key {
	case fyne.KeyPageUp, fyne.KeyPageDown:
		u.chat.Page(key == fyne.KeyPageUp)
	case fyne.KeyHome, fyne.KeyEnd:
		u.chatEnds(key == fyne.KeyHome)
	}
}

// chatEnds shows the chat's first message (top), or its end.
func (u *UI) chatEnds(top bool) {
	if top {
		u.chat.Top()
	} else {
		u.chat.End()
	}
}

// scrollKey scrolls the shortcuts' list for key: a line for Up and Down,
// a screen for Page Up and Page Down, to the start and end for Home and
// End; false for another key.
func scrollKey(s *container.Scroll, key fyne.KeyName) bool {
	line := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{}).Height + 2*theme.Padding()
	page := max(s.Size().Height-line, line)
	var dy float32
	switch key {
	case fyne.KeyUp:
		dy = line
	case fyne.KeyDown:
		dy = -line
	case fyne.KeyPageUp:
		dy = page
	case fyne.KeyPageDown:
		dy = -page
	case fyne.KeyHome:
		s.ScrollToTop()
		return true
	case fyne.KeyEnd:
		s.ScrollToBottom()
		return true
	default:
		return false
	}
	s.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: dy}})
	return true
}

// ctrlShortcuts are the table's Ctrl (Cmd) shortcuts, by key.
func (u *UI) ctrlShortcuts() map[fyne.KeyName]func() {
	out := map[fyne.KeyName]func(){}
	for _, s := range u.shortcuts() {
		if s.ctrl != "" {
			out[s.ctrl] = s.run
		}
	}
	return out
}

// keyLabel is keys as the platform names them.
func keyLabel(keys string) string {
	if runtime.GOOS == "darwin" {
		return strings.ReplaceAll(keys, "Ctrl+", "Cmd+")
	}
	return keys
}

// showShortcuts shows the list of shortcuts; Enter, Escape, F1 or Close
// closes it.
func (u *UI) showShortcuts() {
	if u.shortcutsShown != nil {
		return
	}
	back := u.keepFocus()
	grid := container.New(&shortcutGrid{})
	for _, s := range u.shortcuts() {
		k := widget.NewLabelWithStyle(keyLabel(s.keys), fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
		// What the keys do wraps at the dialog's width: at 640x480 and
		// 128% text, Ctrl+F's line was cut at the right edge.
		what := widget.NewLabel(s.what)
		what.Wrapping = fyne.TextWrapWord
		grid.Add(k)
		grid.Add(what)
	}
	var d *dialog.CustomDialog
	closeBtn := widget.NewButton("Close", func() { d.Hide() })
	scroll := container.NewVScroll(grid)
	d = dialog.NewCustomWithoutButtons("Keyboard shortcuts", scroll, u.win)
	d.SetButtons([]fyne.CanvasObject{closeBtn})
	// Fyne's dialogs take no keys: with nothing focused, the window's
	// own keys close it, until it is closed.
	c := u.win.Canvas()
	keys := c.OnTypedKey()
	d.SetOnClosed(func() {
		u.shortcutsShown = nil
		c.SetOnTypedKey(keys)
		back()
	})
	u.shortcutsShown = d
	size := c.Size()
	width := min(520, size.Width-20)
	d.Resize(fyne.NewSize(width, size.Height-20))
	d.Show()
	// The lines wrapped at the width they got once shown: the list is
	// laid out again at their height, and the dialog no higher than it
	// needs.
	scroll.Refresh()
	d.Resize(fyne.NewSize(width, min(grid.MinSize().Height+140, size.Height-20)))
	c.Unfocus()
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		switch k.Name {
		case fyne.KeyEscape, fyne.KeyF1, fyne.KeyReturn, fyne.KeyEnter:
			d.Hide()
		default:
			scrollKey(scroll, k.Name) // it did not move for Down or Page Down (new-user pass 15, N5)
		}
	})
}

// shortcutGrid lays out pairs of objects (keys, what they do) in two
// columns, the first as wide as its widest; the second takes the rest of
// the width, and what it holds wraps there (each row as high as it then
// needs).
type shortcutGrid struct{}

func (g *shortcutGrid) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w0, w1, h float32
	for i := 0; i+1 < len(objs); i += 2 {
		a, b := objs[i].MinSize(), objs[i+1].MinSize()
		w0, w1 = max(w0, a.Width), max(w1, b.Width)
		h += max(a.Height, b.Height)
	}
	return fyne.NewSize(w0+w1, h)
}

func (g *shortcutGrid) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	var w0 float32
	for i := 0; i+1 < len(objs); i += 2 {
		w0 = max(w0, objs[i].MinSize().Width)
	}
	var y float32
	for i := 0; i+1 < len(objs); i += 2 {
		// The width first: a wrapped label's height follows from it.
		w1 := max(0, size.Width-w0)
		objs[i+1].Resize(fyne.NewSize(w1, objs[i+1].Size().Height))
		h := max(objs[i].MinSize().Height, objs[i+1].MinSize().Height)
		objs[i].Move(fyne.NewPos(0, y))
		objs[i].Resize(fyne.NewSize(w0, h))
		objs[i+1].Move(fyne.NewPos(w0, y))
		objs[i+1].Resize(fyne.NewSize(w1, h))
		y += h
	}
}
