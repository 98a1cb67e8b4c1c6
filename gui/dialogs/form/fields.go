package form

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
)

// The fields of a question's form (and of a tool's Run form) as the
// keyboard and the wheel meet them. A long form scrolls in its dialog,
// and Fyne's scroll neither follows the focus nor takes the wheel over an
// entry (each has a scroller of its own, which ate the turn): new-user
// pass 12 tabbed below the fold of server-everything's form with nothing
// coming into view and no focus mark to be seen, and ten wheel notches
// moved it 25 px. So each field is a Page* field of package widgets (its
// focus scrolls the form to it, as in Settings), ringed while it has the
// keyboard (a line in the text's colour, as the dialogs' buttons: Fyne's
// own marks are a tint), and the wheel anywhere over the form moves it
// three lines a notch, as it moves the chat.

// Page is the scroll a form is in, known once its dialog is made.
type Page struct{ Scroll *container.Scroll }

func (p *Page) get() *container.Scroll { return p.Scroll }

// wheelLines is how far one wheel notch moves a form, in the driver's
// steps (a line each): as the chat (chat.wheelStep).
const wheelLines = 3

// formWheel takes the wheel over a form, under its fields and over its
// entries, and moves the form's scroll by wheelLines a notch. It takes
// nothing else: taps, drags and keys go through to what is under it.
type formWheel struct {
	widget.BaseWidget
	page *Page
}

var _ fyne.Scrollable = (*formWheel)(nil)

func newFormWheel(p *Page) *formWheel {
	w := &formWheel{page: p}
	w.ExtendBaseWidget(w)
	return w
}

func (w *formWheel) Scrolled(ev *fyne.ScrollEvent) {
	if s := w.page.get(); s != nil {
		s.Scrolled(&fyne.ScrollEvent{PointEvent: ev.PointEvent, Scrolled: fyne.Delta{DY: ev.Scrolled.DY * wheelLines}})
	}
}

func (w *formWheel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(&fyne.Container{})
}

// UnderWheel lays o over a formWheel: the wheel over its gaps and
// labels moves the form.
func UnderWheel(o fyne.CanvasObject, p *Page) fyne.CanvasObject {
	return container.NewStack(newFormWheel(p), o)
}

// overWheel lays a formWheel over o (an entry, whose scroller would take
// the wheel).
func overWheel(o fyne.CanvasObject, p *Page) fyne.CanvasObject {
	return container.NewStack(o, newFormWheel(p))
}

