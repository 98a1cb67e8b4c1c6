package gui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
)

// Quitting. Every way the person quits Deckhand comes here: Ctrl+Q (Cmd+Q)
// in the main window, a panel or the quick prompt, the tray's Quit, and
// closing the main window where there is no tray. While a run is going in
// any chat (the model answering, a tool call running, an approval or a
// server's question waiting, a message waiting for its chat to start),
// Deckhand asks first, Cancel the default: quitting cut the run off at
// once. Idle, it quits without asking.

// quit quits, or asks first while a run is going: in the main window,
// shown first if it was closed to the tray.
func (u *UI) quit() { u.quitOn(nil) }

// quitOn is quit asking on win (the quick prompt's, when the keys were
// pressed there); nil is the main window.
func (u *UI) quitOn(win fyne.Window) {
	if u.quitAsked != nil {
		return // already asking: its Quit quits
	}
	if len(u.busy) == 0 {
		u.app.Quit()
		return
	}
	if win == nil {
		if u.hidden {
			u.showMain()
		}
		win = u.win
	}
	u.askQuit(win)
}

// quitQuestion is what the question before quitting says of the runs
// going (busy: their chats, named as the bridge names them).
func quitQuestion(busy []string) string {
	switch len(busy) {
	case 0:
		return "Quit anyway?"
	case 1:
		return fmt.Sprintf("A run is in progress in %s. Quit anyway? Quitting stops it.", busy[0])
	case 2:
		return fmt.Sprintf("Runs are in progress in %s and %s. Quit anyway? Quitting stops them.", busy[0], busy[1])
	}
	return fmt.Sprintf("Runs are in progress in %s and %d other chats. Quit anyway? Quitting stops them.", busy[0], len(busy)-1)
}

// askQuit asks on win whether to quit while runs go: Cancel, the default,
// has the keyboard (Enter or Space on it cancels), Tab goes to Quit,
// Escape cancels from either.
func (u *UI) askQuit(win fyne.Window) {
	c := win.Canvas()
	text := widget.NewLabel(quitQuestion(u.busy))
	text.Wrapping = fyne.TextWrapWord
	var d *dialog.CustomDialog
	hide := func() { d.Hide() }
	cancel := newEscButton("Cancel", hide)
	quit := newEscButton("Quit", func() {
		d.Hide()
		u.app.Quit()
	})
	cancel.esc, quit.esc = hide, hide
	// Cancel is filled while it is the default; Quit focused takes the
	// fill away from it (as Deny in an approval).
	cancel.Importance = widget.HighImportance
	quit.OnFocus = func(on bool) {
		cancel.Importance = widget.HighImportance
		if on {
			cancel.Importance = widget.MediumImportance
		}
		cancel.Refresh()
	}
	buttons := container.NewCenter(container.NewHBox(cancel, quit))
	d = dialog.NewCustomWithoutButtons("Quit Deckhand?", container.NewVBox(text, buttons), win)
	// With no dialog under it, the window's keys answer too, when a click
	// took the keyboard from the buttons. Over one (an approval), that
	// one holds them and gives them back when it closes, which may come
	// first: the buttons' own keys do.
	restore := func() {}
	if c.Overlays().Top() == nil {
		restore = widgets.DialogKeys(win, hide, hide)
	}
	u.quitAsked = d
	d.SetOnClosed(func() {
		u.quitAsked = nil
		restore()
	})
	d.Show()
	widgets.FitWidth(d, win, 440)
	c.Focus(cancel)
}

// escButton is a ring button that Escape, with the keyboard on it, calls
// esc with (a RingButton gives Escape to the window, which under the
// question may be an approval's: its Deny).
type escButton struct {
	widgets.RingButton
	esc func()
}

func newEscButton(label string, tapped func()) *escButton {
	b := &escButton{}
	b.Text, b.OnTapped = label, tapped
	b.ExtendBaseWidget(b)
	return b
}

func (b *escButton) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && b.esc != nil {
		b.esc()
		return
	}
	b.RingButton.TypedKey(ev)
}

// busyNames names the chats with a run going, for the question before
// quitting: the one shown first; a chat by its title in quotes, the
// quick prompt's as such.
func (b *bridge) busyNames() []string {
	var out []string
	for _, id := range slices.Sorted(maps.Keys(b.convs)) {
		cs := b.convs[id]
		if !cs.running && !(cs.starting && len(cs.queued) > 0) {
			continue
		}
		name := "“" + oneLine(cs.title) + "”"
		switch {
		case cs.quick:
			name = "the quick prompt"
		case strings.TrimSpace(cs.title) == "":
			name = "a new chat"
		}
		if id == b.current {
			out = append([]string{name}, out...)
		} else {
			out = append(out, name)
		}
	}
	return out
}
