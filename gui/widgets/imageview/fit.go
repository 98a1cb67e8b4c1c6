package imageview

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Fit shows an image scaled to fit its width and at most maxHeight
// high, its aspect kept; a small one is enlarged to minSide (at most
// maxEnlarge times). Its height follows its width, like wrapped text. Its
// size is set apart from its bitmap (SetSize, from the image's header), so
// laying it out needs no decoding; a placeholder shows until the bitmap
// comes. A click on it runs OnTap.
type Fit struct {
	widget.BaseWidget
	w, h                           float32
	maxHeight, minSide, maxEnlarge float32
	Pic                            *canvas.Image
	bg                             *canvas.Rectangle
	OnTap                          func()
}

var (
	_ fyne.Tappable      = (*Fit)(nil)
	_ desktop.Cursorable = (*Fit)(nil)
)

func (c *Fit) Tapped(*fyne.PointEvent) {
	if c.OnTap != nil {
		c.OnTap()
	}
}

func (c *Fit) Cursor() desktop.Cursor { return desktop.PointerCursor }

// NewFit shows an image at most maxHeight high, enlarging a small one
// to minSide, at most maxEnlarge times.
func NewFit(maxHeight, minSide, maxEnlarge float32) *Fit {
	c := &Fit{maxHeight: maxHeight, minSide: minSide, maxEnlarge: maxEnlarge, Pic: canvas.NewImageFromImage(nil), bg: canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))}
	c.Pic.FillMode = canvas.ImageFillContain
	c.Pic.ScaleMode = canvas.ImageScaleSmooth
	c.ExtendBaseWidget(c)
	return c
}

// ScreenItem: the image on the screen dump, decoded or not yet.
func (c *Fit) ScreenItem() (kind, text string, leaf bool) {
	if c.Pic.Image != nil {
		return "image", "bitmap", true
	}
	return "image", "empty", true
}

// SetSize sets the image's size in pixels.
func (c *Fit) SetSize(w, h int) {
	if c.w != float32(w) || c.h != float32(h) {
		c.w, c.h = float32(w), float32(h)
		c.Refresh()
	}
}

// SetBitmap shows img (nil: the placeholder).
func (c *Fit) SetBitmap(img image.Image) {
	if c.Pic.Image != img {
		c.Pic.Image = img
		c.Pic.Refresh()
	}
	// A placeholder while it decodes.
	switch {
	case img == nil && !c.bg.Visible():
		c.bg.Show()
	case img != nil && c.bg.Visible():
		c.bg.Hide()
	}
}

// fit is the image's size in a width (0: any).
func (c *Fit) fit(width float32) fyne.Size {
	if c.w <= 0 || c.h <= 0 {
		return fyne.Size{}
	}
	s := float32(1)
	if side := max(c.w, c.h); side < c.minSide {
		s = min(c.minSide/side, c.maxEnlarge)
	}
	if width > 0 && c.w*s > width {
		s = width / c.w
	}
	if c.h*s > c.maxHeight {
		s = c.maxHeight / c.h
	}
	return fyne.NewSize(c.w*s, c.h*s)
}

func (c *Fit) CreateRenderer() fyne.WidgetRenderer {
	return &fitRenderer{c: c, objs: []fyne.CanvasObject{c.bg, c.Pic}}
}

type fitRenderer struct {
	c    *Fit
	objs []fyne.CanvasObject
}

func (r *fitRenderer) Layout(size fyne.Size) {
	f := r.c.fit(size.Width)
	// A small image enlarged 2 times or more is drawn with square pixels,
	// as View draws it: smoothed, a 20×20 icon at 160 px was a blur.
	// One reduced, or barely enlarged, keeps the smooth scaling.
	mode := canvas.ImageScaleSmooth
	if r.c.w > 0 && f.Width >= 2*r.c.w {
		mode = canvas.ImageScalePixels
	}
	if r.c.Pic.ScaleMode != mode {
		r.c.Pic.ScaleMode = mode
		r.c.Pic.Refresh()
	}
	for _, o := range r.objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(f)
	}
}

func (r *fitRenderer) MinSize() fyne.Size {
	f := r.c.fit(r.c.Size().Width)
	return fyne.NewSize(min(f.Width, 32), f.Height)
}

func (r *fitRenderer) Refresh() {
	r.Layout(r.c.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}

func (r *fitRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *fitRenderer) Destroy()                     {}
