package widgets

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestKeyRelay: while relaying, what is typed in the window goes to the
// other window's box and not to what had the focus; once the window has
// lost the keyboard and got it back, what had the focus has it again, and
// Tab never stops on the relay.
func TestKeyRelay(t *testing.T) {
	test.NewTempApp(t)
	box, other := widget.NewEntry(), widget.NewEntry()
	relay := NewKeyRelay()
	w := test.NewTempWindow(t, container.NewVBox(box, container.NewWithoutLayout(relay), other))
	c := w.Canvas()
	target := widget.NewEntry()
	test.NewTempWindow(t, target)

	c.Focus(box)
	relay.Relay(c, target)
	for _, r := range "hi" {
		c.Focused().TypedRune(r)
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	c.Focused().TypedRune('o')
	if target.Text != "ho" || box.Text != "" {
		t.Errorf("typed while relaying: the other window's box holds %q, the window's %q; want %q and %q", target.Text, box.Text, "ho", "")
	}

	// The driver tells the focused widget when its window loses the
	// keyboard and gets it back.
	relay.FocusLost()
	c.Focused().TypedRune('x') // cannot happen: the window has no keyboard
	relay.FocusGained()
	if c.Focused() != fyne.Focusable(box) {
		t.Fatalf("after the window got the keyboard back, the focus is on %T, want the box it was on", c.Focused())
	}
	if target.Text != "ho" {
		t.Errorf("a key typed after the window let go of the keyboard went to the other window: %q", target.Text)
	}
	c.FocusNext()
	if c.Focused() != fyne.Focusable(other) {
		t.Errorf("Tab from the box went to %T, want the entry after it (not the relay)", c.Focused())
	}
}

// TestKeyRelayLetsGo: when the other window never takes the keyboard (a
// window manager that prevents focus stealing), the relay lets go after
// relayFor: the next key goes to what had the focus, focused again.
func TestKeyRelayLetsGo(t *testing.T) {
	test.NewTempApp(t)
	box := widget.NewEntry()
	relay := NewKeyRelay()
	now := time.Unix(1000, 0)
	relay.Now = func() time.Time { return now }
	w := test.NewTempWindow(t, container.NewVBox(box, container.NewWithoutLayout(relay)))
	c := w.Canvas()
	target := widget.NewEntry()
	test.NewTempWindow(t, target)

	c.Focus(box)
	relay.Relay(c, target)
	c.Focused().TypedRune('a')
	now = now.Add(relayFor + time.Millisecond)
	c.Focused().TypedRune('b')
	c.Focused().TypedRune('c')
	if target.Text != "a" || box.Text != "bc" || c.Focused() != fyne.Focusable(box) {
		t.Errorf("after relayFor: the other window's box holds %q, the window's %q (focus on %T); want %q, %q and the box focused", target.Text, box.Text, c.Focused(), "a", "bc")
	}
}
