package chat

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/chat/block"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// TestLongCodeIsOne: a code block longer than a row's 2 KiB
// (transcript.MaxBlock), cut in rows at line ends, is drawn as one box:
// each row after a cut has no header (language, Copy), its background
// meets the row before's with no gap, and its first line is drawn a line's
// pitch below the row before's last. The box's one Copy puts the whole
// code on the clipboard, exactly; a drag across a cut copies the lines as
// written, Select all the message, and the find bar counts and marks
// lines across the cut. Before, the 6 KiB block was three boxes with a
// Copy each, which copied a third of the code.
func TestLongCodeIsOne(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 6*1024; i++ {
		fmt.Fprintf(&b, "fmt.Println(\"line %d of a long program\", %d)\n", i, i*i)
	}
	code := strings.TrimSuffix(b.String(), "\n")
	text := "Here it is:\n\n```go\n" + code + "\n```\n\nDone."
	h := newCardHarness(t)
	h.tr.User("a long program please", time.Now())
	h.tr.Assistant(text, time.Now())
	h.frame()
	h.drain()
	cv := h.ui.chat
	first := -1
	var conts []int
	for i, r := range cv.Rows {
		if r.Kind == transcript.Code && first < 0 {
			first = i
		}
		if r.Kind == transcript.Code && r.Cont {
			conts = append(conts, i)
		}
	}
	if first < 0 || len(conts) < 2 {
		t.Fatalf("the code's first row %d, %d rows go on from it; want 2 or more", first, len(conts))
	}
	d := fyne.CurrentApp().Driver()
	for _, i := range conts {
		h.cutInView(i)
		above, below := h.codeView(i-1), h.codeView(i)
		if above == nil || below == nil {
			t.Fatalf("rows %d and %d are not both on screen", i-1, i)
		}
		if below.Top.Visible() {
			t.Errorf("row %d shows a header (language, Copy) in the middle of the code", i)
		}
		// One box: the background below reaches up to the one above.
		aBottom := d.AbsolutePositionForObject(above.Bg).Y + above.Bg.Size().Height
		bTop := d.AbsolutePositionForObject(below.Bg).Y
		if bTop > aBottom {
			t.Errorf("a %.1f px gap between the boxes of rows %d and %d", bTop-aBottom, i-1, i)
		}
		if bl, al := d.AbsolutePositionForObject(below.Bg).X, d.AbsolutePositionForObject(above.Bg).X; bl != al || below.Bg.Size().Width != above.Bg.Size().Width {
			t.Errorf("row %d's box is not under row %d's: x %.1f, %.1f wide; want x %.1f, %.1f wide", i, i-1, bl, below.Bg.Size().Width, al, above.Bg.Size().Width)
		}
		ra, rb := lineRuns(above.Sel.Rich.Runs()), lineRuns(below.Sel.Rich.Runs())
		if len(ra) < 2 || len(rb) == 0 {
			t.Fatalf("row %d drew %d lines, row %d %d", i-1, len(ra), i, len(rb))
		}
		la, lb := ra[len(ra)-1], rb[0]
		pitch := la[0].Pos.Y - ra[len(ra)-2][0].Pos.Y
		last := d.AbsolutePositionForObject(above.Sel).Y + la[0].Pos.Y
		next := d.AbsolutePositionForObject(below.Sel).Y + lb[0].Pos.Y
		if got := next - last; math.Abs(float64(got-pitch)) > 0.5 {
			t.Errorf("row %d's first line is %.1f px below row %d's last, want the code's pitch %.1f", i, got, i-1, pitch)
		}
		// A drag from the start of the last line above the cut to the
		// end of the first line below copies the two lines.
		fromAbs := d.AbsolutePositionForObject(above.Sel)
		from := fromAbs.Add(la[0].Pos).AddXY(0.5, la[0].Size.Height/2)
		end := lb[len(lb)-1]
		to := d.AbsolutePositionForObject(below.Sel).Add(end.Pos).AddXY(end.Size.Width+2, end.Size.Height/2)
		above.Sel.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to.Subtract(fromAbs), AbsolutePosition: to}, Dragged: fyne.Delta{DX: to.X - from.X, DY: to.Y - from.Y}})
		above.Sel.DragEnd()
		aboveText, belowText := cv.Rows[i-1].Text, cv.Rows[i].Text
		want := aboveText[strings.LastIndexByte(aboveText, '\n')+1:] + "\n" + belowText[:strings.IndexByte(belowText, '\n')]
		if got := cv.Sel.Text(); got != want {
			t.Errorf("a drag across the cut copies %q…%q, want %q", got[:min(len(got), 60)], got[max(len(got)-60, 0):], want)
		}
		cv.Sel.Clear()
	}

	// The Copy of the box copies the whole code.
	cv.List.ScrollTo(first)
	h.drain()
	c := h.codeView(first)
	if c == nil {
		t.Fatalf("the code's first row %d is not on screen", first)
	}
	var cp *widget.Button
	for _, o := range c.Top.Objects {
		if b, ok := o.(*widget.Button); ok {
			cp = b
		}
	}
	if cp == nil || !c.Top.Visible() {
		t.Fatal("the code's first row shows no Copy")
	}
	test.Tap(cp)
	if got := h.ui.App().Clipboard().Content(); got != code {
		t.Errorf("Copy put %d characters on the clipboard, want the code's %d; where they differ: %q", len(got), len(code), diffAt(got, code))
	}

	// Select all copies the message as written.
	cv.Sel.SelectMessage(conts[0])
	if got := cv.Sel.Text(); !strings.Contains(got, code) {
		t.Errorf("Select all copies %d characters, not the whole code; where they differ: %q", len(got), diffAt(got[max(strings.Index(got, "fmt."), 0):], code))
	}
	cv.Sel.Clear()

	// The find bar reads the code as one: the line across the first cut
	// and the next are found together, in both rows.
	i := conts[0]
	aboveText, belowText := cv.Rows[i-1].Text, cv.Rows[i].Text
	query := aboveText[strings.LastIndexByte(aboveText, '\n')+1:] + "\n" + belowText[:strings.Index(belowText, " of")]
	h.findsAcrossCut(t, i, query)
}

// codeView is the code block of row i on screen, or nil.
func (h *cardHarness) codeView(i int) *block.Code {
	for _, v := range h.visibleRows() {
		if v.ID == i && v.Row == h.ui.chat.Rows[i] {
			c, _ := v.Parts[transcript.Code].(*block.Code)
			return c
		}
	}
	return nil
}

// lineRuns groups runs by the line they are drawn on (a highlighted line
// is drawn in a run a token).
func lineRuns(runs []richtext.TextRun) [][]richtext.TextRun {
	var out [][]richtext.TextRun
	for _, r := range runs {
		if n := len(out); n > 0 && math.Abs(float64(out[n-1][0].Pos.Y-r.Pos.Y)) < 1 {
			out[n-1] = append(out[n-1], r)
			continue
		}
		out = append(out, []richtext.TextRun{r})
	}
	return out
}
