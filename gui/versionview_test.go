package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"deckhand/config"
	"deckhand/gui/chat"
	"deckhand/testutil"
	"deckhand/transcript"
)

// TestVersionArrowKeepsTheView: ‹ on a message shows its other version
// with the view at that message, its ‹ n/m › in sight; it jumped to the
// end of the chat, a long answer away.
func TestVersionArrowKeepsTheView(t *testing.T) {
	long := strings.Repeat("A line of the long first answer.\n\n", 80)
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks(long)}, {Body: testutil.TextChunks("Short.")},
	}})
	h.say("tell me at length")
	h.until("the long answer", func() bool { return !h.ui.running && h.shows(h.ui.win, "A line of the long") })
	h.ui.chat.Control(chat.Retry, "", "") // the header's Retry, scrolled out of sight
	h.until("the second version", func() bool {
		rows := h.ui.chat.Rows
		return !h.ui.running && len(rows) > 0 && rows[0].Versions == 2 && h.shows(h.ui.win, "Short.")
	})
	h.drain()
	test.Tap(h.userHeaders()[0].Prev)
	h.until("the first version", func() bool {
		rows := h.ui.chat.Rows
		return len(rows) > 10 && rows[0].Kind == transcript.Header && rows[0].Version == 1 && len(h.ui.chat.Views) > 0
	})
	h.drain()
	cv := h.ui.chat
	top := float32(0)
	for i := range cv.Rows {
		if cv.Rows[i].Kind == transcript.Header && cv.Rows[i].Role == "user" {
			break
		}
		top += cv.Heights[i] + theme.Padding()
	}
	if off := cv.List.GetScrollOffset(); off > top {
		t.Errorf("after ‹ the view is at %.0f, past the message's header at %.0f (the chat is %d rows)", off, top, len(cv.Rows))
	}
	if hs := h.userHeaders(); len(hs) != 1 || hs[0].Version.Text != "1/2" {
		t.Errorf("the message's ‹ 1/2 › is not in view (%d headers on screen)", len(hs))
	}
}

// At 640x480 and 128% text, a message's header keeps a gap between its
// versions (‹ 1/2 ›) and its Retry: "1/2 ›Retry" touched.
func TestVersionArrowsClearOfRetryWhenNarrow(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, cfg: func(c *config.Config) { c.UI.TextScale = 1.28 }, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The zebrafinch sings.")},
		{Body: testutil.TextChunks("A robin sings.")},
	}})
	h.ui.win.Resize(fyne.NewSize(640, 450))
	h.twoVersions()
	hv := h.userHeaders()[0]
	d := fyne.CurrentApp().Driver()
	next, retry := d.AbsolutePositionForObject(hv.Next), d.AbsolutePositionForObject(hv.Retry)
	if !hv.Retry.Visible() || !hv.Next.Visible() {
		t.Fatalf("Retry shown %v, › shown %v", hv.Retry.Visible(), hv.Next.Visible())
	}
	if gap := retry.X - (next.X + hv.Next.Size().Width); gap < theme.Padding() {
		t.Errorf("› ends at %v and Retry starts at %v: a gap of %v, want at least %v", next.X+hv.Next.Size().Width, retry.X, gap, theme.Padding())
	}
	if end := d.AbsolutePositionForObject(hv.Obj).X + hv.Obj.Size().Width; retry.X < next.X || d.AbsolutePositionForObject(hv.Retry).X+hv.Retry.Size().Width > end+1 {
		t.Errorf("Retry at %v (%v wide) is not between › and the header's end (%v)", retry.X, hv.Retry.Size().Width, end)
	}
}
