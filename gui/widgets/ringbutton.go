package widgets

import (
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// RingButton is a dialog's button whose keyboard focus shows as a ring: a
// line in the text's colour around it. Fyne marks a focused button only
// by tinting it, fainter than the fill of the default button (Deny, in an
// approval): the first Tab landed on Deny, which already looked chosen,
// and a person who meant to move to Allow once pressed Space on Deny. The
// ring differs from any fill, in every theme.
//
// Keys go as Fyne's button has them (Space presses it), and Enter too, as
// on other desktops; any other key goes on to the window's handler, so
// that Escape still answers the dialog with its focus on a button.
type RingButton struct {
	widget.Button
	// OnFocus, if set, is told when the button gains (true) and loses
	// the keyboard's focus: a dialog moves its default's fill with it.
	OnFocus func(bool)
	// KeepFocus: pressed from the keyboard, it keeps the focus (Fyne's
	// button lets it go): a control that stays where it is, which the
	// person may press again (a tool card's Show all, then Show less).
	KeepFocus bool
	ringed    bool              // it has the keyboard's focus
	scroll    *container.Scroll // the scroll it is in, if any (scrolledIn)
}

// NewRingButtonWithIcon is NewRingButton with an icon before the label.
func NewRingButtonWithIcon(label string, icon fyne.Resource, tapped func()) *RingButton {
	b := NewRingButton(label, tapped)
	b.Icon = icon
	return b
}

func NewRingButton(label string, tapped func()) *RingButton {
	b := &RingButton{}
	b.Text, b.OnTapped = label, tapped
	b.ExtendBaseWidget(b)
	return b
}

// FocusGained rings the button, and scrolls it into view.
func (b *RingButton) FocusGained() {
	b.ringed = true
	b.Button.FocusGained()
	b.intoView()
	if b.OnFocus != nil {
		b.OnFocus(true)
	}
}

// intoView scrolls the button's scroll so that it shows whole: Tab onto a
// folded value's button below the fold would else ring what no one sees.
func (b *RingButton) intoView() { InView(b.scroll, b) }

// ScrolledIn tells the ring buttons in o (through its containers) that
// they are in s.
func ScrolledIn(s *container.Scroll, o fyne.CanvasObject) {
	switch x := o.(type) {
	case *RingButton:
		x.scroll = s
	case *fyne.Container:
		for _, c := range x.Objects {
			ScrolledIn(s, c)
		}
	}
}

// FocusLost takes the ring off.
func (b *RingButton) FocusLost() {
	b.ringed = false
	b.Button.FocusLost()
	if b.OnFocus != nil {
		b.OnFocus(false)
	}
}

// TypedKey presses the button on Space and Enter, and gives any other key
// to the window's handler (the dialog's: Escape).
func (b *RingButton) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeySpace, fyne.KeyReturn, fyne.KeyEnter:
		b.Tapped(&fyne.PointEvent{})
		if c := fyne.CurrentApp().Driver().CanvasForObject(b); b.KeepFocus && c != nil && b.Visible() {
			c.Focus(b)
		}
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(b); c != nil && c.OnTypedKey() != nil {
		c.OnTypedKey()(ev)
	}
}

func (b *RingButton) CreateRenderer() fyne.WidgetRenderer {
	return NewRing(b, b.Button.CreateRenderer(), func() bool { return b.ringed })
}

// NewRing wraps w's renderer inner with a ring drawn around w while shown
// says so: the focus mark of RingButton, and of any widget whose own mark
// does not show (the chat list's highlight is its selection's colour, on
// the row already selected).
func NewRing(w fyne.Widget, inner fyne.WidgetRenderer, shown func() bool) fyne.WidgetRenderer {
	ring := canvas.NewRectangle(color.Transparent)
	ring.Hide()
	// Inner's parts (a button's: background, label and icon; a list's:
	// its scroller); Objects takes them again if they change.
	objs := append(slices.Clone(inner.Objects()), ring)
	return &ringRenderer{WidgetRenderer: inner, w: w, shown: shown, ring: ring, objs: objs}
}

type ringRenderer struct {
	fyne.WidgetRenderer
	w     fyne.Widget
	shown func() bool
	ring  *canvas.Rectangle
	objs  []fyne.CanvasObject
}

func (r *ringRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.ring.Resize(size)
	r.ring.Move(fyne.NewPos(0, 0))
}

// Objects are inner's, then the ring, on top. Inner's parts can grow: a
// button made hidden makes its icon once shown (Fyne's updateIconAndText),
// which was laid out and never drawn.
func (r *ringRenderer) Objects() []fyne.CanvasObject {
	if inner := r.WidgetRenderer.Objects(); len(inner)+1 != len(r.objs) {
		r.objs = append(slices.Clone(inner), r.ring)
	}
	return r.objs
}

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	th := fyne.CurrentApp().Settings().Theme()
	if t, ok := r.w.(interface{ Theme() fyne.Theme }); ok {
		th = t.Theme()
	}
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.ring.StrokeColor = th.Color(theme.ColorNameForeground, v)
	r.ring.StrokeWidth = 2 * th.Size(theme.SizeNameInputBorder)
	r.ring.CornerRadius = th.Size(theme.SizeNameInputRadius)
	r.ring.Hidden = !r.shown()
	r.ring.Refresh()
}

// RingShown reports whether the ring is drawn: what a test of the focus
// looks at (through the renderer, as Fyne's test.WidgetRenderer gives it).
func (r *ringRenderer) RingShown() bool { return r.ring.Visible() }
