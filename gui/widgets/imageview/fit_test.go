package imageview

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// A tiny image enlarged in a card is drawn with square pixels, as the
// large view draws it: a 4×4 checkerboard shown at 32×32 has only its two
// colours, no grey ramps at the edges (new-user pass 13 F2: a 20×20 image
// at 160 px was a blur in the card and sharp in the large view). An image
// reduced keeps the smooth scaling.
func TestFitImageEnlargedIsSharp(t *testing.T) {
	test.NewTempApp(t)
	board := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for y := range 4 {
		for x := range 4 {
			c := color.NRGBA{A: 255}
			if (x+y)%2 == 0 {
				c = color.NRGBA{R: 255, G: 255, B: 255, A: 255}
			}
			board.Set(x, y, c)
		}
	}
	fi := NewFit(200, 32, 8) // 4 px → 32: 8 times
	fi.SetSize(4, 4)
	fi.SetBitmap(board)
	w := test.NewWindow(container.NewWithoutLayout(fi))
	defer w.Close()
	w.Resize(fyne.NewSize(100, 100))
	fi.Move(fyne.NewPos(10, 10))
	fi.Resize(fyne.NewSize(60, 60))
	shot := w.Canvas().Capture()
	s := w.Canvas().Scale()
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(fi)
	x0, y0 := int(at.X*s), int(at.Y*s)
	greys := 0
	for y := y0; y < y0+int(32*s); y++ {
		for x := x0; x < x0+int(32*s); x++ {
			r, g, b, _ := shot.At(x, y).RGBA()
			if r != g || g != b || r>>8 != 0 && r>>8 != 255 {
				greys++
			}
		}
	}
	if greys > 0 {
		t.Errorf("the 4×4 board enlarged 8 times has %d pixels of neither colour (scale mode %v), want square pixels", greys, fi.Pic.ScaleMode)
	}

	big := NewFit(100, 32, 8)
	big.SetSize(400, 400)
	big.Resize(fyne.NewSize(400, 400))
	big.Refresh()
	if big.Pic.ScaleMode != canvas.ImageScaleSmooth {
		t.Errorf("a 400×400 image shown at 100 is drawn with scale mode %v, want smooth", big.Pic.ScaleMode)
	}
}
