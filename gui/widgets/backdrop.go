package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Backdrop fills its place with the theme's background colour, the
// theme's of the moment: a plain rectangle keeps the colour it was made
// with.
type Backdrop struct {
	widget.BaseWidget
	rect *canvas.Rectangle
}

// NewBackdrop fills its place with the theme's background.
func NewBackdrop() *Backdrop {
	b := &Backdrop{rect: canvas.NewRectangle(theme.Color(theme.ColorNameBackground))}
	b.ExtendBaseWidget(b)
	return b
}

func (b *Backdrop) CreateRenderer() fyne.WidgetRenderer { return &backdropRenderer{b: b} }

type backdropRenderer struct{ b *Backdrop }

func (r *backdropRenderer) Layout(s fyne.Size)           { r.b.rect.Resize(s) }
func (r *backdropRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *backdropRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.b.rect} }
func (r *backdropRenderer) Destroy()                     {}
func (r *backdropRenderer) Refresh() {
	r.b.rect.FillColor = theme.Color(theme.ColorNameBackground)
	r.b.rect.Refresh()
}
