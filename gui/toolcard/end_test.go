package toolcard

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/tools"
	"deckhand/transcript"
)

// ringShown reports whether o draws its focus ring (widgets.NewRing).
func ringShown(t *testing.T, o fyne.Widget) bool {
	t.Helper()
	r, ok := test.WidgetRenderer(o).(interface{ RingShown() bool })
	if !ok {
		t.Fatalf("%T draws no focus ring", o)
	}
	return r.RingShown()
}

// below reports whether b is drawn under a in the window, starting where
// a ends or lower.
func below(a, b fyne.CanvasObject) bool {
	d := fyne.CurrentApp().Driver()
	return d.AbsolutePositionForObject(b).Y >= d.AbsolutePositionForObject(a).Y+a.Size().Height
}

// control is a button of the card's (a widget.Button or one that embeds
// it), as the person finds it: what it says, where it is.
type control interface {
	fyne.Focusable
	fyne.Tappable
	fyne.Widget
}

// endControl is the card's button drawn under its result, and what it
// says; nil when there is none.
func endControl(c *Card) (control, string) {
	for _, o := range guitest.All[fyne.CanvasObject](c.View()) {
		b, ok := o.(control)
		if !ok || !below(c.Out, b) {
			continue
		}
		switch x := o.(type) {
		case *widget.Button:
			return b, x.Text
		case *widgets.RingButton:
			return b, x.Text
		}
	}
	return nil, ""
}

// TestToolCardShowAllAtTheResultsEnd: a long result ends, where it is
// cut, in a control that says how much is hidden and shows it: reached
// with Tab, ringed while focused, pressed with Space; then Show less in
// the same place (and in the header) cuts it again, pressed with Enter.
// The cut ended in the line "… 482 B more (Show all)", which no click or
// key reached, and the header's Show all was out of sight above it.
func TestToolCardShowAllAtTheResultsEnd(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("a line of the tool's output\n", 60)
	h.finished("c1", "t.echo", long, nil)
	c := h.card("t.echo")
	// The cut shows the result's head, and nothing it does not hold.
	head := c.Out.String()
	if !strings.HasPrefix(long, head) || strings.Count(head, "\n") != transcript.CollapseAfter-1 {
		t.Errorf("the cut result shows %q, want its first %d lines and no more", head, transcript.CollapseAfter)
	}
	want := fmt.Sprintf("Show the whole result (%s more)", tools.Size(len(long)-len(head)))
	end, says := endControl(c)
	if end == nil || says != want {
		t.Fatalf("the cut result ends in %T %q, want a button %q; the card shows %q", end, says, want, guitest.Texts(h.host.Win))
	}

	// Tab reaches it, and its focus shows.
	cv := h.host.Win.Canvas()
	for range 10 {
		if cv.Focused() == fyne.Focusable(end) {
			break
		}
		cv.FocusNext()
	}
	if cv.Focused() != fyne.Focusable(end) {
		t.Fatalf("Tab never reached the control at the result's end; it stops on %T", cv.Focused())
	}
	if !ringShown(t, end) {
		t.Error("the focused control shows no focus ring")
	}
	cv.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if got := c.Out.String(); got != long {
		t.Fatalf("after Space the result shows %d of its %d lines", strings.Count(got, "\n"), strings.Count(long, "\n"))
	}
	if !h.rows[0].row.Expanded {
		t.Error("the row was not told to show all")
	}
	if now, says := endControl(c); now != end || says != "Show less" || c.Expand.Text != "Show less" {
		t.Errorf("shown whole, the result ends in %q and the header says %q; want Show less at both", says, c.Expand.Text)
	}
	if cv.Focused() != fyne.Focusable(end) {
		t.Fatalf("after Space the focus is on %T, not the control pressed", cv.Focused())
	}
	cv.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if _, says := endControl(c); c.Out.String() != head || says != want || c.Expand.Text != "Show all" {
		t.Errorf("after Enter on Show less: %d lines, the end says %q, the header %q", strings.Count(c.Out.String(), "\n")+1, says, c.Expand.Text)
	}

	// The header's Show all and Show less change the end's control too.
	test.Tap(c.Expand)
	if _, says := endControl(c); says != "Show less" || c.Out.String() != long {
		t.Errorf("after the header's Show all the end says %q", says)
	}
	test.Tap(c.Expand)
	if _, says := endControl(c); says != want {
		t.Errorf("after the header's Show less the end says %q", says)
	}
	// Folded, the card shows none.
	test.Tap(c.Fold)
	if end, says := endControl(c); end != nil {
		t.Errorf("a folded card shows %q", says)
	}
}
