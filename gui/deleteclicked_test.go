package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"deckhand/gui/guitest"
	"deckhand/gui/sidebar"
	"deckhand/testutil"
)

// TestDeleteAfterAClickOnAChat: a click on a chat in the list gives the
// message box the keyboard (what is typed next is a message), and Delete
// pressed next in the empty box asks to delete that chat, as Delete in
// the list does: it did nothing, and a person who clicked a chat and
// pressed Delete saw nothing happen (new-user pass 13, F9). Delete in
// the box with text in it deletes text, as ever, and so does a Delete
// after anything else was done in the box.
func TestDeleteAfterAClickOnAChat(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The first answer.")},
		{Body: testutil.TextChunks("The second answer.")},
	}})
	c := h.ui.win.Canvas()
	h.say("the first question")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "The first answer.") })
	h.chat("the second question", "The second answer.")
	h.until("both chats listed", func() bool { return len(h.ui.side.Items) == 2 })

	// A click on the chat not open.
	var other *sidebar.Row
	h.until("the other chat's row", func() bool {
		other = nil
		guitest.Walk(c.Content(), func(o fyne.CanvasObject) {
			if r, ok := o.(*sidebar.Row); ok && r.Visible() && strings.Contains(r.Title.Text, "first") {
				other = r
			}
		})
		return other != nil
	})
	other.Tapped(&fyne.PointEvent{})
	if c.Focused() != h.ui.input {
		t.Fatalf("the click left the keyboard on %T, want the message box", c.Focused())
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	if h.ui.side.Delete == nil {
		t.Fatal("Delete after the click asked nothing")
	}
	if texts := strings.Join(guitest.Texts(h.ui.win), "\n"); !strings.Contains(texts, "Delete “the first question”?") {
		t.Errorf("Delete after the click asks, in a window that shows:\n%s\nwant the clicked chat named", texts)
	}
	h.ui.side.Delete.Hide()

	// In the box, Delete deletes text: with text in it, and once anything
	// else was done there since the click.
	other.Tapped(&fyne.PointEvent{})
	for _, r := range "ab" {
		h.ui.input.TypedRune(r)
	}
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	if h.ui.input.Text != "a" || h.ui.side.Delete != nil {
		t.Errorf("Delete in the box holding text: the box holds %q, a question asked %v", h.ui.input.Text, h.ui.side.Delete != nil)
	}
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	if h.ui.side.Delete != nil {
		t.Error("Delete in the box emptied by hand asked to delete the chat")
	}
}
