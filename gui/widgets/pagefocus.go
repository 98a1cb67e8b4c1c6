package widgets

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// The fields of a page that scrolls (the settings' tabs): Tab onto one
// brings it into view. Fyne's Scroll does not follow the keyboard's
// focus, and Fyne tells no one but the widget that it has the focus: at
// 640x480 the tenth Tab of the settings went below the fold, and sixty
// Tabs later nothing had come into view. So each kind of field the pages
// hold is Fyne's, with a FocusGained that scrolls its page to it. (A
// RadioGroup's choices are its own widgets, out of reach: a field may
// bring its neighbours into view with it, see InPage.) Each also gives
// Escape to the window's handler (the page's Close), which Fyne's kept:
// Escape with a field of the settings focused left them open. A list a
// select opened has the keyboard while it shows, and takes Escape first.

// pageFocus is what a field knows of its page.
type pageFocus struct {
	page     func() *container.Scroll
	also     []fyne.CanvasObject
	shortcut func(fyne.Shortcut) bool
	hovered  bool // the pointer is over the field
	outer    fyne.CanvasObject
}

// Outer names the widget that embeds the field (and is what the page
// holds): the one brought into view, not the field inside it.
func (p *pageFocus) Outer(o fyne.CanvasObject) { p.outer = o }

// InPage makes the field's focus scroll page (made later: a func) so
// that it shows, with also (its neighbours out of Tab's reach) if they
// fit.
func (p *pageFocus) InPage(page func() *container.Scroll, also ...fyne.CanvasObject) {
	p.page, p.also = page, also
}

// PageShortcuts gives the page's own shortcuts (switching the tab) the
// first go at a shortcut typed in a field that would else keep it (an
// entry keeps every shortcut it is given).
func (p *pageFocus) PageShortcuts(f func(fyne.Shortcut) bool) { p.shortcut = f }

func (p *pageFocus) reveal(o fyne.CanvasObject) {
	if p.page == nil {
		return
	}
	if p.outer != nil {
		o = p.outer
	}
	s := p.page()
	if s == nil {
		return
	}
	// A field under the pointer stays where it is: a press focuses it too
	// (a slider, as its drag starts), and the page moved under the
	// pointer, the drag missing its thumb. One in view stays too,
	// neighbours or not.
	if p.hovered || shown(s, o) {
		return
	}
	for _, a := range p.also {
		InView(s, a)
	}
	InView(s, o)
}

// shown reports whether o shows whole in s's view.
func shown(s *container.Scroll, o fyne.CanvasObject) bool {
	d := fyne.CurrentApp().Driver()
	if s.Content == nil || d.CanvasForObject(o) == nil {
		return true
	}
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s.Content).Y
	return top >= s.Offset.Y && top+o.Size().Height <= s.Offset.Y+s.Size().Height
}

// InView scrolls s, as little as it takes, so that o (in s's content)
// shows whole: its top, if it is taller than s.
func InView(s *container.Scroll, o fyne.CanvasObject) {
	if s == nil || s.Content == nil || s.Size().Height <= 0 || !o.Visible() {
		return
	}
	d := fyne.CurrentApp().Driver()
	if d.CanvasForObject(o) == nil {
		return
	}
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s.Content).Y
	bottom := top + o.Size().Height
	y := s.Offset.Y
	switch {
	case top < y:
		y = top
	case bottom > y+s.Size().Height:
		y = min(top, bottom-s.Size().Height)
	default:
		return
	}
	s.ScrollToOffset(fyne.NewPos(s.Offset.X, max(0, min(y, s.Content.Size().Height-s.Size().Height))))
}

// PageEntry is an entry that scrolls its page to it when focused.
type PageEntry struct {
	widget.Entry
	pageFocus
}

// NewPageEntry is widget.NewEntry's; multi and password make it
// NewMultiLineEntry's and NewPasswordEntry's.
func NewPageEntry(multi, password bool) *PageEntry {
	e := &PageEntry{}
	e.MultiLine, e.Password = multi, password
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.ExtendBaseWidget(e)
	return e
}

func (e *PageEntry) FocusGained() { e.Entry.FocusGained(); e.reveal(e) }

// TypedKey gives Escape to the window (see the page's fields above).
func (e *PageEntry) TypedKey(k *fyne.KeyEvent) {
	if !EscapeToWindow(e, k) {
		e.Entry.TypedKey(k)
	}
}

// AcceptsTab is false, a multi-line one's too: Tab and Shift+Tab go on to
// the page's next and previous fields, as in a form of any other
// program. Fyne's multi-line entry takes Tab as a character, and the
// fields after it could then be reached only by going round the whole
// window backwards (the Instructions box in Settings, the Environment box
// in the server form).
func (e *PageEntry) AcceptsTab() bool { return false }

// entry is the field itself, for NarrowForm (which measures its
// placeholder).
func (e *PageEntry) entry() *widget.Entry { return &e.Entry }

// EntryWidget is the entry, for the window's screen dump.
func (e *PageEntry) EntryWidget() *widget.Entry { return &e.Entry }

func (e *PageEntry) TypedShortcut(s fyne.Shortcut) {
	if e.shortcut != nil && e.shortcut(s) {
		return
	}
	e.Entry.TypedShortcut(s)
}

// PageSelectEntry is a select entry that scrolls its page to it when
// focused.
type PageSelectEntry struct {
	widget.SelectEntry
	pageFocus
}

func NewPageSelectEntry(options []string) *PageSelectEntry {
	e := &PageSelectEntry{}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.SetOptions(options)
	// Its arrow, Fyne's button, kept Escape while focused: a ring button
	// that does what it did, and hands Escape to the window.
	if arrow, ok := e.ActionItem.(*widget.Button); ok {
		ring := NewRingButtonWithIcon("", arrow.Icon, arrow.OnTapped)
		ring.Importance = arrow.Importance
		e.ActionItem = ring
	}
	return e
}

