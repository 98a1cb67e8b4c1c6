package toolcard

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/gui/widgets"
	"deckhand/testutil"
	"deckhand/tools"
)

// A card's icon-only buttons name themselves when the pointer rests on
// them (the fold chevron, as it is: open or folded; the images' back and
// next), and the name goes when the pointer leaves. They showed only a
// hover fill.
func TestToolCardIconButtonsNameThemselves(t *testing.T) {
	h := newHarness(t)
	h.finished("c1", "m.gallery", "two images", mediaOf(
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(64, 64)},
		tools.Image{MIME: "image/png", Data: testutil.TestPNG(64, 64)},
	))
	c := h.card("m.gallery")
	h.until("the first image", func() bool { return c.Media.Pic.Pic.Image != nil })
	canvas := h.host.Win.Canvas()
	drv := fyne.CurrentApp().Driver()
	tips := h.cards.Tips
	away := func() {
		test.MoveMouse(canvas, drv.AbsolutePositionForObject(c.name).AddXY(2, 2))
	}
	hover := func(t *testing.T, b *widgets.TipButton, want string) {
		t.Helper()
		away()
		at, size := drv.AbsolutePositionForObject(b), b.Size()
		test.MoveMouse(canvas, at.AddXY(size.Width/2, size.Height/2))
		h.host.Queue.Until(t, h.host.Win, "the tip "+want, func() bool { return tips.Shown() == b })
		if tips.Label.Text != want {
			t.Errorf("the pointer on the button shows %q, want %q", tips.Label.Text, want)
		}
		away()
		if tips.Shown() != nil {
			t.Errorf("the tip %q stays after the pointer left", want)
		}
	}
	for _, tt := range []struct {
		name string
		b    *widgets.TipButton
		want string
	}{
		{"fold chevron, open", c.Fold, "Fold the card to its header"},
		{"previous image", c.Media.prev, "Previous image"},
		{"next image", c.Media.next, "Next image"},
	} {
		t.Run(tt.name, func(t *testing.T) { hover(t, tt.b, tt.want) })
	}
	test.Tap(c.Fold)
	h.frame()
	t.Run("fold chevron, folded", func(t *testing.T) { hover(t, c.Fold, "Open the card") })
}
