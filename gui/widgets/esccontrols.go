package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Controls of a form that, focused, hand Escape to the window's handler
// (a form's Cancel): Fyne's radio options, selects and checks keep every
// key they are given while focused, so Escape on one of them left a form
// open. (Fields: Entry; buttons: RingButton.)

// EscapeToWindow gives Escape to the handler of o's window, and reports
// whether it did.
func EscapeToWindow(o fyne.CanvasObject, k *fyne.KeyEvent) bool {
	if k.Name != fyne.KeyEscape {
		return false
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(o); c != nil && c.OnTypedKey() != nil {
		c.OnTypedKey()(k)
	}
	return true
}

// EscSelect is a select that hands Escape to the window (and, given its
// page, InPage, scrolls it into view when focused).
type EscSelect struct{ PageSelect }

func NewEscSelect(options []string) *EscSelect {
	s := &EscSelect{}
	s.Options = options
	s.ExtendBaseWidget(s)
	s.Outer(s)
	return s
}

func (s *EscSelect) TypedKey(k *fyne.KeyEvent) {
	if !EscapeToWindow(s, k) {
		s.Select.TypedKey(k)
	}
}

// ScreenItem: the window's screen dump lists it as the select it is.
func (s *EscSelect) ScreenItem() (kind, text string, leaf bool) { return "select", s.Selected, true }

// EscCheck is a check box that hands Escape to the window (and, given its
// page, InPage, scrolls it into view when focused).
type EscCheck struct{ PageCheck }

func NewEscCheck(label string) *EscCheck {
	c := &EscCheck{}
	c.Text = label
	c.ExtendBaseWidget(c)
	c.Outer(c)
	return c
}

func (c *EscCheck) TypedKey(k *fyne.KeyEvent) {
	if !EscapeToWindow(c, k) {
		c.Check.TypedKey(k)
	}
}

func (c *EscCheck) ScreenItem() (kind, text string, leaf bool) { return "check", c.Text, true }

// EscRadio is a choice of one of its options, drawn as Fyne's RadioGroup
// (an option's circle filled when chosen, ringed in the focus colour
// while it has the keyboard), side by side. Tab stops on each option,
// Space chooses it; given its page (InPage), an option focused scrolls
// the radio into view.
type EscRadio struct {
	widget.BaseWidget
	pageFocus
	Options  []string
	Selected string
	// OnChanged is told the option chosen, when it changes.
	OnChanged func(string)
	choices   []*radioOption
}

func NewEscRadio(options []string) *EscRadio {
	r := &EscRadio{Options: options}
	for _, o := range options {
		r.choices = append(r.choices, newRadioOption(r, o))
	}
	r.ExtendBaseWidget(r)
	return r
}

func (r *EscRadio) CreateRenderer() fyne.WidgetRenderer {
	objs := make([]fyne.CanvasObject, len(r.choices))
	for i, c := range r.choices {
		objs[i] = c
	}
	return widget.NewSimpleRenderer(&fyne.Container{Layout: rowLayout{}, Objects: objs})
}

// SetSelected chooses option.
func (r *EscRadio) SetSelected(option string) {
	if option == r.Selected {
		return
	}
	r.Selected = option
	for _, c := range r.choices {
		c.Refresh()
	}
	if r.OnChanged != nil {
		r.OnChanged(option)
	}
}

// ScreenItem: the screen dump lists the radio as Fyne's, by its choice.
func (r *EscRadio) ScreenItem() (kind, text string, leaf bool) { return "radio", r.Selected, true }

// rowLayout puts objects side by side at their least width.
type rowLayout struct{}

func (rowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for _, o := range objs {
		m := o.MinSize()
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(m.Width, size.Height))
		x += m.Width
	}
}

func (rowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		m := o.MinSize()
		s.Width += m.Width
		s.Height = max(s.Height, m.Height)
	}
	return s
}

// radioOption is one option of an EscRadio.
type radioOption struct {
	widget.BaseWidget
	r                *EscRadio
	option           string
	focused, hovered bool
}

var (
	_ fyne.Focusable    = (*radioOption)(nil)
	_ fyne.Tappable     = (*radioOption)(nil)
	_ desktop.Hoverable = (*radioOption)(nil)
)

func newRadioOption(r *EscRadio, option string) *radioOption {
	o := &radioOption{r: r, option: option}
	o.ExtendBaseWidget(o)
	return o
}

func (o *radioOption) Tapped(*fyne.PointEvent) {
	o.r.SetSelected(o.option)
	if c := fyne.CurrentApp().Driver().CanvasForObject(o); c != nil {
		c.Focus(o)
	}
}

func (o *radioOption) FocusGained() {
	o.focused = true
	o.Refresh()
	o.r.hovered = o.hovered
	o.r.reveal(o.r)
}

func (o *radioOption) FocusLost()     { o.focused = false; o.Refresh() }
func (o *radioOption) TypedRune(rune) {}

// TypedKey chooses the option on Space; Escape goes to the window.
func (o *radioOption) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeySpace {
		o.r.SetSelected(o.option)
		return
	}
	EscapeToWindow(o, k)
}

func (o *radioOption) MouseIn(*desktop.MouseEvent)    { o.hovered = true; o.Refresh() }
func (o *radioOption) MouseMoved(*desktop.MouseEvent) {}
func (o *radioOption) MouseOut()                      { o.hovered = false; o.Refresh() }

func (o *radioOption) CreateRenderer() fyne.WidgetRenderer {
	ro := &radioRenderer{o: o, mark: canvas.NewCircle(color.Transparent), icon: canvas.NewImageFromResource(nil), label: widget.NewLabel(o.option)}
	ro.icon.FillMode = canvas.ImageFillContain
	ro.Refresh()
	return ro
}

type radioRenderer struct {
	o     *radioOption
	mark  *canvas.Circle // focus and hover
	icon  *canvas.Image
	label *widget.Label
}

func (r *radioRenderer) Layout(size fyne.Size) {
	pad, is := theme.InnerPadding(), theme.IconInlineSize()
	y := (size.Height - is) / 2
	r.icon.Move(fyne.NewPos(pad, y))
	r.icon.Resize(fyne.NewSquareSize(is))
	r.mark.Move(fyne.NewPos(pad/2, y-pad/2))
	r.mark.Resize(fyne.NewSquareSize(is + pad))
	r.label.Move(fyne.NewPos(pad+is, 0))
	r.label.Resize(fyne.NewSize(size.Width-pad-is, size.Height))
}

func (r *radioRenderer) MinSize() fyne.Size {
	pad, is := theme.InnerPadding(), theme.IconInlineSize()
	l := r.label.MinSize()
	return fyne.NewSize(pad+is+l.Width, max(l.Height, is+2*pad))
}

func (r *radioRenderer) Refresh() {
	if r.o.r.Selected == r.o.option {
		r.icon.Resource = theme.NewPrimaryThemedResource(theme.RadioButtonCheckedIcon())
	} else {
		r.icon.Resource = theme.NewThemedResource(theme.RadioButtonIcon())
	}
	switch {
	case r.o.focused:
		r.mark.FillColor = theme.Color(theme.ColorNameFocus)
	case r.o.hovered:
		r.mark.FillColor = theme.Color(theme.ColorNameHover)
	default:
		r.mark.FillColor = color.Transparent
	}
	r.icon.Refresh()
	r.mark.Refresh()
	r.label.Refresh()
}

func (r *radioRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.mark, r.icon, r.label}
}
func (r *radioRenderer) Destroy() {}
