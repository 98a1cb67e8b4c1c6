package gui

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"deckhand/testutil"
)

// quitApp is the test app with a tray, counting the times it was asked
// to quit (the test app's Quit does nothing).
type quitApp struct {
	trayApp
	quits int
}

func (a *quitApp) Quit() { a.quits++ }

var ctrlQ = &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}

// typeShortcut is s typed in w as Fyne's desktop driver gives it: to the
// focused control if it takes shortcuts, else to the window's (the test
// canvas hides its TypedShortcut behind an embedded field).
func typeShortcut(w fyne.Window, s fyne.Shortcut) {
	c := w.Canvas()
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	reflect.ValueOf(c).Elem().FieldByName("WindowlessCanvas").Interface().(fyne.Shortcutable).TypedShortcut(s)
}

// key is a key typed in w as the driver gives it: to the focused control,
// else to the window.
func key(w fyne.Window, name fyne.KeyName) {
	c := w.Canvas()
	if f := c.Focused(); f != nil {
		f.TypedKey(&fyne.KeyEvent{Name: name})
	} else if c.OnTypedKey() != nil {
		c.OnTypedKey()(&fyne.KeyEvent{Name: name})
	}
}

// focusedButton is the label of the button with w's keyboard, or "".
func focusedButton(w fyne.Window) string {
	if b, ok := w.Canvas().Focused().(*escButton); ok {
		return b.Text
	}
	return ""
}

// heldModel is a harness whose model answers "done" only once release
// is called: a run goes until then.
func heldModel(t *testing.T, o harnessOptions) (h *harness, qa *quitApp, release func()) {
	held := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(held) }) }
	qa = &quitApp{}
	o.app = func(a fyne.App) fyne.App { qa.App = a; return qa }
	if o.fallback == nil {
		o.fallback = func(map[string]any) testutil.ModelResponse {
			<-held
			return testutil.ModelResponse{Body: testutil.TextChunks("done")}
		}
	}
	h = newHarness(t, o)
	t.Cleanup(release) // before the model server closes
	return h, qa, release
}

// Ctrl+Q while the model answers asks first, in the main window: "A run
// is in progress in “…”. Quit anyway?", Cancel the default with the
// keyboard (Enter cancels; so does Escape); Tab, then Space on Quit,
// quits. In the quick prompt it asks there. Idle, Ctrl+Q quits without
// asking. Before, Ctrl+Q quit at once, the run cut off.
func TestQuitAsksWhileARunGoes(t *testing.T) {
	h, qa, release := heldModel(t, harnessOptions{})
	w := h.ui.win
	typeShortcut(w, ctrlQ)
	if qa.quits != 1 || h.ui.quitAsked != nil {
		t.Fatalf("Ctrl+Q with no run: quit %d times, asked %v; want it to quit without asking", qa.quits, h.ui.quitAsked != nil)
	}
	qa.quits = 0

	h.say("write me a poem")
	h.until("the run going", func() bool { return len(h.ui.busy) == 1 })
	asks := func(win fyne.Window, what string) {
		t.Helper()
		const want = "A run is in progress in “write me a poem”. Quit anyway?"
		if qa.quits != 0 || h.ui.quitAsked == nil || !h.shows(win, want) {
			t.Fatalf("%s while the model answers: quit %d times, asked %v, shows %q; want the question %q", what, qa.quits, h.ui.quitAsked != nil, h.texts(win), want)
		}
		if b := focusedButton(win); b != "Cancel" {
			t.Errorf("%s: the keyboard is on %q, want Cancel, the default", what, b)
		}
	}
	cancelled := func(what string) {
		t.Helper()
		if qa.quits != 0 || h.ui.quitAsked != nil || w.Canvas().Overlays().Top() != nil {
			t.Errorf("%s: quit %d times, the question shown %v; want it gone, Deckhand running", what, qa.quits, h.ui.quitAsked != nil)
		}
	}
	typeShortcut(w, ctrlQ)
	asks(w, "Ctrl+Q")
	typeShortcut(w, ctrlQ) // again while it asks: nothing more
	key(w, fyne.KeyReturn)
	cancelled("Enter on Cancel")
	if !h.ui.running {
		t.Error("the run is not going after Cancel")
	}
	if w.Canvas().Focused() != fyne.Focusable(h.ui.input) {
		t.Errorf("after Cancel the keyboard is on %T, want the message box", w.Canvas().Focused())
	}

	typeShortcut(w, ctrlQ)
	asks(w, "Ctrl+Q again")
	key(w, fyne.KeyEscape)
	cancelled("Escape")

	// Closing the window quits where there is no tray: it asks too.
	h.ui.closeMain()
	asks(w, "closing the window")
	key(w, fyne.KeyEscape)
	cancelled("Escape")

	// From a panel (the settings), in the main window.
	h.ui.showSettings()
	typeShortcut(w, ctrlQ)
	asks(w, "Ctrl+Q in the settings")
	key(w, fyne.KeyEscape)
	if qa.quits != 0 || h.ui.quitAsked != nil || h.ui.panel == nil {
		t.Errorf("Escape on the question in the settings: quit %d times, still asking %v, the settings shown %v", qa.quits, h.ui.quitAsked != nil, h.ui.panel != nil)
	}
	h.ui.toChat()

	// In the quick prompt, it asks there.
	h.ui.showQuick()
	qw := h.ui.quick.Window()
	typeShortcut(qw, ctrlQ)
	asks(qw, "Ctrl+Q in the quick prompt")
	key(qw, fyne.KeyEscape)
	if qa.quits != 0 || h.ui.quitAsked != nil {
		t.Errorf("Escape in the quick prompt: quit %d times, still asking %v", qa.quits, h.ui.quitAsked != nil)
	}
	h.ui.quick.Window().Hide()
	h.ui.goTo(false)

	typeShortcut(w, ctrlQ)
	asks(w, "Ctrl+Q once more")
	w.Canvas().FocusNext()
	if b := focusedButton(w); b != "Quit" {
		t.Fatalf("Tab from Cancel went to %q, want Quit", b)
	}
	key(w, fyne.KeySpace)
	if qa.quits != 1 {
		t.Errorf("Space on Quit: quit %d times, want once", qa.quits)
	}

	release()
	h.until("the run over", func() bool { return len(h.ui.busy) == 0 && h.shows(w, "done") })
	qa.quits = 0
	typeShortcut(w, ctrlQ)
	if qa.quits != 1 || h.ui.quitAsked != nil {
		t.Errorf("Ctrl+Q once the run ended: quit %d times, asked %v; want it to quit without asking", qa.quits, h.ui.quitAsked != nil)
	}
}

