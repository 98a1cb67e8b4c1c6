package imageview

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// maxEnlarge is the most a small image is enlarged in a View.
const maxEnlarge = 24

// Image is what a View shows.
type Image struct {
	Width, Height int    // its size in pixels
	Info          string // the line under it (its name, size, ...)
	// Decode decodes it to fit maxW×maxH pixels. It runs on a goroutine
	// of its own: a large image takes a moment.
	Decode func(maxW, maxH int) (image.Image, error)
	// Save is Save…'s action.
	Save func()
}

// View is an image shown large over a window: as large as the window
// allows (a small image enlarged up to maxEnlarge times, its pixels kept
// sharp), with Save… and Close; Escape closes it. It is decoded again for
// the size shown, off the UI goroutine. It belongs to the UI goroutine.
type View struct {
	c      fyne.Canvas
	pop    *widget.PopUp
	pic    *canvas.Image
	keys   func(*fyne.KeyEvent) // the window's key handler, back when it closes
	closed bool
	// OnClosed, if set, runs once it has closed, however it closed.
	OnClosed func()
}

// Show shows img over c. post runs a function on the UI goroutine;
// failed, if the image cannot be decoded, is told why once the view has
// closed.
func Show(c fyne.Canvas, img Image, post func(func()), failed func(error)) *View {
	room := c.Size().SubtractWidthHeight(80, 160)
	s := min(room.Width/float32(img.Width), room.Height/float32(img.Height), maxEnlarge)
	size := fyne.NewSize(float32(img.Width)*s, float32(img.Height)*s)
	v := &View{c: c, pic: canvas.NewImageFromImage(nil), keys: c.OnTypedKey()}
	v.pic.FillMode = canvas.ImageFillContain
	v.pic.ScaleMode = canvas.ImageScaleSmooth
	if s >= 2 {
		v.pic.ScaleMode = canvas.ImageScalePixels // a small image enlarged: crisp, not blurred
	}
	v.pic.SetMinSize(size)
	// The name, size and bytes on a line of their own, wrapped, over the
	// buttons: beside them, a small image's view cut them to "get-t…".
	info := widget.NewLabel(img.Info)
	info.Wrapping = fyne.TextWrapWord
	save := widget.NewButtonWithIcon("Save…", theme.DocumentSaveIcon(), img.Save)
	closeB := widget.NewButtonWithIcon("Close", theme.CancelIcon(), v.Close)
	bar := container.NewVBox(info, container.NewHBox(layout.NewSpacer(), save, closeB))
	v.pop = widget.NewModalPopUp(container.NewBorder(nil, bar, nil, nil, container.NewCenter(v.pic)), c)
	c.Unfocus()
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			v.Close()
		}
	})
	v.pop.Show()

	px := func(f float32) int { return max(1, int(f*c.Scale()+0.5)) }
	go func() {
		bm, err := img.Decode(px(size.Width), px(size.Height))
		post(func() {
			if v.closed {
				return // closed, or another shown
			}
			if err != nil {
				v.Close()
				failed(err)
				return
			}
			v.pic.Image = bm
			v.pic.Refresh()
		})
	}()
	return v
}

// Close closes the view, and gives the window its keys back.
func (v *View) Close() {
	if v.closed {
		return
	}
	v.closed = true
	v.pop.Hide()
	v.c.SetOnTypedKey(v.keys)
	if v.OnClosed != nil {
		v.OnClosed()
	}
}
