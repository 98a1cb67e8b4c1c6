package chat

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/gui/chat/block"
	"deckhand/gui/chat/find"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// TestLongParagraphWrapsAsOne: a paragraph longer than a row's 2 KiB,
// cut in rows, is wrapped as one text: the lines the rows draw, read
// across the cuts on the screen, are the lines one rich text of the
// whole paragraph wraps to at the same width. Before, each row wrapped
// its own text: the line before a cut ended half way ("…38 of a slow
// story that keeps going.") and the next sentence began a line. Checked
// while the answer streams, at its end, after the window is resized
// narrower and wider, when the chat is opened again, for a 20k paragraph
// with words in bold and italics, and for the person's own message.
func TestLongParagraphWrapsAsOne(t *testing.T) {
	text := story(79) // 4,177 characters, the new user's story
	h := newCardHarness(t)
	cv := h.ui.chat
	h.tr.User("story to the end please", time.Now())
	h.frame()
	for i := 0; i < len(text); i += 97 { // streamed, a frame per delta
		h.tr.Delta(text[i:min(i+97, len(text))], time.Now())
		h.frame()
		if i/97 == 25 {
			h.drain()
			h.wrapsAsOne(t, "while it streams", "assistant")
		}
	}
	h.tr.Assistant(text, time.Now())
	h.frame()
	h.drain()
	h.wrapsAsOne(t, "streamed", "assistant")

	for _, w := range []float32{640, 1280} {
		h.ui.Win.Resize(fyne.NewSize(w, 700))
		h.cutInView(len(cv.Rows) - 1) // a row comes into view before the rows are measured again
		h.until("the rows measured at the new width", func() bool {
			return !cv.resizing && cv.width == cv.List.Size().Width
		})
		h.drain()
		h.wrapsAsOne(t, fmt.Sprintf("resized to %.0f", w), "assistant")
	}

	rows := make([]transcript.Row, h.tr.Len())
	for i := range rows {
		rows[i] = h.tr.Row(i)
	}
	cv.Reset("c2", nil)
	h.drain()
	h.ui.Win.Resize(fyne.NewSize(800, 700))
	h.until("the rows measured at the new width", func() bool {
		return !cv.resizing && cv.width == cv.List.Size().Width
	})
	cv.Reset("c1", rows)
	h.drain()
	h.wrapsAsOne(t, "opened again at 800", "assistant")

	// Five times as long, with words in bold and italics across the
	// lines: the rows' lines are those of one text still.
	long := strings.ReplaceAll(story(380), "slow story", "*slow* **story**")
	h.tr.User("a longer one", time.Now())
	h.tr.Assistant(long, time.Now())
	h.frame()
	h.drain()
	h.wrapsAsOne(t, "20k, styled", "assistant")

	// The person's own long paragraph, shown as typed (not Markdown).
	h.tr.User(story(79), time.Now())
	h.frame()
	h.drain()
	h.wrapsAsOne(t, "the person's", "user")
}

// wrapsAsOne checks that the rows of the last long paragraph of role
// draw, read across their cuts, the lines one rich text of it draws.
func (h *cardHarness) wrapsAsOne(t *testing.T, when, role string) {
	t.Helper()
	cv := h.ui.chat
	first := -1 // the paragraph's first row
	for i, r := range cv.Rows {
		if r.Kind == transcript.Text && r.Role == role && !r.Cont && find.GoesOn(cv.Rows, i+1) {
			first = i
		}
	}
	if first < 0 || !find.GoesOn(cv.Rows, first+1) {
		t.Fatalf("%s: no paragraph cut in rows", when)
	}
	last := first + 1
	for find.GoesOn(cv.Rows, last+1) {
		last++
	}
	var text strings.Builder
	text.WriteString(cv.Rows[first].Text)
	for i := first + 1; i <= last; i++ {
		text.WriteString(cv.Rows[i].Join + cv.Rows[i].Text)
	}

	// What the rows draw: each row's lines; a row's first line on the
	// screen line of the row before's last goes on with it.
	d := fyne.CurrentApp().Driver()
	var got []string
	var width float32
	for i := first; i <= last; i++ {
		h.cutShown(max(i, first+1), i-1, i)
		s := h.block(i)
		if s == nil {
			t.Fatalf("%s: row %d is not on screen", when, i)
		}
		width = s.Rich.Size().Width
		lines, ys := drawnLines(s.Rich)
		if i > first && len(lines) > 0 {
			above := h.block(i - 1)
			if above == nil {
				t.Fatalf("%s: row %d is not on screen", when, i-1)
			}
			_, upYs := drawnLines(above.Rich)
			lastY := d.AbsolutePositionForObject(above.Rich).Y + upYs[len(upYs)-1]
			firstY := d.AbsolutePositionForObject(s.Rich).Y + ys[0]
			if diff := firstY - lastY; diff > -0.5 && diff < 0.5 {
				got[len(got)-1] += " " + lines[0]
				lines = lines[1:]
				// The row's background (the person's messages are on
				// one) is drawn over the row before: it must begin
				// below the line they share, where the row before's
				// reaches.
				bgA, bgB := h.view(i-1).Text().Bg, h.view(i).Text().Bg
				lineEnd := lastY + block.LinePitch()
				topB := d.AbsolutePositionForObject(bgB).Y
				endA := d.AbsolutePositionForObject(bgA).Y + bgA.Size().Height
				if topB < lineEnd-0.5 || endA < topB {
					t.Errorf("%s: row %d's background begins at %.1f, over the line it shares with row %d (down to %.1f), whose own ends at %.1f", when, i, topB, i-1, lineEnd, endA)
				}
			}
		}
		got = append(got, lines...)
	}
	for i := range got {
		got[i] = strings.Join(strings.Fields(got[i]), " ")
	}

	// One rich text of the whole paragraph, as wide as the rows' text.
	one := richtext.NewMDText(block.Segments(cv.Rows[first].Plain, text.String())...)
	one.Wrapping = fyne.TextWrapWord
	test.WidgetRenderer(one)
	one.Resize(fyne.NewSize(width, 100))
	want, _ := drawnLines(one)
	for i := range want {
		want[i] = strings.Join(strings.Fields(want[i]), " ")
	}
	if !slices.Equal(got, want) {
		for i := range max(len(got), len(want)) {
			g, w := "", ""
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("%s, %.0f px wide: the rows draw %d lines, one text %d; line %d is\n%q, want\n%q", when, width, len(got), len(want), i+1, g, w)
				break
			}
		}
	}
}