// The tray's Quit, the main window closed to the tray, while a run goes:
// the window comes back and asks. Idle, the tray's Quit quits.
func TestQuitFromTheTrayAsksWhileARunGoes(t *testing.T) {
	h, qa, release := heldModel(t, harnessOptions{})
	h.ui.d.Tray = true
	h.ui.installTray()
	menuQuit := func() {
		t.Helper()
		for _, it := range qa.menu.Items {
			if it.Label == "Quit" {
				it.Action()
				return
			}
		}
		t.Fatal("no Quit in the tray menu")
	}
	w := h.ui.win
	h.say("write me a poem")
	h.until("the run going", func() bool { return len(h.ui.busy) == 1 })
	h.ui.closeMain()
	if !h.ui.hidden {
		t.Fatal("closing the window with a tray did not hide it")
	}
	menuQuit()
	if qa.quits != 0 || h.ui.hidden || h.ui.quitAsked == nil || !h.shows(w, "A run is in progress in “write me a poem”. Quit anyway?") {
		t.Fatalf("the tray's Quit while the model answers: quit %d times, window hidden %v, asked %v: %q", qa.quits, h.ui.hidden, h.ui.quitAsked != nil, h.texts(w))
	}
	key(w, fyne.KeyEscape)
	if qa.quits != 0 || h.ui.quitAsked != nil {
		t.Errorf("Escape: quit %d times, still asking %v", qa.quits, h.ui.quitAsked != nil)
	}
	release()
	h.until("the run over", func() bool { return len(h.ui.busy) == 0 })
	menuQuit()
	if qa.quits != 1 || h.ui.quitAsked != nil {
		t.Errorf("the tray's Quit once the run ended: quit %d times, asked %v", qa.quits, h.ui.quitAsked != nil)
	}
}

// An approval waiting is a run going: Ctrl+Q over its dialog asks (it did
// nothing in the main window, the dialog covering the window's keys, and
// in the quick prompt it quit at once), over the approval; Escape answers
// the question, not the approval, which still waits.
func TestQuitAsksOverAnApproval(t *testing.T) {
	h, qa, _ := heldModel(t, harnessOptions{
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}, "Echoed."),
	})
	w := h.ui.win
	h.say("echo hi")
	h.until("the approval", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	approvalDialog := w.Canvas().Overlays().Top()
	typeShortcut(w, ctrlQ)
	if qa.quits != 0 || h.ui.quitAsked == nil || !h.shows(w, "A run is in progress in “echo hi”. Quit anyway?") {
		t.Fatalf("Ctrl+Q over the approval: quit %d times, asked %v: %q", qa.quits, h.ui.quitAsked != nil, h.texts(w))
	}
	key(w, fyne.KeyEscape)
	if qa.quits != 0 || h.ui.quitAsked != nil {
		t.Errorf("Escape: quit %d times, still asking %v", qa.quits, h.ui.quitAsked != nil)
	}
	if h.ui.dialogs.Approvals.Shown() == nil || w.Canvas().Overlays().Top() != approvalDialog {
		t.Fatalf("Escape on the question answered the approval under it too")
	}
	for _, s := range h.texts(w) {
		if strings.Contains(s, "Quit anyway") {
			t.Errorf("the question still shows: %q", s)
		}
	}
	// The approval keeps its keys: Enter denies, the default.
	key(w, fyne.KeyReturn)
	h.until("the call denied, the answer", func() bool { return h.ui.dialogs.Approvals.Shown() == nil && len(h.ui.busy) == 0 })
}
