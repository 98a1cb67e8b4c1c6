package chat

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"deckhand/gui/chat/find"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// story is one paragraph of n sentences (the new-user pass's fixture:
// 79 make 4,177 characters).
func story(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "Sentence number %d of a slow story that keeps going.", i)
	}
	return b.String()
}

// TestLongParagraphIsOne: a paragraph longer than a row's 2 KiB
// (transcript.MaxBlock) is drawn as one paragraph: the first line of each
// row after a cut is drawn a line's pitch below the last line of the row
// before, as the paragraph's lines are, with no blank line between; Select
// all copies the paragraph exactly, and the find bar finds, counts and
// marks (in both rows) words that straddle the cut. Before, the rows were
// drawn a paragraph apart, the copy held "\n\n" at each cut, and the words
// across it were "No matches".
func TestLongParagraphIsOne(t *testing.T) {
	for _, n := range []int{79, 380} {
		text := story(n)
		t.Run(fmt.Sprintf("%d characters", len(text)), func(t *testing.T) {
			h := newCardHarness(t)
			h.tr.User("story to the end please", time.Now())
			h.tr.Assistant(text, time.Now())
			h.frame()
			h.drain()
			cv := h.ui.chat
			var conts []int
			for i, r := range cv.Rows {
				if r.Cont {
					conts = append(conts, i)
				}
			}
			if len(conts) < len(text)/transcript.MaxBlock {
				t.Fatalf("%d rows go on from the one before, want %d or more", len(conts), len(text)/transcript.MaxBlock)
			}
			d := fyne.CurrentApp().Driver()
			for _, i := range conts {
				// The cut in the middle of the view.
				h.cutInView(i)
				above, below := h.block(i-1), h.block(i)
				if above == nil || below == nil {
					t.Fatalf("rows %d and %d are not both on screen", i-1, i)
				}
				// Its first line lies above its row's bounds: nothing
				// between the list and the text may clip it (Fyne's
				// painter clips what a scrollable thing holds).
				for _, v := range h.visibleRows() {
					if v.ID == i {
						if _, clips := fyne.CanvasObject(v).(fyne.Scrollable); clips {
							t.Errorf("row %d's view takes the wheel itself, and so clips its first line", i)
						}
					}
				}
				ra, rb := above.Rich.Runs(), below.Rich.Runs()
				if len(ra) < 2 || len(rb) == 0 {
					t.Fatalf("row %d drew %d runs, row %d %d", i-1, len(ra), i, len(rb))
				}
				// Its words go on on that line when they fit there
				// (flow.go, TestLongParagraphWrapsAsOne), else on the
				// next.
				pitch := ra[len(ra)-1].Pos.Y - ra[len(ra)-2].Pos.Y
				if cv.leadOf(i) > 0 {
					pitch = 0
				}
				last := d.AbsolutePositionForObject(above).Y + ra[len(ra)-1].Pos.Y
				first := d.AbsolutePositionForObject(below).Y + rb[0].Pos.Y
				if got := first - last; math.Abs(float64(got-pitch)) > 0.5 {
					t.Errorf("row %d's first line is %.1f px below row %d's last, want %.1f", i, got, i-1, pitch)
				}
				if cv.leadOf(i) > 0 {
					// The line is drawn by both rows, the row after over
					// the row before: a double click picks the word
					// under the pointer whichever row the click reaches.
					lastA, firstB := ra[len(ra)-1], rb[0]
					absA, absB := d.AbsolutePositionForObject(above), d.AbsolutePositionForObject(below)
					inA := absA.Add(lastA.Pos).AddXY(lastA.Width(1)/2, lastA.Size.Height/2)    // its last line's first word
					inB := absB.Add(firstB.Pos).AddXY(firstB.Width(1)/2, firstB.Size.Height/2) // "Sentence"
					wordA := strings.FieldsFunc(string(lastA.Text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })[0]
					for _, c := range []struct {
						at   fyne.Position
						want string
					}{{inA, wordA}, {inB, "Sentence"}} {
						for _, s := range []*richtext.SelText{above, below} {
							s.DoubleTapped(&fyne.PointEvent{Position: c.at.Subtract(d.AbsolutePositionForObject(s)), AbsolutePosition: c.at})
							if got := cv.Sel.Text(); got != c.want {
								t.Errorf("a double click on %q of the line of rows %d and %d, reaching row %d, selects %q", c.want, i-1, i, s.Row(), got)
							}
							cv.Sel.Clear()
						}
					}
				}
				// A drag from the start of the last line above the cut to
				// the end of the first line below copies them as written.
				fromAbs := d.AbsolutePositionForObject(above)
				from := fromAbs.Add(ra[len(ra)-1].Pos).AddXY(0.5, ra[len(ra)-1].Size.Height/2)
				to := d.AbsolutePositionForObject(below).Add(rb[0].Pos).AddXY(rb[0].Size.Width+2, rb[0].Size.Height/2)
				above.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to.Subtract(fromAbs), AbsolutePosition: to}, Dragged: fyne.Delta{DX: to.X - from.X, DY: to.Y - from.Y}})
				above.DragEnd()
				got := cv.Sel.Text()
				if !strings.Contains(text, got) || !strings.Contains(got, "going."+cv.Rows[i].Join+"Sentence") {
					t.Errorf("a drag across the cut copies %q, want a piece of the paragraph as written across it", got)
				}
				if cv.leadOf(i) > 0 {
					// One highlight along the line, over the space
					// between the rows' words too.
					ma, mb := above.Marks.Objects, below.Marks.Objects
					if len(ma) == 0 || len(mb) == 0 {
						t.Fatalf("the drag highlights %d pieces in row %d, %d in row %d", len(ma), i-1, len(mb), i)
					}
					a, b := ma[len(ma)-1], mb[0]
					end := d.AbsolutePositionForObject(above).X + a.Position().X + a.Size().Width
					start := d.AbsolutePositionForObject(below).X + b.Position().X
					if math.Abs(float64(start-end)) > 1 {
						t.Errorf("on the line rows %d and %d share, the highlight ends at %.1f and goes on at %.1f", i-1, i, end, start)
					}
				}
				cv.Sel.Clear()
			}

			// Select all copies the text as written.
			cv.Sel.SelectMessage(conts[0]) // its rows off screen too
			if got := cv.Sel.Text(); got != text {
				t.Errorf("Select all copies %d characters, want the %d of the paragraph; where they differ: %q", len(got), len(text), diffAt(got, text))
			}
			cv.Sel.Clear()

			// Words across the first cut: the end of its row's last
			// sentence and the start of the next, with its number.
			i := conts[0]
			prev, next := cv.Rows[i-1].Text, cv.Rows[i].Text
			query := prev[len(prev)-len("keeps going."):] + cv.Rows[i].Join + next[:strings.Index(next, " of")]
			h.findsAcrossCut(t, i, query)
			f := cv.Find

			// A search's result opens the bar at the same words (the
			// sidebar's search reads the stored text, where they stand
			// together): found together, not the first word alone.
			f.Close()
			cv.FindAt(query, "")
			h.drain()
			entry := guitest.All[*widgets.FindEntry](f.Bar)[0]
			if entry.Text != query || f.Count.Text != "1 of 1" {
				t.Errorf("a search's result opens the bar at %q, %q; want %q, 1 of 1", entry.Text, f.Count.Text, query)
			}
		})
	}
}