// escapeToDialog gives Escape, typed in a field that would drop it (a
// check box, a select, a list), to the window's handler: the dialog's,
// which cancels the question, as Escape in an entry does.
func escapeToDialog(o fyne.CanvasObject, k *fyne.KeyEvent) bool {
	if k.Name != fyne.KeyEscape {
		return false
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(o); c != nil && c.OnTypedKey() != nil {
		c.OnTypedKey()(k)
	}
	return true
}

// ring is a field's focus ring: shown while it has the keyboard.
type ring struct{ on bool }

func (r *ring) shown() bool { return r.on }

// enterSubmits sends the form on Enter, typed in a field that would drop
// it (a check box, a select, a list), as Enter in an entry does: with a
// question's only field a select, Enter after choosing did nothing though
// Accept is the default (new-user pass 15). An open select's menu takes
// its own Enter, which chooses.
func enterSubmits(k *fyne.KeyEvent, submit func()) bool {
	if k.Name != fyne.KeyReturn && k.Name != fyne.KeyEnter {
		return false
	}
	if submit != nil {
		submit()
	}
	return true
}

// formCheck is a check box of a form (a yes/no field, or one option of a
// few to choose several of).
type formCheck struct {
	widgets.PageCheck
	ring
	submit func()
}

func newFormCheck(label string, changed func(bool), submit func(), p *Page) *formCheck {
	c := &formCheck{submit: submit}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	c.Outer(c)
	c.InPage(p.get)
	return c
}

// CheckWidget is the check box, for the window's screen dump.
func (c *formCheck) CheckWidget() *widget.Check { return &c.Check }

func (c *formCheck) TypedKey(k *fyne.KeyEvent) {
	if !escapeToDialog(c, k) && !enterSubmits(k, c.submit) {
		c.PageCheck.TypedKey(k)
	}
}

func (c *formCheck) FocusGained() { c.on = true; c.PageCheck.FocusGained(); c.Refresh() }
func (c *formCheck) FocusLost()   { c.on = false; c.PageCheck.FocusLost(); c.Refresh() }
func (c *formCheck) CreateRenderer() fyne.WidgetRenderer {
	return widgets.NewRing(c, c.PageCheck.CreateRenderer(), c.shown)
}

// formSelect is a select of a form (one of a few options).
type formSelect struct {
	widgets.PageSelect
	ring
	submit func()
}

func newFormSelect(options []string, submit func(), p *Page) *formSelect {
	s := &formSelect{submit: submit}
	s.Options, s.PlaceHolder = options, "(choose one)"
	s.ExtendBaseWidget(s)
	s.Outer(s)
	s.InPage(p.get)
	return s
}

// SelectWidget is the select, for the window's screen dump.
func (s *formSelect) SelectWidget() *widget.Select { return &s.Select }

func (s *formSelect) TypedKey(k *fyne.KeyEvent) {
	if !escapeToDialog(s, k) && !enterSubmits(k, s.submit) {
		s.PageSelect.TypedKey(k)
	}
}

func (s *formSelect) FocusGained() { s.on = true; s.PageSelect.FocusGained(); s.Refresh() }
func (s *formSelect) FocusLost()   { s.on = false; s.PageSelect.FocusLost(); s.Refresh() }
func (s *formSelect) CreateRenderer() fyne.WidgetRenderer {
	return widgets.NewRing(s, s.PageSelect.CreateRenderer(), s.shown)
}

// formList is the list of a choiceList (one or several of many options):
// its focus brings it into the form's view, ringed; the arrows and Space
// choose in it, as in Fyne's list. The wheel over it moves the list.
type formList struct {
	widget.List
	ring
	page   *Page
	submit func()
}

func (l *formList) FocusGained() {
	l.on = true
	l.List.FocusGained()
	widgets.InView(l.page.get(), l)
	l.Refresh()
}

func (l *formList) TypedKey(k *fyne.KeyEvent) {
	if !escapeToDialog(l, k) && !enterSubmits(k, l.submit) {
		l.List.TypedKey(k)
	}
}

func (l *formList) FocusLost() { l.on = false; l.List.FocusLost(); l.Refresh() }
func (l *formList) CreateRenderer() fyne.WidgetRenderer {
	return widgets.NewRing(l, l.List.CreateRenderer(), l.shown)
}

// optionGroup is the options of a field that takes several of a few: a
// check box each, side by side when they are few. (Fyne's CheckGroup
// keeps its boxes to itself: Tab onto one could neither scroll the form
// to it nor ring it.)
type optionGroup struct {
	Checks []*formCheck
	object fyne.CanvasObject
}

func newOptionGroup(labels []string, submit func(), p *Page) *optionGroup {
	g := &optionGroup{}
	objs := make([]fyne.CanvasObject, len(labels))
	for i, l := range labels {
		c := newFormCheck(l, nil, submit, p)
		g.Checks = append(g.Checks, c)
		objs[i] = c
	}
	// Side by side when few and short (Fyne's CheckGroup put five of any
	// length in a row, as wide as they made it).
	total := 0
	for _, l := range labels {
		total += len([]rune(l))
	}
	if len(labels) <= 5 && total <= 40 {
		g.object = container.NewHBox(objs...)
	} else {
		g.object = container.NewVBox(objs...)
	}
	return g
}

// Selected is the labels of the options checked, in order.
func (g *optionGroup) Selected() []string {
	var out []string
	for _, c := range g.Checks {
		if c.Checked {
			out = append(out, c.Text)
		}
	}
	return out
}

// SetSelected checks the options labelled so, and unchecks the others.
func (g *optionGroup) SetSelected(labels []string) {
	for _, c := range g.Checks {
		on := false
		for _, l := range labels {
			on = on || l == c.Text
		}
		c.SetChecked(on)
	}
}

// elicitEntry is a form's entry: Enter sends the form, Escape cancels;
// its focus brings it into the form's view, ringed (fields.go).
type elicitEntry struct {
	widgets.PageEntry
	ring
	submit, escape func()
}

func newElicitEntry(submit, escape func(), p *Page) *elicitEntry {
	e := &elicitEntry{submit: submit, escape: escape}
	e.Wrapping = fyne.TextWrapOff
	e.Scroll = container.ScrollHorizontalOnly
	e.ExtendBaseWidget(e)
	e.Outer(e)
	e.InPage(p.get)
	e.OnSubmitted = func(string) { e.submit() }
	return e
}

func (e *elicitEntry) FocusGained() { e.on = true; e.PageEntry.FocusGained(); e.Refresh() }
func (e *elicitEntry) FocusLost()   { e.on = false; e.PageEntry.FocusLost(); e.Refresh() }
func (e *elicitEntry) CreateRenderer() fyne.WidgetRenderer {
	return widgets.NewRing(e, e.PageEntry.CreateRenderer(), e.shown)
}

func (e *elicitEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape {
		e.escape()
		return
	}
	e.Entry.TypedKey(k)
}

// choiceList is a long list of options, filtered as the person types: a
// server may offer thousands, which a select's menu would draw all at once.
type choiceList struct {
	labels []string
	multi  bool
	chosen map[int]bool
	Shown  []int // the options the filter keeps
	Filter *elicitEntry
	list   *formList
	count  *widget.Label
	object fyne.CanvasObject
}

func newChoiceList(labels []string, multi bool, defaults []int, submit, escape func(), p *Page) *choiceList {
	l := &choiceList{labels: labels, multi: multi, chosen: map[int]bool{}}
	for _, i := range defaults {
		l.chosen[i] = true
		if !multi {
			break
		}
	}
	l.Filter = newElicitEntry(submit, escape, p)
	l.Filter.PlaceHolder = fmt.Sprintf("Filter %d %s", len(labels), widgets.Plural(len(labels), "option", "options"))
	l.list = &formList{page: p, submit: submit}
	l.list.Length = func() int { return len(l.Shown) }
	// A row is a mark and a label, not a check box: the list takes the
	// keyboard as one field (the arrows move, Space chooses), where check
	// boxes made every row shown a stop of Tab.
	l.list.CreateItem = func() fyne.CanvasObject {
		label := widget.NewLabel("")
		label.Truncation = fyne.TextTruncateEllipsis // a long option ends in "…" at the list's edge
		return container.NewBorder(nil, nil, widget.NewIcon(theme.CheckButtonIcon()), nil, label)
	}
	l.list.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		row := o.(*fyne.Container)
		label, icon := row.Objects[0].(*widget.Label), row.Objects[1].(*widget.Icon)
		i := l.Shown[id]
		label.SetText(l.labels[i])
		icon.SetResource(l.mark(l.chosen[i]))
	}
	l.list.OnSelected = func(id widget.ListItemID) { // Space on the highlighted option, or a tap on its row
		if id >= 0 && id < len(l.Shown) {
			l.Choose(l.Shown[id], !l.chosen[l.Shown[id]])
		}
		l.list.UnselectAll()
	}
	l.list.ExtendBaseWidget(l.list)
	l.count = widget.NewLabel("")
	l.count.SizeName = theme.SizeNameCaptionText
	l.Filter.OnChanged = func(string) { l.apply() }
	l.apply()
	// As wide as the form, 180 high: a fixed 600 px made the dialog wider
	// than a 640×480 window, its left cut off.
	tall := canvas.NewRectangle(color.Transparent)
	tall.SetMinSize(fyne.NewSize(0, 180))
	box := container.NewStack(tall, l.list)
	l.object = container.NewVBox(container.NewBorder(nil, nil, nil, l.count, overWheel(l.Filter, p)), box)
	return l
}

