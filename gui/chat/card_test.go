package chat

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"deckhand/testutil"
	"deckhand/tools"
	"deckhand/transcript"
)

// TestToolCardFoldResizesItsRow: a card folded shrinks its row to the
// card's header at once, and opened again the row is as high as before,
// its image back. (What the card shows is package toolcard's.)
func TestToolCardFoldResizesItsRow(t *testing.T) {
	h := newCardHarness(t)
	h.finished("c1", "m.shot", "[image: image/png, 1 KiB]", &tools.Media{Images: []tools.Image{{MIME: "image/png", Data: testutil.TestPNG(400, 200), Size: 1024}}})
	var c *RowView
	h.until("the decoded image", func() bool {
		c = h.card("m.shot")
		return c != nil && c.Tool().Media.Pic.Pic.Image != nil
	})
	// The row is as high as the card with its image.
	open := h.ui.chat.Heights[0]
	if open < 200 {
		t.Errorf("the row is %v high, less than its image", open)
	}
	test.Tap(c.Tool().Fold)
	if !h.ui.chat.Rows[0].Collapsed {
		t.Error("the chat's row is not folded")
	}
	if folded := h.ui.chat.Heights[0]; folded >= open-150 || folded != c.MinSize().Height {
		t.Errorf("folded, the row is %v high (open: %v, the card's own: %v)", folded, open, c.MinSize().Height)
	}
	m := c.Tool().Media
	test.Tap(c.Tool().Fold)
	h.until("the image again", func() bool { return m.Pic.Pic.Image != nil })
	if h.ui.chat.Heights[0] != open {
		t.Errorf("opened again, the row is %v high, want %v", h.ui.chat.Heights[0], open)
	}
	// The bridge keeps both, for when the conversation is shown again.
	var folds []Collapse
	for _, m := range h.ui.Told() {
		if f, ok := m.(*Collapse); ok {
			folds = append(folds, *f)
		}
	}
	want := []Collapse{{Conv: "c1", Row: 0, Collapsed: true}, {Conv: "c1", Row: 0, Collapsed: false}}
	if diff := cmp.Diff(want, folds); diff != "" {
		t.Errorf("the bridge was told of folds (-want +got):\n%s", diff)
	}
}

// TestToolCardShowAllKeepsTheView: pressing Show all on a long card near
// the end grows the card below, and the view stays where it was.
func TestToolCardShowAllKeepsTheView(t *testing.T) {
	h := newCardHarness(t)
	h.tr.User("go", time.Now())
	for i := range 6 {
		h.tr.Note(strings.Repeat(fmt.Sprintf("filler %d ", i), 30), false)
	}
	long := strings.Repeat("a line of output\n", 200)
	h.finished("c1", "t.echo", long, nil)
	h.tr.Assistant("Done.", time.Now())
	h.frame()
	h.drain()
	cv := h.ui.chat
	if !cv.AtEnd() {
		t.Fatal("the view is not at the end before the test")
	}
	var c *RowView
	h.until("the long card", func() bool { c = h.card("t.echo"); return c != nil && c.Tool().Expand.Visible() })
	before := cv.List.GetScrollOffset()
	test.Tap(c.Tool().Expand)
	h.drain()
	// The bridge's copy of the row, as it comes a frame later.
	h.tr.Expand(c.ID, true)
	h.frame()
	h.drain()
	if got := strings.Count(c.Tool().Out.String(), "a line of output"); got != 200 {
		t.Errorf("the expanded card shows %d lines", got)
	}
	if after := cv.List.GetScrollOffset(); after != before {
		t.Errorf("Show all moved the view from %v to %v", before, after)
	}
}

// TestToolCardEndKeepsThePlace: the control at a cut result's end stays
// where it is on screen when pressed, the card growing above it (Show
// all) and shrinking above it (Show less, which it then says): the person
// presses it again in the same place. Show less there kept the view's
// offset, and left the person in whatever came below the card.
func TestToolCardEndKeepsThePlace(t *testing.T) {
	h := newCardHarness(t)
	h.tr.User("go", time.Now())
	for i := range 6 { // above the card: room to keep its end where it was
		h.tr.Note(strings.Repeat(fmt.Sprintf("filler %d ", i), 30), false)
	}
	long := strings.Repeat("a line of output\n", 200)
	h.finished("c1", "t.echo", long, nil)
	for i := range 12 { // below it: more than a view, the chat's end out of sight
		h.tr.Note(strings.Repeat(fmt.Sprintf("filler %d ", i), 30), false)
	}
	h.tr.Assistant("Done.", time.Now())
	h.frame()
	h.drain()
	cv := h.ui.chat
	id := slices.IndexFunc(cv.Rows, func(r transcript.Row) bool { return r.Kind == transcript.Tool })
	cv.List.ScrollTo(id)
	var c *RowView
	h.until("the long card", func() bool { c = h.card("t.echo"); return c != nil && c.Tool().OutMore.Visible() })
	d := h.ui.FyneApp.Driver()
	inList := func() float32 {
		return d.AbsolutePositionForObject(c.Tool().OutMore).Y - d.AbsolutePositionForObject(cv.List).Y
	}
	// The cut result's end half way down the view.
	cv.List.ScrollToOffset(cv.List.GetScrollOffset() + inList() - cv.List.Size().Height/2)
	h.drain()
	for _, tt := range []struct {
		name, says string
		expanded   bool
		lines      int
	}{
		{name: "Show all", says: "Show less", expanded: true, lines: 200},
		{name: "Show less", says: "Show the whole result (", lines: transcript.CollapseAfter},
	} {
		at := inList()
		if at <= 0 || at >= cv.List.Size().Height {
			t.Fatalf("before %s the result's end is at %v in a list %v high", tt.name, at, cv.List.Size().Height)
		}
		test.Tap(c.Tool().OutMore)
		h.drain()
		h.tr.Expand(c.ID, tt.expanded) // the bridge's copy of the row, a frame later
		h.frame()
		h.drain()
		if c = h.card("t.echo"); c == nil {
			t.Fatalf("%s at the result's end left the card out of view (offset %v)", tt.name, cv.List.GetScrollOffset())
		}
		if got := strings.Count(c.Tool().Out.String(), "a line of output"); got != tt.lines || !strings.HasPrefix(c.Tool().OutMore.Text, tt.says) {
			t.Fatalf("after %s at the result's end it shows %d lines, and ends in %q", tt.name, got, c.Tool().OutMore.Text)
		}
		if now := inList(); now < at-1 || now > at+1 {
			t.Errorf("%s at the result's end moved it from %v to %v in the list (offset %v)", tt.name, at, now, cv.List.GetScrollOffset())
		}
	}
}
