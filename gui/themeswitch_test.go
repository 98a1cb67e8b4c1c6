package gui

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestPickerArrowAfterThemeChange: the theme chosen in the settings (a
// panel in the chat's place) reaches the chat's widgets as Fyne draws
// them: the model picker's ▾ arrow, drawn in the dark theme's light grey,
// stayed so on the light theme's white, unseen until a restart.
func TestPickerArrowAfterThemeChange(t *testing.T) {
	for _, tt := range []struct{ name, from, to string }{
		{"dark to light", "Dark", "Light"},
		{"light to dark", "Light", "Dark"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, harnessOptions{})
			h.until("a new conversation", func() bool { return h.ui.conv != "" })
			h.drain()
			for _, choice := range []string{tt.from, tt.to} {
				f := h.openSettings()
				f.Theme.SetSelected(choice)
				h.saveSettings(f)
				h.drain()
			}
			if h.ui.panel != nil {
				t.Fatal("saving left the settings open")
			}
			picker := h.ui.comp.Picker
			// Laid out, as a real window is before it draws.
			h.ui.win.Content().Refresh()
			img := h.ui.win.Canvas().Capture()
			n := arrowPixels(img, picker)
			at := fyne.CurrentApp().Driver().AbsolutePositionForObject(picker)
			// A picker made now, in a window of its own, is drawn as Fyne
			// draws the theme of the moment: the measure of "seen".
			fresh := widget.NewSelect([]string{"scripted"}, nil)
			fresh.SetSelected("scripted")
			w := h.app.NewWindow("fresh")
			defer w.Close()
			w.SetContent(container.NewWithoutLayout(fresh))
			w.Resize(fyne.NewSize(400, 100))
			fresh.Resize(picker.Size())
			fresh.Move(fyne.NewPos(10, 10))
			want := arrowPixels(w.Canvas().Capture(), fresh)
			if n < want/2 {
				t.Errorf("after %s, the picker's arrow shows %d pixels of contrast, want about %d as a new picker's (the picker at %v, %v, visible %v, focused %T)", tt.name, n, want,
					at, picker.Size(), picker.Visible(), h.ui.win.Canvas().Focused())
			}
		})
	}
}

// arrowPixels counts the pixels at the picker's right end (its arrow) that
// stand out from its background: a luminance difference of at least 0.25.
func arrowPixels(img image.Image, picker *widget.Select) int {
	d := fyne.CurrentApp().Driver()
	at := d.AbsolutePositionForObject(picker)
	size := picker.Size()
	scale := float32(img.Bounds().Dx()) / d.CanvasForObject(picker).Size().Width
	th := picker.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	bg := lum(th.Color(theme.ColorNameInputBackground, v))
	icon := th.Size(theme.SizeNameInlineIcon) + 2*th.Size(theme.SizeNameInnerPadding)
	x0, x1 := int((at.X+size.Width-icon)*scale), int((at.X+size.Width)*scale)
	y0, y1 := int(at.Y*scale), int((at.Y+size.Height)*scale)
	n := 0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			if d := lum(img.At(x, y)) - bg; d > 0.25 || d < -0.25 {
				n++
			}
		}
	}
	return n
}

func lum(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}
