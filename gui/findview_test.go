package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"

	"deckhand/config"
	"deckhand/gui/chat/find"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets/richtext"
	"deckhand/testutil"
)

// TestFindShowsTheMatchInAShortWindow: at 640x430 (a 640x480 screen's
// window) and 128% text, in an essay of 40 paragraphs each taller than
// the transcript under the find bar, the current match is inside the
// transcript after the bar opens and after each Enter and Shift+Enter.
// (This passed before the fix too: Fyne's test driver knows every
// object's canvas, where the real window does not know a mark just
// drawn, and the scroll to the match was skipped; the real window's
// TestWindowFindShowsTheMatchSmall fails before it.)
func TestFindShowsTheMatchInAShortWindow(t *testing.T) {
	var essay []string
	for i := 1; i <= 40; i++ {
		essay = append(essay, fmt.Sprintf("Paragraph %d. ", i)+strings.Repeat("The quick brown fox jumps over the lazy dog. ", 10))
	}
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.28 }, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks(strings.Join(essay, "\n\n"))}}})
	h.ui.win.Resize(fyne.NewSize(640, 430))
	h.say("long essay please")
	h.until("the answer", func() bool { return !h.ui.running && h.shows(h.ui.win, "Paragraph 40.") })
	h.drain()
	// The window laid out whole (as the driver does each frame), and
	// the transcript laid out again at its width.
	list, w := h.ui.chat.List, h.ui.chat.List.Size().Width
	h.ui.win.Content().Refresh()
	h.drain()
	if list.Size().Width != w {
		h.until("the transcript at its width", func() bool { return h.ui.chat.List != list })
	}
	f := h.ui.chat.Find
	f.Open("Paragraph 3")
	h.drain()
	c := h.ui.win.Canvas()
	keys := func(k fyne.KeyName, shift bool) {
		e := c.Focused()
		if shift {
			e.(desktop.Keyable).KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
		}
		e.TypedKey(&fyne.KeyEvent{Name: k})
		if shift {
			e.(desktop.Keyable).KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
		}
	}
	steps := []struct {
		what  string
		shift bool
		count string
	}{
		{what: "opened", count: "1 of 11"},
		{what: "Enter", count: "2 of 11"},
		{what: "Enter", count: "3 of 11"},
		{what: "Shift+Enter", shift: true, count: "2 of 11"},
		{what: "Shift+Enter", shift: true, count: "1 of 11"},
		{what: "Shift+Enter", shift: true, count: "11 of 11"},
	}
	d := fyne.CurrentApp().Driver()
	for i, s := range steps {
		l := h.ui.chat.List // a new one after a change of width
		if i > 0 {
			keys(fyne.KeyReturn, s.shift)
		}
		h.drain()
		h.ui.win.Content().Refresh()
		h.drain()
		if f.Count.Text != s.count {
			t.Fatalf("after %s (step %d) the bar says %q, want %q", s.what, i, f.Count.Text, s.count)
		}
		var mark *canvas.Rectangle
		guitest.Walk(h.ui.win.Content(), func(o fyne.CanvasObject) {
			if st, ok := o.(*richtext.SelText); ok && st.FoundCur {
				for _, m := range st.Marks.Objects {
					if r, ok := m.(*canvas.Rectangle); ok && r.FillColor == find.Current {
						mark = r
					}
				}
			}
		})
		if mark == nil {
			t.Errorf("after %s (%s) the current match is not drawn: the view is at %.0f px", s.what, s.count, l.GetScrollOffset())
			continue
		}
		top := d.AbsolutePositionForObject(l).Y
		bottom := top + l.Size().Height
		if y := d.AbsolutePositionForObject(mark).Y; y < top || y+mark.Size().Height > bottom {
			t.Errorf("after %s (%s) the match is at y %.0f–%.0f, out of the transcript's %.0f–%.0f", s.what, s.count, y, y+mark.Size().Height, top, bottom)
		}
	}
	t.Logf("the transcript is %.0f px high", h.ui.chat.List.Size().Height)
}