// drawnLines are the lines of text rt drew, top to bottom, and their
// tops.
func drawnLines(rt *richtext.MDText) (lines []string, ys []float32) {
	runs := rt.Runs()
	slices.SortStableFunc(runs, func(a, b richtext.TextRun) int {
		return cmp.Or(cmp.Compare(a.Pos.Y, b.Pos.Y), cmp.Compare(a.Pos.X, b.Pos.X))
	})
	for _, r := range runs {
		if n := len(ys); n > 0 && r.Pos.Y-ys[n-1] < 0.5 {
			lines[n-1] += string(r.Text)
			continue
		}
		lines, ys = append(lines, string(r.Text)), append(ys, r.Pos.Y)
	}
	return lines, ys
}

// TestLongParagraphLineAtTheEdges: the line two rows of a paragraph
// share (each draws its words on it) is drawn whole when it is mostly in
// view at the bottom or the top of the transcript: the list then shows
// both rows. The row before ended below the line, and with the line in
// full view at the bottom the list did not show the row after yet: the
// line held the words of the row before alone, as if cut.
func TestLongParagraphLineAtTheEdges(t *testing.T) {
	h := newCardHarness(t)
	cv := h.ui.chat
	h.tr.User("story to the end please", time.Now())
	h.tr.Assistant(story(79), time.Now())
	h.frame()
	h.drain()
	d := fyne.CurrentApp().Driver()
	shared := 0
	for i := range cv.Rows {
		if cv.leadOf(i) == 0 {
			continue
		}
		shared++
		h.cutShown(i, i-1, i)
		above := h.block(i - 1)
		if above == nil {
			t.Fatalf("row %d is not on screen", i-1)
		}
		runs := above.Rich.Runs()
		last := runs[len(runs)-1]
		// The line's top and bottom in the list's content.
		top := d.AbsolutePositionForObject(above).Y + last.Pos.Y - d.AbsolutePositionForObject(cv.List).Y + cv.List.GetScrollOffset()
		bottom := top + last.Size.Height
		view := cv.List.Size().Height
		for _, c := range []struct {
			edge   string
			offset float32
		}{
			{"bottom", top + 0.6*last.Size.Height - view}, // its top 60% in view
			{"top", bottom - 0.6*last.Size.Height},        // its bottom 60%
		} {
			cv.List.ScrollToOffset(c.offset)
			h.drain()
			for _, row := range []int{i - 1, i} {
				if h.block(row) == nil || !cv.blockInView(h.block(row)) {
					t.Errorf("the line of rows %d and %d mostly in view at the %s: row %d is not shown", i-1, i, c.edge, row)
				}
			}
		}
	}
	if shared == 0 {
		t.Fatal("no row goes on on the line of the row before")
	}
}

// view is the on-screen view of row i, or nil.
func (h *cardHarness) view(i int) *RowView {
	for _, v := range h.visibleRows() {
		if v.ID == i && v.Row == h.ui.chat.Rows[i] {
			return v
		}
	}
	return nil
}

// cutShown scrolls the cut before row i into view until the blocks of
// rows are all on screen (a few tries): the window's queued work (a
// second scroll to the end after a message, heights fixed as rows come
// into view) may move the view after the first, on a loaded machine.
func (h *cardHarness) cutShown(i int, rows ...int) {
	for range 5 {
		h.cutInView(i)
		shown := true
		for _, r := range rows {
			shown = shown && (r < 0 || h.block(r) != nil)
		}
		if shown {
			return
		}
	}
}
