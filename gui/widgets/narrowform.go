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
//
// A field fits beside its label when it is as wide as its placeholder:
// a field's least width is a few letters, and the server form's URL,
// Alias and Token fields stayed beside their labels at 640×480 and 125%
// with "https://mcp.example.com/mc", "derived from the URL or com" shown
// (the Command kind stacked, and fitted, only because of its check box).
func NarrowForm(f *widget.Form, relayout func()) fyne.CanvasObject {
	return container.New(&narrowForm{f: f, relayout: relayout}, f)
}

type narrowForm struct {
	f        *widget.Form
	relayout func()
}

// widths are what f needs beside (labels, then fields each as wide as its
// placeholder) and above (the least width of each: a placeholder longer
// than the pane is cut rather than the pane scrolled sideways).
func (n *narrowForm) widths() (beside, above float32) {
	var label, field, placeHeld float32
	for _, it := range n.f.Items {
		l := widget.NewLabelWithStyle(it.Text, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
		label = max(label, l.MinSize().Width)
		if it.Widget != nil {
			w := it.Widget.MinSize().Width
			field = max(field, w)
			placeHeld = max(placeHeld, w+placeHeldExtra(it.Widget))
		}
	}
	return label + placeHeld + theme.Padding(), max(label, field)
}

// placeHeldExtra is how much wider o must be for the placeholder of each
// field in it to show whole (the widest lack; a field grows its holder by
// as much in the VBox, Stack and Border holding fields here).
func placeHeldExtra(o fyne.CanvasObject) float32 {
	var extra float32
	walkShown(o, func(o fyne.CanvasObject) {
		var e *widget.Entry
		switch x := o.(type) {
		case *widget.Entry:
			e = x
		case interface{ entry() *widget.Entry }:
			e = x.entry()
		default:
			return
		}
		// A text box's placeholder goes on more lines (Settings'
		// Instructions: a sentence, which stacked them at 900 px).
		if e.PlaceHolder == "" || e.Disabled() || e.MultiLine {
			return
		}
		text := fyne.MeasureText(e.PlaceHolder, theme.TextSize(), e.TextStyle).Width
		want := text + 3*theme.InnerPadding() + 2*theme.InputBorderSize()
		extra = max(extra, want-e.MinSize().Width)
	})
	return extra
}

// walkShown visits the visible objects of the containers under o (not
// inside widgets: an entry is found, not what draws it).
func walkShown(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	f(o)
	if c, ok := o.(*fyne.Container); ok {
		for _, x := range c.Objects {
			walkShown(x, f)
		}
	}
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
