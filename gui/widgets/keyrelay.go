package widgets

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// KeyRelay passes what is typed in one window to a widget of another while
// that other window opens. A key opens the other window (Ctrl+K, the quick
// prompt), but the window manager gives it the keyboard only once it is
// mapped: until then the keys a quick hand types next still go to the first
// window, into whatever it had focused. Relay makes the relay that window's
// focus meanwhile; when the window gets the keyboard back, the relay hands
// the focus back to what had it and hides again.
//
// A window manager that does not give the other window the keyboard (one
// that prevents focus stealing) would leave the keys going to a window the
// person may not see: the relay lets go of them after relayFor, and gives
// the next key to what had the focus.
//
// It sits hidden, at no size, somewhere in the window's content (Fyne
// focuses only what is in the content and shown), so that Tab never stops
// on it.
type KeyRelay struct {
	widget.BaseWidget
	c       fyne.Canvas
	to      fyne.Focusable // where the keys go, until the window lets go of the keyboard
	back    fyne.Focusable // what had the focus before
	relayed bool           // the relay was focused by Relay, not by the window coming back
	until   time.Time      // relayFor after Relay
	// Now is the clock (time.Now if nil), for tests.
	Now func() time.Time
}

// relayFor is how long the relay waits for the other window to take the
// keyboard: a window manager gives it in milliseconds.
const relayFor = 2 * time.Second

var (
	_ fyne.Focusable    = (*KeyRelay)(nil)
	_ fyne.Shortcutable = (*KeyRelay)(nil)
)

// NewKeyRelay makes a relay, hidden until Relay.
func NewKeyRelay() *KeyRelay {
	r := &KeyRelay{}
	r.ExtendBaseWidget(r)
	r.Hide()
	return r
}

// Relay passes the keys typed in c, whose content holds the relay, to to
// until c's window next loses the keyboard. Call it before showing the
// window to has its place in.
func (r *KeyRelay) Relay(c fyne.Canvas, to fyne.Focusable) {
	if c.Focused() != fyne.Focusable(r) {
		r.back = c.Focused()
	}
	r.c, r.to = c, to
	r.until = r.now().Add(relayFor)
	r.Show()
	r.relayed = true
	c.Focus(r)
	r.relayed = false
	if c.Focused() != fyne.Focusable(r) { // not in c's content, or under a dialog
		r.to, r.back = nil, nil
		r.Hide()
	}
}

func (r *KeyRelay) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}

func (r *KeyRelay) MinSize() fyne.Size { return fyne.Size{} }

// FocusGained: the window has the keyboard again (the other one closed,
// or the person came back to it): what had the focus gets it back.
func (r *KeyRelay) FocusGained() {
	if r.relayed || r.c == nil || r.c.Focused() != fyne.Focusable(r) {
		return
	}
	back := r.back
	r.to, r.back = nil, nil
	r.Hide()
	if back != nil {
		r.c.Focus(back)
	}
	if r.c.Focused() == fyne.Focusable(r) {
		r.c.Unfocus()
	}
}

// FocusLost: the other window has the keyboard now (or something else in
// this one was focused): no key typed here is meant for it any more, and
// hidden, Tab passes it by. (Fyne still tells the relay when the window
// gets the keyboard back, if it is still the window's focus.)
func (r *KeyRelay) FocusLost() {
	r.to = nil
	r.Hide()
}

func (r *KeyRelay) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// target is where a key typed now goes: the other window's widget while
// relaying, else (the other window never took the keyboard) what had the
// focus, focused again.
func (r *KeyRelay) target() fyne.Focusable {
	if r.to != nil && r.now().After(r.until) {
		r.to = nil
		r.FocusGained() // as if the window had the keyboard back
		if f := r.c.Focused(); f != fyne.Focusable(r) {
			return f
		}
	}
	return r.to
}

func (r *KeyRelay) TypedRune(ch rune) {
	if t := r.target(); t != nil {
		t.TypedRune(ch)
	}
}

func (r *KeyRelay) TypedKey(k *fyne.KeyEvent) {
	if t := r.target(); t != nil {
		t.TypedKey(k)
	}
}

// TypedShortcut passes a paste or a copy on too.
func (r *KeyRelay) TypedShortcut(s fyne.Shortcut) {
	if sc, ok := r.target().(fyne.Shortcutable); ok {
		sc.TypedShortcut(s)
	}
}
