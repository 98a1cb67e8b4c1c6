package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"deckhand/gui/chat/find"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets/richtext"
)

// TestFindOutlastsAScrollToEnd: the find bar's match stays in view when a
// scroll to the end was asked just before (a frame of the transcript drawn
// as the chat opened): that scroll is made twice, the second time once the
// list has laid out, and the second came after the scroll to the match.
// At 640×480 a search's match in another version so opened above the
// view, the version's answer shown.
func TestFindOutlastsAScrollToEnd(t *testing.T) {
	h := newCardHarness(t)
	h.ui.Win.Resize(fyne.NewSize(640, 300))
	h.tr.User("now write a poem\nsecond line", time.Now())
	var long []string
	for i := range 20 {
		long = append(long, fmt.Sprintf("Line %d of the answer.", i))
	}
	h.tr.Assistant(strings.Join(long, "\n\n"), time.Now())
	h.frame() // follows the end: its second scroll to the end is due
	f := h.ui.chat.Find
	f.Open("now write")
	h.drain()
	h.ui.Win.Content().Refresh()
	h.drain()
	if f.Count.Text != "1 of 1" {
		t.Fatalf("the bar says %q, want 1 of 1", f.Count.Text)
	}
	var mark fyne.CanvasObject
	guitest.Walk(h.ui.Win.Content(), func(o fyne.CanvasObject) {
		if s, ok := o.(*richtext.SelText); ok && s.FoundCur {
			for _, m := range s.Marks.Objects {
				if r, ok := m.(*canvas.Rectangle); ok && r.FillColor == find.Current {
					mark = r
				}
			}
		}
	})
	d := fyne.CurrentApp().Driver()
	l := h.ui.chat.List
	top, bottom := d.AbsolutePositionForObject(l).Y, d.AbsolutePositionForObject(l).Y+l.Size().Height
	if mark == nil {
		t.Fatalf("the match is not drawn: the view is at %v of the transcript", l.GetScrollOffset())
	}
	if y := d.AbsolutePositionForObject(mark).Y; y < top || y+mark.Size().Height > bottom {
		t.Errorf("the match is at y %v, out of the view's %v–%v", y, top, bottom)
	}
}