func (e *PageSelectEntry) FocusGained() { e.SelectEntry.FocusGained(); e.reveal(e) }

// TypedKey gives Escape to the window; with its list open, the list has
// the keyboard and Escape closes it alone.
func (e *PageSelectEntry) TypedKey(k *fyne.KeyEvent) {
	if !EscapeToWindow(e, k) {
		e.SelectEntry.TypedKey(k)
	}
}

// EntryWidget is the entry, for the window's screen dump.
func (e *PageSelectEntry) EntryWidget() *widget.Entry { return &e.Entry }

func (e *PageSelectEntry) TypedShortcut(s fyne.Shortcut) {
	if e.shortcut != nil && e.shortcut(s) {
		return
	}
	e.SelectEntry.TypedShortcut(s)
}

// PageSelect is a select that scrolls its page to it when focused.
type PageSelect struct {
	widget.Select
	pageFocus
}

func NewPageSelect(options []string, changed func(string)) *PageSelect {
	s := &PageSelect{}
	s.Options, s.OnChanged, s.PlaceHolder = options, changed, "(Select one)"
	s.ExtendBaseWidget(s)
	return s
}

func (s *PageSelect) FocusGained() { s.Select.FocusGained(); s.reveal(s) }

// TypedKey gives Escape to the window; with its list open, the list has
// the keyboard and Escape closes it alone.
func (s *PageSelect) TypedKey(k *fyne.KeyEvent) {
	if !EscapeToWindow(s, k) {
		s.Select.TypedKey(k)
	}
}

// PageCheck is a check box that scrolls its page to it when focused.
type PageCheck struct {
	widget.Check
	pageFocus
}

func NewPageCheck(label string, changed func(bool)) *PageCheck {
	c := &PageCheck{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

func (c *PageCheck) FocusGained() { c.Check.FocusGained(); c.reveal(c) }

// TypedKey gives Escape to the window.
func (c *PageCheck) TypedKey(k *fyne.KeyEvent) {
	if !EscapeToWindow(c, k) {
		c.Check.TypedKey(k)
	}
}

// PageSlider is a slider that scrolls its page to it when focused, and
// that the arrow keys move: Left and Down less, Right and Up more, by
// Step, or by KeyStep where Step is 0 (a slider whose thumb follows the
// pointer: Fyne's moved by 0, and took no Up and Down), each press a
// change ended (Fyne's SetValue calls OnChangeEnded once: it was called
// a second time here, and the text size laid the page out twice a key).
type PageSlider struct {
	widget.Slider
	pageFocus
	KeyStep float64
}

func NewPageSlider(lo, hi float64) *PageSlider {
	s := &PageSlider{}
	s.Min, s.Max, s.Value, s.Step = lo, hi, lo, 1
	s.Orientation = widget.Horizontal
	s.ExtendBaseWidget(s)
	return s
}

func (s *PageSlider) FocusGained() { s.Slider.FocusGained(); s.reveal(s) }

func (s *PageSlider) TypedKey(k *fyne.KeyEvent) {
	if EscapeToWindow(s, k) {
		return
	}
	step := s.Step
	if step == 0 {
		step = s.KeyStep
	}
	var by float64
	switch k.Name {
	case fyne.KeyLeft, fyne.KeyDown:
		by = -step
	case fyne.KeyRight, fyne.KeyUp:
		by = step
	}
	if s.Disabled() || by == 0 {
		s.Slider.TypedKey(k)
		return
	}
	// From where the thumb is to the next step's mark: a value dragged to
	// 127 goes to 130 and 125, not 132 and 122.
	v := s.Value + by
	if by > 0 {
		v = math.Floor(math.Round(v/step*1e6)/1e6) * step
	} else {
		v = math.Ceil(math.Round(v/step*1e6)/1e6) * step
	}
	v = max(s.Min, min(s.Max, v))
	if v == s.Value {
		return
	}
	s.SetValue(v)
}

// The fields that Fyne tells when the pointer is over them know it (see
// reveal): the pointer focuses a check box, a select or a slider as it is
// pressed, an entry as it is clicked.

func (x *PageSelect) MouseIn(e *desktop.MouseEvent) { x.hovered = true; x.Select.MouseIn(e) }
func (x *PageSelect) MouseOut()                     { x.hovered = false; x.Select.MouseOut() }

func (x *PageCheck) MouseIn(e *desktop.MouseEvent) { x.hovered = true; x.Check.MouseIn(e) }
func (x *PageCheck) MouseOut()                     { x.hovered = false; x.Check.MouseOut() }

func (x *PageSlider) MouseIn(e *desktop.MouseEvent) { x.hovered = true; x.Slider.MouseIn(e) }
func (x *PageSlider) MouseOut()                     { x.hovered = false; x.Slider.MouseOut() }

// TabKey is a shortcut that switches a page's tabs.
type TabKey struct {
	Key     *desktop.CustomShortcut
	Forward bool // to the next tab, else the one before
}

// TabKeys are the shortcuts that switch a page's tabs, as in browsers and
// GNOME: Ctrl+Tab and Ctrl+Page Down the next, Ctrl+Shift+Tab and
// Ctrl+Page Up the one before.
func TabKeys() []TabKey {
	return []TabKey{
		{&desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl}, true},
		{&desktop.CustomShortcut{KeyName: fyne.KeyPageDown, Modifier: fyne.KeyModifierControl}, true},
		{&desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift}, false},
		{&desktop.CustomShortcut{KeyName: fyne.KeyPageUp, Modifier: fyne.KeyModifierControl}, false},
	}
}
