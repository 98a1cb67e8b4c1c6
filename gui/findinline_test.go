package gui

import (
	"fmt"
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"deckhand/approval"
	"deckhand/gui/chat/find"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets/richtext"
	"deckhand/testutil"
)

// TestFindShowsInlineCodeMatch: a match in inline code after a tool card
// that holds the same word ("I called `get-sum` to check") is marked, on
// screen, when it is the current match. The bar said "2 of 2" and marked
// nothing: the mark lay behind the text, and Fyne draws inline code on an
// opaque fill of its own, over the mark. Read from the drawn window, not
// from the widgets, as a person sees it.
func TestFindShowsInlineCodeMatch(t *testing.T) {
	answer := "The server added them: **17 + 25 = 42**. I called `t.echo` to check the sum.\n\n- I read the numbers\n- It returned 42\n\nThat is all."
	h := newHarness(t, harnessOptions{
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}, answer)})
	h.ui.win.Resize(fyne.NewSize(1000, 700))
	h.say("please add 17 and 25")
	h.until("the answer", func() bool {
		if a := h.ui.dialogs.Approvals; a.Shown() != nil {
			test.Tap(a.Buttons[approval.AllowOnce])
		}
		return !h.ui.running && h.shows(h.ui.win, "That is all.")
	})
	f := h.ui.chat.Find
	f.Open("t.echo")
	h.drain()
	if got := f.Count.Text; got != "1 of 2" {
		t.Fatalf("find t.echo says %q, want 1 of 2 (the card and the inline code)", got)
	}
	h.ui.win.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.drain()
	// Read the drawn window until the current match shows orange: on a
	// loaded machine the run's last events (its usage, the chat's title)
	// can still lay the rows out again after the answer shows, and a mark
	// read before that is not the one drawn. The defect this guards
	// against never draws it.
	var n, of int
	var state string
	defer func() {
		if t.Failed() {
			t.Log(state) // what the last look found
		}
	}()
	h.until("the current match in inline code drawn in the find's colour", func() bool {
		h.ui.win.Content().Refresh()
		var cur *richtext.SelText
		guitest.Walk(h.ui.win.Content(), func(o fyne.CanvasObject) {
			if s, ok := o.(*richtext.SelText); ok && s.FoundCur {
				cur = s
			}
		})
		if got := f.Count.Text; got != "2 of 2" || cur == nil {
			state = fmt.Sprintf("after Enter the bar says %q and the current match is marked in a block: %v; want 2 of 2, in the answer", got, cur != nil)
			return false
		}
		var mark *canvas.Rectangle
		for _, o := range append(cur.Marks.Objects, cur.Over.Objects...) {
			if r, ok := o.(*canvas.Rectangle); ok && r.FillColor == find.Current {
				mark = r
			}
		}
		if mark == nil {
			state = "no current mark in the answer"
			return false
		}
		n, of = tinted(h.ui.win, mark)
		state = fmt.Sprintf("%d of %d pixels of the current match in inline code show the find's colour; want most", n, of)
		return n*2 >= of
	})
	t.Log(state)
}

// tinted counts the pixels of o's area in the drawn window that are
// orange (the find's marks), of how many.
func tinted(w fyne.Window, o fyne.CanvasObject) (n, of int) {
	img := w.Canvas().Capture()
	scale := float32(img.Bounds().Dx()) / w.Canvas().Size().Width
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	s := o.Size()
	r := image.Rect(int((at.X+1)*scale), int((at.Y+1)*scale), int((at.X+s.Width-1)*scale), int((at.Y+s.Height-1)*scale))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, _, cb, _ := img.At(x, y).RGBA()
			of++
			if cr>>8 > cb>>8+0x60 {
				n++
			}
		}
	}
	return n, of
}
