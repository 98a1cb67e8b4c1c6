package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// NarrowForm holds f with its labels beside its fields where the width
// allows, and above them where it does not (a 640-pixel window with the
// text at 128%: the server form's labels and its "Confined by the kernel"
// check needed 541 px in a pane of 426, and the pane scrolled sideways
// under the sidebar). It asks for no more width than the narrower of the
// two. relayout lays out again what holds it, once the form's height
// changed with its labels' place.
func NarrowForm(f *widget.Form, relayout func()) fyne.CanvasObject {
	return container.New(&narrowForm{f: f, relayout: relayout}, f)
}

type narrowForm struct {
	f        *widget.Form
	relayout func()
}

// widths are what f needs beside (labels, then fields) and above.
func (n *narrowForm) widths() (beside, above float32) {
	var label, field float32
	for _, it := range n.f.Items {
		l := widget.NewLabelWithStyle(it.Text, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
		label = max(label, l.MinSize().Width)
		if it.Widget != nil {
			field = max(field, it.Widget.MinSize().Width)
		}
	}
	return label + field + theme.Padding(), max(label, field)
}

func (n *narrowForm) MinSize([]fyne.CanvasObject) fyne.Size {
	_, above := n.widths()
	return fyne.NewSize(above, n.f.MinSize().Height)
}

func (n *narrowForm) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	beside, _ := n.widths()
	want := widget.Horizontal
	if beside > size.Width {
		want = widget.Vertical
	}
	if n.f.Orientation != want {
		n.f.Orientation = want
		n.f.Refresh()
		defer n.relayout()
	}
	n.f.Resize(fyne.NewSize(size.Width, n.f.MinSize().Height))
	n.f.Move(fyne.Position{})
}
