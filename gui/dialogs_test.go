package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"deckhand/testutil"
)

// press sends key to the window as the driver does when no widget has the
// keyboard: to the canvas's key handler.
func (h *harness) press(key fyne.KeyName) {
	h.t.Helper()
	if f := h.ui.win.Canvas().OnTypedKey(); f != nil {
		f(&fyne.KeyEvent{Name: key})
	}
}

// TestDialogsTakeTheKeyboard: a notice ("Exported to …") closes with
// Enter or Escape, and while it shows Ctrl+, and F1 do not act on the
// window behind it; the Delete confirmation closes with Escape, deleting
// nothing; Enter in Connect a server's command field connects, as the
// button does. (Each ignored the key.)
func TestDialogsTakeTheKeyboard(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Hello.")}}})
	h.say("hello there")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Hello.") && !h.ui.running && len(h.ui.side.Items) == 1 })
	h.drain()

	for _, key := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn} {
		h.ui.showError("Exported to /tmp/hello there.md.")
		typeOnCanvas(h.ui.win.Canvas(), &desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: fyne.KeyModifierShortcutDefault})
		h.press(fyne.KeyF1)
		if h.ui.panel != nil || h.ui.shortcutsShown != nil {
			t.Errorf("under the notice, Ctrl+, opened the settings (%v) or F1 the shortcuts (%v)", h.ui.panel != nil, h.ui.shortcutsShown != nil)
		}
		h.press(key)
		if h.ui.notice.popup != nil {
			t.Errorf("%s left the notice open", key)
			h.ui.notice.popup.Hide()
			h.ui.notice.popup, h.ui.notice.lines = nil, nil
		}
	}
	if f := h.ui.win.Canvas().Focused(); f != h.ui.input {
		t.Errorf("after the notice the focus is on %T, want the message box", f)
	}

	h.pressInList(fyne.KeyDelete)
	h.until("the Delete confirmation", func() bool { return h.shows(h.ui.win, "Delete chat") })
	h.press(fyne.KeyEscape)
	h.drain()
	if h.shows(h.ui.win, "Delete chat") || len(h.ui.side.Items) != 1 {
		t.Errorf("after Escape: the confirmation shows %v, %d sessions (want 1)", h.shows(h.ui.win, "Delete chat"), len(h.ui.side.Items))
	}

	h.ui.showServers()
	test.Tap(h.button(h.ui.serversW.Win, "Connect a server…"))
	f := h.ui.serversW.Form
	f.Target.SetText("/nonexistent/mcp-server-nothing --port 1")
	f.Target.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.until("the try to end", func() bool { return !f.Trying() && f.Problems.Visible() })
	if got := f.Problem.Text; !strings.Contains(got, "mcp-server-nothing") {
		t.Errorf("Enter in the command field: the form says %q", got)
	}
}
