package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"

	"deckhand/gui/guitest"
	"deckhand/testutil"
)

// TestPageKeysReadTheChat: in a chat longer than the window, Page Up and
// Page Down in the message box move the transcript by about a screen,
// Ctrl+Home and Ctrl+End in the empty box go to its first message and
// its end; with text in the box Ctrl+Home is the box's, and with a text
// taller than the box Page Up moves in it, not the chat. With nothing
// focused (a click in the transcript) the keys do the same, and Home and
// End too. F1's list names them, and scrolls with Down, Page Down and
// End. Each key did nothing (new-user pass 15, N5).
func TestPageKeysReadTheChat(t *testing.T) {
	var story strings.Builder
	for i := range 120 {
		fmt.Fprintf(&story, "Paragraph %d of a long answer, which a person reads a screen at a time.\n\n", i+1)
	}
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks(story.String())}}})
	h.say("tell a long story")
	h.until("the whole answer", func() bool { return h.shows(h.ui.win, "Paragraph 120 of") && !h.ui.running })
	h.drain()
	l := h.ui.chat.List
	height := l.Size().Height
	end := l.GetScrollOffset()
	if end < 3*height {
		t.Fatalf("the chat is scrolled %.0f px down in a view of %.0f: not long enough", end, height)
	}
	c := h.ui.win.Canvas()
	c.Focus(h.ui.input)
	at := func() float32 { h.drain(); return l.GetScrollOffset() }
	page := func(what string, key fyne.KeyName, from float32, up bool) float32 {
		t.Helper()
		h.key(key)
		got := at()
		moved := from - got
		if !up {
			moved = -moved
		}
		if moved < height/2 || moved > height {
			t.Errorf("%s: the chat moved %.0f px (from %.0f to %.0f), want about a screen of %.0f", what, moved, from, got, height)
		}
		return got
	}
	up1 := page("Page Up in the box", fyne.KeyPageUp, end, true)
	up2 := page("Page Up again", fyne.KeyPageUp, up1, true)
	page("Page Down", fyne.KeyPageDown, up2, false)

	ctrl := func(key fyne.KeyName) {
		h.shortcut(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault})
	}
	ctrl(fyne.KeyHome)
	if got := at(); got != 0 {
		t.Errorf("Ctrl+Home in the empty box: the chat is at %.0f, want its top", got)
	}
	ctrl(fyne.KeyEnd)
	if got := at(); !h.ui.chat.AtEnd() {
		t.Errorf("Ctrl+End in the empty box: the chat is at %.0f, want its end (%.0f)", got, end)
	}
	if f := c.Focused(); f != h.ui.input {
		t.Errorf("after the keys the keyboard is on %T, want the message box", f)
	}

	// Text in the box: Ctrl+Home is the box's.
	h.ui.input.SetText("a draft")
	ctrl(fyne.KeyHome)
	if got := at(); !h.ui.chat.AtEnd() {
		t.Errorf("Ctrl+Home in a box holding text moved the chat to %.0f", got)
	}
	page("Page Up over a short draft", fyne.KeyPageUp, at(), true)
	// A text taller than the box: Page Up moves in it.
	h.ui.input.SetText(strings.Repeat("a line of the draft\n", 12))
	before := at()
	h.key(fyne.KeyPageUp)
	if got := at(); got != before {
		t.Errorf("Page Up in a box whose text is taller than it moved the chat from %.0f to %.0f", before, got)
	}
	if h.ui.input.CursorRow != 0 {
		t.Errorf("Page Up in a tall draft left the caret on row %d, want the first", h.ui.input.CursorRow)
	}
	h.ui.input.SetText("")

	// Nothing focused (a click in the transcript).
	c.Unfocus()
	up1 = page("Page Up from the transcript", fyne.KeyPageUp, at(), true)
	h.key(fyne.KeyHome)
	if got := at(); got != 0 {
		t.Errorf("Home from the transcript: the chat is at %.0f, want its top", got)
	}
	page("Page Down from the transcript", fyne.KeyPageDown, 0, false)
	ctrl(fyne.KeyEnd)
	if got := at(); !h.ui.chat.AtEnd() {
		t.Errorf("Ctrl+End from the transcript: the chat is at %.0f, want its end", got)
	}

	// F1's list names them, and scrolls with keys.
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.drain()
	h.press(fyne.KeyF1)
	h.drain()
	var list *container.Scroll
	guitest.Walk(c.Overlays().Top(), func(o fyne.CanvasObject) {
		if s, ok := o.(*container.Scroll); ok && list == nil {
			list = s
		}
	})
	if list == nil {
		t.Fatal("F1 showed no list")
	}
	for _, keys := range []string{"Page Up, Page Down", "Ctrl+Home, Ctrl+End"} {
		if !guitest.Shows(h.ui.win, keys) {
			t.Errorf("F1's list does not name %s", keys)
		}
	}
	was := list.Offset.Y
	for _, key := range []fyne.KeyName{fyne.KeyDown, fyne.KeyPageDown, fyne.KeyEnd} {
		h.press(key)
		if list.Offset.Y <= was {
			t.Errorf("%s in F1's list: it stays at %.0f", key, list.Offset.Y)
		}
		was = list.Offset.Y
	}
	if bottom := list.Content.MinSize().Height - list.Size().Height; was < bottom-0.5 {
		t.Errorf("End in F1's list: at %.0f, want its end %.0f", was, bottom)
	}
	h.press(fyne.KeyHome)
	if list.Offset.Y != 0 {
		t.Errorf("Home in F1's list: at %.0f, want its start", list.Offset.Y)
	}
	h.press(fyne.KeyEscape)
	if h.ui.shortcutsShown != nil {
		t.Error("Escape left F1's list open")
	}
}