// mark is an option's mark: a check box, or a radio button for one of
// many.
func (l *choiceList) mark(on bool) fyne.Resource {
	switch {
	case l.multi && on:
		return theme.CheckButtonCheckedIcon()
	case l.multi:
		return theme.CheckButtonIcon()
	case on:
		return theme.RadioButtonCheckedIcon()
	}
	return theme.RadioButtonIcon()
}

func (l *choiceList) Choose(i int, on bool) {
	if !l.multi && on {
		clear(l.chosen)
	}
	if on {
		l.chosen[i] = true
	} else {
		delete(l.chosen, i)
	}
	l.list.Refresh()
	l.apply()
}

// apply keeps the options the filter matches.
func (l *choiceList) apply() {
	q := strings.ToLower(strings.TrimSpace(l.Filter.Text))
	l.Shown = l.Shown[:0]
	for i, s := range l.labels {
		if q == "" || strings.Contains(strings.ToLower(s), q) {
			l.Shown = append(l.Shown, i)
		}
	}
	l.count.SetText(fmt.Sprintf("%d shown, %d chosen", len(l.Shown), len(l.chosen)))
	l.list.Refresh()
}

func (l *choiceList) chosenIndexes() []int {
	var out []int
	for i := range l.labels {
		if l.chosen[i] {
			out = append(out, i)
		}
	}
	return out
}
