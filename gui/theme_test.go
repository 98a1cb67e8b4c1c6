package gui

import (
	"testing"

	"deckhand/gui/widgets"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A caption's text takes the placeholder colour, also after it changes,
// without a theme override (whose fonts Fyne would load and keep once per
// caption).
func TestCaptionColour(t *testing.T) {
	test.NewTempApp(t)
	l, obj := widgets.Caption("first")
	test.NewTempWindow(t, obj)
	colour := func() string {
		var got string
		for _, o := range test.WidgetRenderer(obj.(*widgets.DimLabel)).Objects() {
			if rt, ok := o.(*widget.RichText); ok {
				got = string(rt.Segments[0].(*widget.TextSegment).Style.ColorName)
			}
		}
		return got
	}
	if c := colour(); c != string(theme.ColorNamePlaceHolder) {
		t.Errorf("colour %q", c)
	}
	l.SetText("second")
	if c := colour(); c != string(theme.ColorNamePlaceHolder) {
		t.Errorf("colour after widgets.SetText %q", c)
	}
	if _, ok := obj.(*widgets.DimLabel); !ok {
		t.Errorf("caption is a %T", obj)
	}
}
