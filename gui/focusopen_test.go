package gui

import (
	"testing"

	"fyne.io/fyne/v2"

	"deckhand/testutil"
)

// TestKeyboardToTheBoxOnOpening: Ctrl+N on the new chat already shown,
// its box without the keyboard (a click on the empty transcript), gives
// the box the keyboard; Enter on a row of the chat list opens that chat
// with the keyboard in its box, while Up and Down leave it in the list.
// Both left the keyboard nowhere (or in the list), and the letter typed
// next was lost.
func TestKeyboardToTheBoxOnOpening(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The first answer.")},
		{Body: testutil.TextChunks("The second answer.")},
	}})
	c := h.ui.win.Canvas()
	h.say("the first question")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "The first answer.") })
	h.chat("the second question", "The second answer.")

	// A new chat, then a click on its empty transcript: Ctrl+N.
	h.ui.input.Shortcuts[fyne.KeyN]()
	h.until("the new chat", func() bool { return len(h.ui.chat.Rows) == 0 })
	c.Unfocus()
	h.ui.input.Shortcuts[fyne.KeyN]()
	h.until("the keyboard in the box", func() bool { return c.Focused() == h.ui.input })

	// Down in the list opens the next chat, the keyboard kept in the list;
	// Enter gives it to the box.
	h.until("both chats listed", func() bool { return len(h.ui.side.Items) == 2 })
	h.pressInList(fyne.KeyDown)
	h.until("a chat opened from the list", func() bool { return len(h.ui.chat.Rows) > 0 })
	if c.Focused() != h.ui.side.List {
		t.Errorf("Down took the keyboard to %T, want it kept in the list", c.Focused())
	}
	h.ui.side.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if c.Focused() != h.ui.input {
		t.Fatalf("Enter in the list left the keyboard on %T, want the message box", c.Focused())
	}
	h.until("the chat shown", func() bool { return len(h.ui.chat.Rows) > 0 && h.ui.conv != "" })
	if f := c.Focused(); f != nil {
		f.TypedRune('x')
	}
	if h.ui.input.Text != "x" || c.Focused() != h.ui.input {
		t.Errorf("a letter typed after Enter went elsewhere: the box holds %q", h.ui.input.Text)
	}
}
