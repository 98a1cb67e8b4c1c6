package chat

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
)

// TestFindBarIsOpaque: the find bar lies on the window's background, in
// the theme of the moment, so that no row of the transcript shows through
// it around its field.
func TestFindBarIsOpaque(t *testing.T) {
	h := newCardHarness(t)
	f := h.ui.chat.Find
	f.Open("x")
	h.drain()
	var back *widgets.Backdrop
	guitest.Walk(f.Bar, func(o fyne.CanvasObject) {
		if b, ok := o.(*widgets.Backdrop); ok && back == nil {
			back = b
		}
	})
	if back == nil {
		t.Fatal("the find bar has no background")
	}
	rect, _ := test.WidgetRenderer(back).Objects()[0].(*canvas.Rectangle)
	if rect == nil || back.Size() != f.Bar.Size() || rect.Size() != f.Bar.Size() {
		t.Fatalf("the background is %v (its fill %v), the bar %v", back.Size(), rect, f.Bar.Size())
	}
	if got, want := rect.FillColor, theme.Color(theme.ColorNameBackground); got != want {
		t.Errorf("the background is %v, want the theme's %v", got, want)
	}
}
