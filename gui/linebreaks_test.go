package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"

	"deckhand/gui/chat/find"
	"deckhand/testutil"
)

// TestAnswerKeepsLineBreaks: an answer's single line breaks show as line
// breaks (a poem, a verse a line), as in chat apps, where CommonMark
// joined the verses into one line. A drag across the break copies it as
// a line break, Select all copies the verses a line each, and find
// marks the words it found on their line. The person's own message
// keeps its line breaks too.
func TestAnswerKeepsLineBreaks(t *testing.T) {
	poem := "Roses are red,\nthe zebrafinch sings,\nsugar is sweet."
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks(poem + "\n\nThat is all.")}}})
	h.ui.win.Canvas().Focus(h.ui.input)
	h.ui.input.SetText("my first line\nmy second line")
	h.ui.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.until("the answer", func() bool { return h.selTextWith("zebrafinch") != nil && h.selTextWith("That is all") != nil })

	// The person's lines, and the answer's verses, each on a row of its own.
	for _, lines := range [][2]string{{"my first line", "my second line"}, {"Roses", "the zebrafinch"}, {"the zebrafinch", "sugar"}} {
		st := h.selTextWith(lines[0])
		if st == nil {
			t.Fatalf("no block shows %q", lines[0])
		}
		a, _ := pointAt(t, st, lines[0])
		b, _ := pointAt(t, st, lines[1])
		if b.Y <= a.Y {
			t.Errorf("%q is drawn on the row of %q (y %v, %v): the line break was joined", lines[1], lines[0], b.Y, a.Y)
		}
	}

	// A drag from "red" to the middle of "zebrafinch" copies the break.
	c := h.ui.win.Canvas()
	st := h.selTextWith("zebrafinch")
	drv := fyne.CurrentApp().Driver()
	abs := drv.AbsolutePositionForObject(st)
	from, _ := pointAt(t, st, "red,")
	to, _ := pointAt(t, st, "finch")
	st.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from.Subtract(abs)}, Button: desktop.MouseButtonPrimary})
	st.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to.Subtract(abs), AbsolutePosition: to}})
	st.DragEnd()
	typeOnCanvas(c, &fyne.ShortcutCopy{})
	if got, want := h.app.Clipboard().Content(), "red,\nthe zebra"; got != want {
		t.Errorf("a drag from red to zebra copied %q, want %q", got, want)
	}
	// Select all: the verses a line each, then the last paragraph.
	h.ui.chat.Sel.SelectMessage(st.Row())
	typeOnCanvas(c, &fyne.ShortcutCopy{})
	if got, want := h.app.Clipboard().Content(), poem+"\n\nThat is all."; got != want {
		t.Errorf("Select all copied %q, want %q", got, want)
	}

	// Find marks the words on their verse.
	h.ui.chat.Sel.Clear()
	h.ui.chat.Find.Open("zebrafinch SINGS")
	h.drain()
	if got := h.ui.chat.Find.Count.Text; got != "1 of 1" {
		t.Fatalf("find says %q, want 1 of 1", got)
	}
	var mark *canvas.Rectangle
	for _, o := range st.Marks.Objects {
		if r, ok := o.(*canvas.Rectangle); ok && r.FillColor == find.Current {
			mark = r
		}
	}
	if mark == nil {
		t.Fatal("the match is not marked")
	}
	for _, run := range st.Rich.Runs() {
		text := string(run.Text)
		i := strings.Index(text, "zebrafinch sings")
		if i < 0 {
			continue
		}
		col := len([]rune(text[:i]))
		x0, x1 := run.Pos.X+run.Width(col), run.Pos.X+run.Width(col+len("zebrafinch sings"))
		if p, s := mark.Position(), mark.Size(); p.Y != run.Pos.Y || abs32(p.X-x0) > 0.5 || abs32(p.X+s.Width-x1) > 0.5 {
			t.Errorf("the mark is at %v size %v, want x %v to %v at y %v (the words on their verse)", p, s, x0, x1, run.Pos.Y)
		}
		return
	}
	t.Errorf("no row shows %q", "zebrafinch sings")
}

func abs32(f float32) float32 { return max(f, -f) }
