package gui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"deckhand/testutil"
)

// With the message box focused (as it nearly always is): Escape stops a
// run, the window's shortcuts work, Tab leaves the box instead of typing a
// tab, a new chat gives the box the focus back, and Escape closes the quick
// prompt from its own box.
func TestKeyboardInTheMessageBox(t *testing.T) {
	pieces := make([]string, 200)
	for i := range pieces {
		pieces[i] = "word "
	}
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks(pieces...), Pace: 50 * time.Millisecond}}})
	box := h.ui.input
	h.say("talk for a while")
	h.until("the run to stream", func() bool { return h.ui.running && h.shows(h.ui.win, "word") })
	h.ui.win.Canvas().Focus(box)
	box.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.until("Escape to stop the run", func() bool { return !h.ui.running && h.shows(h.ui.win, "Stopped.") })

	if box.AcceptsTab() {
		t.Error("the message box takes Tab")
	}

	first := h.ui.conv
	h.ui.win.Canvas().Focus(box)
	box.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault})
	h.until("Ctrl+N in the box to open a new chat", func() bool { return h.ui.conv != "" && h.ui.conv != first })
	h.until("the box to have the focus", func() bool { return h.ui.win.Canvas().Focused() == box })

	box.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyK, Modifier: fyne.KeyModifierShortcutDefault})
	h.until("Ctrl+K in the box to open the quick prompt", func() bool { return h.ui.quick != nil && h.ui.quick.visible })
	q := h.ui.quick
	test.Type(q.entry, "never mind")
	q.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	h.until("Escape in the quick prompt's box to close it", func() bool { return !q.visible })

	// Copy and paste still reach the box.
	box.SetText("keep me")
	box.TypedShortcut(&fyne.ShortcutSelectAll{})
	box.TypedShortcut(&fyne.ShortcutCopy{Clipboard: h.app.Clipboard()})
	if got := h.app.Clipboard().Content(); got != "keep me" {
		t.Errorf("copied %q", got)
	}
}