// findsAcrossCut: the find bar, asked for query, which straddles the
// cut before row i, counts it once and marks its part in both rows.
func (h *cardHarness) findsAcrossCut(t *testing.T, i int, query string) {
	t.Helper()
	f := h.ui.chat.Find
	f.Open(query)
	h.drain()
	if f.Count.Text != "1 of 1" {
		t.Fatalf("looking for %q the bar says %q, want 1 of 1", query, f.Count.Text)
	}
	for _, row := range []int{i - 1, i} {
		s := h.block(row)
		if s == nil {
			t.Fatalf("row %d of the match is not on screen", row)
		}
		if !s.FoundCur || len(currentMarks(s)) == 0 {
			t.Errorf("row %d does not mark its part of the match (found %d, current %v)", row, s.Found, s.FoundCur)
		}
	}
}

// cutInView scrolls the chat so that the cut before row i is in the middle
// of the view: twice, as the rows that come into view are measured and
// the heights above the cut may change with them.
func (h *cardHarness) cutInView(i int) {
	cv := h.ui.chat
	for range 2 {
		var top float32
		for j := range i {
			top += cv.Heights[j] + 4
		}
		cv.List.ScrollToOffset(max(top-cv.List.Size().Height/2, 0))
		h.drain()
	}
}

// block is the selectable block of row i on screen, or nil.
func (h *cardHarness) block(i int) *richtext.SelText {
	for _, v := range h.visibleRows() {
		if v.ID == i && v.Row == h.ui.chat.Rows[i] {
			return v.Selectable()
		}
	}
	return nil
}

// currentMarks are the current match's marks s draws.
func currentMarks(s *richtext.SelText) []*canvas.Rectangle {
	var out []*canvas.Rectangle
	guitest.Walk(s.Marks, func(o fyne.CanvasObject) {
		if r, ok := o.(*canvas.Rectangle); ok && r.FillColor == find.Current {
			out = append(out, r)
		}
	})
	return out
}

// diffAt is a and b around where they first differ.
func diffAt(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[max(i-20, 0):min(i+20, len(a))]
}
