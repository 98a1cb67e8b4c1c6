package widgets

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Tooltips: a button shown as an icon alone (or a sign, ‹ ›) names itself
// when the pointer rests on it, and the name goes when the pointer
// leaves. Fyne (v2.8) has no tooltips. A pop-up cannot be one: it covers
// the whole window, takes the pointer from the button, and the button
// would hide it at once. So a Tips layer lies over the part of the window
// the buttons are in (the chat), drawing the name under the button (over
// it near the layer's bottom); the layer takes no events.

// TipDelay is how long the pointer rests on a button before its tip
// shows.
const TipDelay = 500 * time.Millisecond

// Tips is the layer the tips of TipButtons show on.
type Tips struct {
	widget.BaseWidget
	// Label is the tip on show (hidden when none is): its text is the
	// button's name.
	Label *widget.Label
	bg    *canvas.Rectangle
	box   *fyne.Container
	post  func(func())
	on    *TipButton // the button the pointer is on
	gen   int        // counts the pointer's comings, to drop a stale timer's show
}

// NewTips is a layer whose timers show a tip through post (which runs a
// function on Fyne's goroutine).
func NewTips(post func(func())) *Tips {
	t := &Tips{Label: widget.NewLabel(""), bg: canvas.NewRectangle(nil), post: post}
	t.bg.StrokeWidth = 1
	t.box = container.NewStack(t.bg, t.Label)
	t.box.Hide()
	t.ExtendBaseWidget(t)
	return t
}

func (t *Tips) CreateRenderer() fyne.WidgetRenderer { return &tipsRenderer{t} }

// tipsRenderer places the tip itself, and asks for no room: the layer
// lies over content whose size it must not change.
type tipsRenderer struct{ t *Tips }

func (r *tipsRenderer) Layout(fyne.Size)             {}
func (r *tipsRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *tipsRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.t.box} }

// Refresh draws the layer again: the window never drew the box while it
// was hidden, and would not know to draw it when it alone is refreshed.
func (r *tipsRenderer) Refresh() {
	r.t.bg.Refresh()
	r.t.box.Refresh()
	canvas.Refresh(r.t)
}
func (r *tipsRenderer) Destroy() {}

// ScreenChildren: the window's screen dump reads the tip shown.
func (t *Tips) ScreenChildren() []fyne.CanvasObject { return []fyne.CanvasObject{t.box} }

// Shown is the button whose tip shows, or nil.
func (t *Tips) Shown() *TipButton {
	if !t.box.Visible() {
		return nil
	}
	return t.on
}

// Dismiss hides the tip on show (the window lost the pointer, the list
// moved under it).
func (t *Tips) Dismiss() {
	t.gen++
	t.on = nil
	if t.box.Visible() {
		t.box.Hide()
		t.Refresh()
	}
}

// enter starts the wait for b's tip.
func (t *Tips) enter(b *TipButton) {
	if t.on == b {
		return
	}
	t.Dismiss()
	t.on = b
	gen := t.gen
	time.AfterFunc(TipDelay, func() {
		t.post(func() {
			if t.gen == gen && t.on == b {
				t.show(b)
			}
		})
	})
}

// leave hides b's tip, or stops its wait.
func (t *Tips) leave(b *TipButton) {
	if t.on == b {
		t.Dismiss()
	}
}

// show draws b's tip under it, within the layer: centred on the button,
// moved in from the layer's sides, over the button when there is no room
// below.
func (t *Tips) show(b *TipButton) {
	drv := fyne.CurrentApp().Driver()
	if !b.Visible() || drv.CanvasForObject(b) == nil || drv.CanvasForObject(t) == nil {
		return
	}
	SetText(t.Label, b.Tip)
	// The theme's colours now: the theme may have changed since.
	t.bg.FillColor = theme.Color(theme.ColorNameOverlayBackground)
	t.bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	t.bg.CornerRadius = theme.InputRadiusSize()
	at := drv.AbsolutePositionForObject(b).Subtract(drv.AbsolutePositionForObject(t))
	size, area, bs := t.box.MinSize(), t.Size(), b.Size()
	gap := theme.Padding()
	x := min(max(at.X+(bs.Width-size.Width)/2, 0), area.Width-size.Width)
	y := at.Y + bs.Height + gap
	if y+size.Height > area.Height {
		y = at.Y - size.Height - gap
	}
	t.box.Move(fyne.NewPos(max(x, 0), max(y, 0)))
	t.box.Resize(size)
	t.box.Show()
	t.Refresh()
}

// TipButton is a button that names itself (Tip) on a Tips layer while the
// pointer rests on it, when it does not show that name already.
type TipButton struct {
	widget.Button
	Tip  string
	tips *Tips
	// ring: its keyboard focus shows as RingButton's does (NewRing), not
	// by Fyne's faint tint alone; ringed: it has the focus.
	ring, ringed bool
	// OnFocus, if set, is told when the button gains (true) and loses the
	// keyboard's focus.
	OnFocus func(bool)
}

// NewRingTipButton is NewTipButton whose keyboard focus shows as a ring,
// as a RingButton's does: a control among RingButtons (a tool card's).
func NewRingTipButton(label string, icon fyne.Resource, tip string, tips *Tips, tapped func()) *TipButton {
	b := NewTipButton(label, icon, tip, tips, tapped)
	b.ring = true
	return b
}

func (b *TipButton) CreateRenderer() fyne.WidgetRenderer {
	if !b.ring {
		return b.Button.CreateRenderer()
	}
	return NewRing(b, b.Button.CreateRenderer(), func() bool { return b.ringed })
}

func (b *TipButton) FocusGained() {
	b.ringed = true
	b.Button.FocusGained()
	if b.OnFocus != nil {
		b.OnFocus(true)
	}
}

func (b *TipButton) FocusLost() {
	b.ringed = false
	b.Button.FocusLost()
	if b.OnFocus != nil {
		b.OnFocus(false)
	}
}

var _ desktop.Hoverable = (*TipButton)(nil)

// NewTipButton is a button of label and icon (either may be empty), named
// tip on tips.
func NewTipButton(label string, icon fyne.Resource, tip string, tips *Tips, tapped func()) *TipButton {
	b := &TipButton{Tip: tip, tips: tips}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// ScreenItem: the window's screen dump lists it as the button it is.
func (b *TipButton) ScreenItem() (kind, text string, leaf bool) { return "button", b.Text, true }

func (b *TipButton) MouseIn(e *desktop.MouseEvent) {
	b.Button.MouseIn(e)
	if b.Tip != "" && b.Tip != b.Text {
		b.tips.enter(b)
	}
}

// MouseMoved counts as the pointer coming: the window sends no MouseIn
// when the pointer comes back onto the object it last was on.
func (b *TipButton) MouseMoved(e *desktop.MouseEvent) {
	b.Button.MouseMoved(e)
	if b.Tip != "" && b.Tip != b.Text {
		b.tips.enter(b)
	}
}

func (b *TipButton) MouseOut() {
	b.Button.MouseOut()
	b.tips.leave(b)
}

// Tapped hides the tip: what the button does may move or hide it.
func (b *TipButton) Tapped(e *fyne.PointEvent) {
	b.tips.leave(b)
	b.Button.Tapped(e)
}
