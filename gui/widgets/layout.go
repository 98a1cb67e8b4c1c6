package widgets

import "fyne.io/fyne/v2"

// Relayout lays out a tree of containers again at their current sizes:
// what changed inside may have changed their children's sizes, which
// Resize (a no-op at the same size) would not notice.
func Relayout(o fyne.CanvasObject) {
	c, ok := o.(*fyne.Container)
	if !ok || c.Hidden {
		return
	}
	if c.Layout != nil {
		c.Layout.Layout(c.Objects, c.Size())
	}
	for _, child := range c.Objects {
		Relayout(child)
	}
}

// Inset lays its objects out indented by Left and Right.
type Inset struct{ Left, Right float32 }

func (l Inset) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(l.Left, 0))
		o.Resize(fyne.NewSize(max(size.Width-l.Left-l.Right, 0), size.Height))
	}
}

func (l Inset) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s.AddWidthHeight(l.Left+l.Right, 0)
}
