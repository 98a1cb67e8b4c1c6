package gui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/testutil"
)

// TestIconButtonsNameThemselves: at 640x480 and 128% text a message's
// Retry and Edit are icons alone, as its Delete and Copy are at any size,
// and ‹ › are signs: the pointer resting on each shows its name near it,
// in the window, and the name goes when the pointer leaves. So do the
// find bar's arrows and its close button. Hovering ↻ showed only a hover
// fill.
func TestIconButtonsNameThemselves(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, cfg: func(c *config.Config) { c.UI.TextScale = 1.28 }, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The zebrafinch sings.")},
		{Body: testutil.TextChunks("A robin sings.")},
	}})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.twoVersions()
	hv := h.userHeaders()[0]
	if hv.Retry.Text != "" || hv.Edit.Text != "" {
		t.Fatalf("Retry and Edit show words (%q, %q) at 640x480: the test proves nothing", hv.Retry.Text, hv.Edit.Text)
	}
	h.ui.chat.Find.Open("robin")
	h.drain()

	c := h.ui.win.Canvas()
	drv := fyne.CurrentApp().Driver()
	tips := h.ui.chat.Tips
	var named []string
	buttons := append(guitest.All[*widgets.TipButton](hv.Obj), guitest.All[*widgets.TipButton](h.ui.chat.Find.Bar)...)
	for _, b := range buttons {
		if b.Text == b.Tip {
			continue // it shows its name
		}
		at, size := drv.AbsolutePositionForObject(b), b.Size()
		test.MoveMouse(c, at.AddXY(size.Width/2, size.Height/2))
		if tips.Shown() != nil {
			t.Errorf("the tip %q shows as the pointer comes, before it rests", b.Tip)
		}
		h.until("the tip of "+b.Tip, func() bool { return tips.Shown() == b })
		named = append(named, tips.Label.Text)
		if tips.Label.Text != b.Tip {
			t.Errorf("the pointer on %q shows the tip %q", b.Tip, tips.Label.Text)
		}
		tp, ts := drv.AbsolutePositionForObject(tips.Label), tips.Label.Size()
		win := c.Size()
		if tp.X < 0 || tp.Y < 0 || tp.X+ts.Width > win.Width || tp.Y+ts.Height > win.Height {
			t.Errorf("the tip %q at %v, %v is not all in the %v window", b.Tip, tp, ts, win)
		}
		if tp.Y < at.Y+size.Height && tp.Y+ts.Height > at.Y && tp.X < at.X+size.Width && tp.X+ts.Width > at.X {
			t.Errorf("the tip %q at %v, %v covers its button at %v, %v", b.Tip, tp, ts, at, size)
		}
		// Away: the tip goes at once.
		test.MoveMouse(c, drv.AbsolutePositionForObject(h.ui.title).AddXY(2, 2))
		if tips.Shown() != nil {
			t.Errorf("the tip %q stays after the pointer left", b.Tip)
		}
	}
	for _, want := range []string{"Retry", "Edit", "Delete message", "Copy message", "Previous version", "Next version",
		"Previous match (Shift+Enter)", "Next match (Enter)", "Close (Escape)"} {
		if !slices.Contains(named, want) {
			t.Errorf("no button showed the tip %q (tips shown: %q)", want, named)
		}
	}
}
