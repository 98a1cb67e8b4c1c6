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
	"deckhand/gui/widgets"
	"deckhand/gui/widgets/richtext"
)

// TestFindOutlastsARemeasure: the find bar's match stays in view when the
// transcript's width changed just before the find, and its rows are laid
// out again at the new width after it (widthChanged waits for the width
// to settle). In the real window at 640×480 the chat's column widens by
// 51 px as an answer ends, and under load the search typed at once ran
// before that: the re-measure kept the view's offset, the heights above
// the match became estimates, and "1 of 11" was drawn with the match
// above the view (TestWindowFindShowsTheMatchSmall, in CI).
func TestFindOutlastsARemeasure(t *testing.T) {
	h := newCardHarness(t)
	h.ui.Win.Resize(fyne.NewSize(640, 300))
	f := h.ui.chat.Find
	f.Relayout = func() { widgets.Relayout(h.ui.Win.Content().(*fyne.Container)) }
	h.tr.User("long essay please", time.Now())
	h.tr.Assistant(essay(40), time.Now())
	h.drawn()
	list := h.ui.chat.List
	h.ui.Win.Resize(fyne.NewSize(700, 300)) // re-measured 150 ms later
	f.Open("Paragraph 3")
	h.until("the rows re-measured at the new width", func() bool { return h.ui.chat.List != list })
	h.drain()
	h.ui.Win.Content().Refresh()
	h.drain()
	checkMatchInView(t, h, "1 of 11")
}

// checkMatchInView fails t unless the find bar says count and its current
// match's mark is inside the transcript's view.
func checkMatchInView(t *testing.T, h *cardHarness, count string) {
	t.Helper()
	f := h.ui.chat.Find
	if f.Count.Text != count {
		t.Fatalf("the bar says %q, want %s", f.Count.Text, count)
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
		t.Fatalf("the match is not drawn: the view is at %.0f px of the transcript", l.GetScrollOffset())
	}
	if y := d.AbsolutePositionForObject(mark).Y; y < top || y+mark.Size().Height > bottom {
		t.Errorf("the match is at y %.0f–%.0f, out of the transcript's %.0f–%.0f", y, y+mark.Size().Height, top, bottom)
	}
}

// TestRowsRemeasuredAfterAFrame: the rows are laid out again at a new
// width also when a frame measured a row at it before the re-measure ran
// (widthChanged waits 150 ms for the width to settle). Measuring one row
// took its width for the width of all, and the re-measure was skipped:
// the rows measured before kept the old width's heights, and in the real
// window at 640×480, whose chat column widens by 51 px as an answer ends,
// the paragraphs above the last screenful kept a gap under their text.
func TestRowsRemeasuredAfterAFrame(t *testing.T) {
	h := newCardHarness(t)
	h.ui.Win.Resize(fyne.NewSize(640, 300))
	h.tr.User("long essay please", time.Now())
	h.tr.Delta(essay(20), time.Now())
	h.drawn()
	cv := h.ui.chat
	h.ui.Win.Resize(fyne.NewSize(760, 300))
	// The answer ends: its header, out of view, is measured at the new
	// width.
	h.tr.Assistant(essay(20), time.Now())
	h.frame()
	time.Sleep(300 * time.Millisecond) // widthChanged's wait
	h.drain()
	for i, r := range cv.Rows {
		if !cv.measured[i] {
			continue // an estimate, measured when shown
		}
		if got, want := cv.Heights[i], cv.measureRow(r, cv.flowOf(i)); got != want {
			t.Errorf("row %d (%.20q) is %.1f px high, measured %.1f at the width shown", i, r.Text, got, want)
		}
	}
}

// essay is n paragraphs, "Paragraph i. " and ten sentences each.
func essay(n int) string {
	var paras []string
	for i := 1; i <= n; i++ {
		paras = append(paras, fmt.Sprintf("Paragraph %d. ", i)+strings.Repeat("The quick brown fox jumps over the lazy dog. ", 10))
	}
	return strings.Join(paras, "\n\n")
}

// drawn hands the transcript to the view and lays the window out.
func (h *cardHarness) drawn() {
	h.frame()
	h.drain()
	h.ui.Win.Content().Refresh()
	h.drain()
}
