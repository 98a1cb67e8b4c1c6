package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
)

// TestShortcutsListMatchesKeys: the F1 list says what the keys do. It said
// Shift+Enter sends an edit (Enter does, TestEditKeysAsTheMessageBox), and
// called the Servers and Settings panels windows.
func TestShortcutsListMatchesKeys(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	rows := map[string]string{}
	for _, s := range h.ui.shortcuts() {
		rows[s.keys] = s.what
	}
	tests := []struct {
		name, keys string
		has, lacks string
	}{
		{name: "Enter sends an edit", keys: "Enter", has: "Edit"},
		{name: "Shift+Enter does not send", keys: "Shift+Enter", lacks: "send"},
		{name: "Ctrl+W closes a panel", keys: "Ctrl+W", has: "panel", lacks: "window"},
		{name: "Shift+F10 opens a chat's menu", keys: "Shift+F10, Menu", has: "pin, export"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			what, ok := rows[tt.keys]
			if !ok {
				t.Fatalf("no %s row in the list", tt.keys)
			}
			if tt.has != "" && !strings.Contains(what, tt.has) {
				t.Errorf("%s: %q, want it to say %q", tt.keys, what, tt.has)
			}
			if tt.lacks != "" && strings.Contains(what, tt.lacks) {
				t.Errorf("%s: %q, want no %q", tt.keys, what, tt.lacks)
			}
		})
	}
}

// TestShortcutsWholeAtSmallSize: at 640x480 with the text at 128%, every
// line of the shortcuts list (F1) shows whole: what a key does wraps at
// the dialog's width, and the list scrolls to its last line. Ctrl+F's
// line was cut at the right edge ("…Shift+Enter: the").
func TestShortcutsWholeAtSmallSize(t *testing.T) {
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.28 }})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.drain()
	h.press(fyne.KeyF1)
	h.drain()
	top := h.ui.win.Canvas().Overlays().Top()
	if top == nil || h.ui.shortcutsShown == nil {
		t.Fatal("F1 showed no list")
	}
	var list *container.Scroll
	guitest.Walk(top, func(o fyne.CanvasObject) {
		if s, ok := o.(*container.Scroll); ok && list == nil {
			list = s
		}
	})
	if list == nil {
		t.Fatal("the list does not scroll")
	}
	d := fyne.CurrentApp().Driver()
	right := d.AbsolutePositionForObject(list).X + list.Size().Width
	win := h.ui.win.Canvas().Size()
	if right > win.Width {
		t.Errorf("the list ends at x=%.0f, past the window's %.0f", right, win.Width)
	}
	if got, need := list.Content.Size().Height, list.Content.MinSize().Height; got < need-0.5 {
		t.Errorf("the list scrolls to %.0f px of the %.0f its lines need", got, need)
	}
	lines := 0
	for _, l := range guitest.All[*widget.Label](list.Content) {
		lines++
		at, size, need := d.AbsolutePositionForObject(l), l.Size(), l.MinSize()
		if need.Width > size.Width+0.5 || need.Height > size.Height+0.5 {
			t.Errorf("%q is cut: %.0f×%.0f shown of %.0f×%.0f", l.Text, size.Width, size.Height, need.Width, need.Height)
		}
		if at.X+size.Width > right+0.5 {
			t.Errorf("%q ends at x=%.0f, past the list's right edge %.0f", l.Text, at.X+size.Width, right)
		}
	}
	if want := 2 * len(h.ui.shortcuts()); lines != want {
		t.Errorf("the list has %d labels, want %d", lines, want)
	}
	h.press(fyne.KeyReturn)
	if h.ui.shortcutsShown != nil {
		t.Errorf("Enter left the list open")
	}
}
