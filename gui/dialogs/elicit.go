package dialogs

import (
	"fmt"
	"image/color"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/gui/widgets"
	"deckhand/transport/mcp"
)

// Servers' questions (MCP elicitation), asked in the same queue as
// approvals (modal.go): one dialog at a time, of either kind, oldest first,
// "1 of N" when more wait, the deadline shown, a
// desktop notification when Deckhand is not in front; a question that
// closes elsewhere (timed out: declined; its call cancelled) closes its
// dialog. A form is built from mcp.Form's fields; a page (URL mode) is
// shown in full with its host, and opened only when the person presses
// Open. Everything the server says is cleaned (package clean) and bounded.
//
// Keys: Escape cancels, as the MCP specification has it (the person
// dismissed the question without choosing; Decline is the person's no).
// A line above the buttons says how Decline, Cancel and Stop asking
// differ: side by side with nothing to tell them apart, the person could
// not know. Enter in a form's field sends the form when it is valid (else
// the problem shows in the form); Enter with no field focused (the dialog
// may have opened under someone typing) only moves into the first field,
// and in URL mode it declines, as it denies an approval: a page is never
// opened from the keyboard.

// Bounds on what a server's question may take of the dialog.
const (
	elicitTitleMax   = 80   // a field's title
	elicitDescMax    = 400  // a field's description
	OptionMax        = 100  // an option's label
	elicitMessageMax = 4000 // the message (it scrolls past a few lines)
	elicitBigChoice  = 12   // more options than this: a list with a filter
)

// Questions is the servers' questions waiting for the person. Each joins
// the window's modal queue (modal.go) as it comes, and leaves it when the
// servers close it (answered, here or not, timed out or abandoned).
type Questions struct {
	d        *Dialogs
	Asks     map[string]*Question // by id: waiting, or answered here and not yet closed
	answered map[string]bool      // answered here, not yet closed by the servers
	notified map[string]bool

	// The open dialog's parts, for tests.
	Title   string
	Form    *elicitForm
	first   fyne.Focusable            // the form's first field, if it has one
	Buttons map[string]*widget.Button // by action; URL mode's accept is Open
	Problem *widget.Label             // what is wrong with the form's answers
	secret  *widget.Label             // the warning above a form asking for a secret; nil when none
	Choices *widget.Label             // how Decline, Cancel and Stop asking differ
	Foot    *widget.Label             // the deadline, and how many more wait
	footObj fyne.CanvasObject
}

func newQuestions(d *Dialogs) *Questions {
	return &Questions{d: d, Asks: map[string]*Question{}, answered: map[string]bool{}, notified: map[string]bool{}}
}

// An elicitItem is a request in the modal queue.
func (it *Question) inQuick() bool { return it.Quick }
func (it *Question) dismissed()    { it.e.answer(it, servers.ElicitCancel, nil) } // closed without choosing
func (it *Question) recount()      { it.e.recount(it) }
func (it *Question) dialog(parent fyne.Window) *dialog.CustomDialog {
	return it.e.dialog(it, parent)
}

// typedKey: Escape cancels; Enter moves into the form's first field, or
// declines when there is none (a page is never opened from the keyboard).
func (it *Question) typedKey(c fyne.Canvas, k *fyne.KeyEvent) {
	e := it.e
	switch k.Name {
	case fyne.KeyEscape:
		e.answer(it, servers.ElicitCancel, nil)
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.first != nil {
			c.Focus(e.first)
		} else {
			e.answer(it, servers.ElicitDecline, nil)
		}
	}
}

// Shown is the question whose dialog is open, if one is.
func (e *Questions) Shown() *Question {
	it, _ := e.d.modals.showing.(*Question)
	return it
}

func (e *Questions) Add(it *Question) {
	if e.Asks[it.Req.ID] != nil {
		return
	}
	it.e = e
	e.Asks[it.Req.ID] = it
	if !e.notified[it.Req.ID] {
		e.notified[it.Req.ID] = true
		if e.d.host.Front() != e.d.modals.where(it) {
			e.noteAway(it)
		}
	}
	e.d.modals.add(it)
}

// Closed forgets a question the servers closed (answered, timed out or
// abandoned), closing its dialog.
func (e *Questions) Closed(id string) {
	it := e.Asks[id]
	delete(e.Asks, id)
	delete(e.answered, id)
	if e.notified[id] {
		e.d.notes.withdraw(id)
	}
	delete(e.notified, id)
	if it != nil {
		e.d.modals.drop(it)
	}
}

func (e *Questions) dialogTitle(it *Question) string {
	t := "A server asks"
	if it.Req.Mode == "url" {
		t = "Open a page for a server?"
	}
	if n := e.d.modals.waiting(); n > 1 {
		t += fmt.Sprintf(" (1 of %d)", n)
	}
	return t
}

// recount updates the open dialog's count of requests waiting (its title
// keeps the count it opened with: a dialog's title is fixed).
func (e *Questions) recount(it *Question) {
	if e.Foot == nil {
		return
	}
	e.Foot.SetText(e.footText(it))
	widgets.SetVisible(e.footObj, e.Foot.Text != "")
}

func (e *Questions) footText(it *Question) string {
	return waitingFoot("Declined", it.Req.Deadline, e.d.modals.waiting()-1)
}

// dialog makes the dialog asking the question it.
func (e *Questions) dialog(it *Question, parent fyne.Window) *dialog.CustomDialog {
	r := it.Req
	e.Form, e.Problem, e.first, e.secret = nil, nil, nil, nil
	e.Buttons = map[string]*widget.Button{}

	// Deckhand's own words first: which server, during which call. What the
	// server says comes below, cleaned.
	server := fmt.Sprintf("The server \u201c%s\u201d", r.Server)
	heading := widget.NewLabelWithStyle(server+" asks:", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	if r.Mode == "url" {
		heading.SetText(server + " asks you to open a page")
	}
	heading.SizeName = theme.SizeNameSubHeadingText
	heading.Wrapping = fyne.TextWrapWord
	items := []fyne.CanvasObject{heading}
	if secret := r.Form.Sensitive(); r.Mode != "url" && len(secret) > 0 {
		// Before anything the server says: the MCP spec forbids asking
		// for these through a form.
		for i, s := range secret {
			secret[i] = "\u201c" + widgets.Shorten(clean.Line(s), elicitTitleMax) + "\u201d"
		}
		e.secret = widget.NewLabel("Warning: this form asks for a password, token or key (" + strings.Join(secret, ", ") +
			"), which the MCP specification forbids servers to ask through a form. Type one only if you are sure where it goes.")
		e.secret.Wrapping = fyne.TextWrapWord
		e.secret.Importance = widget.DangerImportance
		e.secret.TextStyle.Bold = true
		items = append(items, e.secret)
	}
	if it.Tool != "" {
		where := "During its tool call " + clean.Line(it.Tool)
		if it.Conv != "" {
			where += " in \u201c" + widgets.Shorten(clean.Line(it.Conv), 60) + "\u201d"
		}
		wl, w := widgets.Subtle(where + ".")
		// Wrapped: at 640×480 it was cut after "in “unclear rese".
		wl.Wrapping = fyne.TextWrapWord
		items = append(items, w)
	}
	if msg := strings.TrimSpace(clean.Text(r.Message)); msg != "" {
		items = append(items, elicitMessage(msg))
	}

	e.Problem = widget.NewLabel("")
	e.Problem.Wrapping = fyne.TextWrapWord
	e.Problem.Importance = widget.DangerImportance
	e.Problem.Hide()

	var buttons []fyne.CanvasObject
	mk := func(label, action string, f func()) *widgets.RingButton {
		b := widgets.NewRingButton(label, f)
		e.Buttons[action] = &b.Button
		return b
	}
	decline := mk("Decline", servers.ElicitDecline, func() { e.answer(it, servers.ElicitDecline, nil) })
	cancel := mk("Cancel", servers.ElicitCancel, func() { e.answer(it, servers.ElicitCancel, nil) })
	// Refuses this question and the rest of the server's, for the session:
	// a server asking again and again is stopped in one press.
	stop := mk("Stop asking", elicitStop, func() { e.stop(it) })
	buttons = append(buttons, decline, cancel, stop)
	if r.Mode == "url" {
		items = append(items, e.urlPart(it)...)
		open := mk("Open page", servers.ElicitAccept, func() { e.openPage(it) })
		open.Icon = theme.ComputerIcon()
		decline.Importance = widget.HighImportance // the default: Enter and Escape decline
		buttons = append(buttons, open)
	} else {
		f := newElicitForm(r.Form, func() { e.submit(it) }, func() { e.answer(it, servers.ElicitCancel, nil) })
		e.Form = f
		if len(f.Fields) > 0 {
			items = append(items, f.object())
			e.first = f.first()
		}
		send := mk("Accept", servers.ElicitAccept, func() { e.submit(it) })
		send.Importance = widget.HighImportance
		buttons = append(buttons, send)
	}
	e.Foot, e.footObj = widgets.Caption(e.footText(it))
	widgets.SetVisible(e.footObj, e.Foot.Text != "")
	var choices fyne.CanvasObject
	e.Choices, choices = widgets.Caption(choicesText)
	e.Choices.Wrapping = fyne.TextWrapWord

	e.Title = e.dialogTitle(it)
	// The dialog fits the window, whatever its size: the question and the
	// form scroll; what is wrong with the answers and the deadline stay in
	// sight above the buttons.
	// The wheel anywhere over the question moves it as over its form.
	page := &formPage{}
	content, scroll := fitDialogScroll(parent.Canvas().Size(), underWheel(container.NewVBox(items...), page), buttons, e.Problem, choices, e.footObj)
	page.scroll = scroll
	if e.Form != nil {
		e.Form.scrollIn(scroll)
	}
	return dialog.NewCustomWithoutButtons(e.Title, content, parent)
}

// choicesText says how the ways out differ, as the MCP specification has
// them: decline is the person's no, cancel a dismissal without a choice.
const choicesText = "Decline tells the server no. Cancel (Escape) closes this without an answer: the server may ask again. " +
	"Stop asking declines this and the server's other questions until Deckhand restarts."

// elicitMessage is the server's message: wrapped, selectable, and in a
// scroll when long.
func elicitMessage(msg string) fyne.CanvasObject {
	r := []rune(msg)
	if len(r) > elicitMessageMax {
		msg = string(r[:elicitMessageMax]) + "…"
	}
	l := widget.NewLabel(msg)
	l.Wrapping = fyne.TextWrapWord
	// Not selectable: Fyne's selectable label takes the keyboard, showing
	// no focus, and the first Tab into a form went there, before its
	// first field: what was typed then was lost (new-user pass 12).
	if len([]rune(msg)) < 300 && strings.Count(msg, "\n") < 5 {
		return l
	}
	s := container.NewVScroll(l)
	s.SetMinSize(fyne.NewSize(0, 120)) // as wide as the dialog
	return s
}

// urlPart shows the page to open: its full address (selectable, with a
// Copy button), its host, and warnings about addresses that may mislead.
func (e *Questions) urlPart(it *Question) []fyne.CanvasObject {
	r := it.Req
	addr := widget.NewLabel(clean.Line(r.URL))
	addr.Selectable = true
	addr.Wrapping = fyne.TextWrapBreak
	copyBtn := widgets.NewRingButton("Copy", func() { e.d.host.Clipboard().SetContent(r.URL) })
	copyBtn.Icon = theme.ContentCopyIcon()
	e.Buttons["copy"] = &copyBtn.Button
	addrBox := container.NewVScroll(addr)
	addrBox.SetMinSize(fyne.NewSize(0, 60)) // as wide as the dialog
	host := widget.NewLabelWithStyle("On the site: "+clean.Line(r.Host), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	host.Wrapping = fyne.TextWrapBreak
	out := []fyne.CanvasObject{
		widget.NewLabel("The page's full address:"),
		container.NewBorder(nil, nil, nil, container.NewCenter(copyBtn), addrBox),
		host,
	}
	for _, w := range urlWarnings(r.URL) {
		l := widget.NewLabel("Warning: " + w)
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.WarningImportance
		out = append(out, l)
	}
	_, note := widgets.Caption("It opens in your browser only when you press Open page.")
	return append(out, note)
}

// urlWarnings are what may mislead in a page's address.
func urlWarnings(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return []string{"the address does not parse: " + clean.Line(err.Error())}
	}
	var out []string
	if strings.EqualFold(u.Scheme, "http") {
		out = append(out, "the page is not encrypted (http, not https).")
	}
	if u.User != nil {
		out = append(out, "the address has a name before an @: the site is the host shown, not what comes before the @.")
	}
	h := u.Hostname()
	if strings.Contains(strings.ToLower(h), "xn--") || strings.IndexFunc(h, func(r rune) bool { return r > unicode.MaxASCII }) >= 0 {
		out = append(out, "the host name has letters of other alphabets: check that it is the site you expect.")
	}
	return out
}

// openPage opens the page in the browser, and says yes to the server.
func (e *Questions) openPage(it *Question) {
	u, err := url.Parse(it.Req.URL)
	if err == nil {
		err = e.d.host.OpenURL(u)
	}
	e.answer(it, servers.ElicitAccept, nil)
	if err != nil {
		e.d.host.ShowError("The browser did not open (" + clean.Line(err.Error()) + "). The page's address:\n" + clean.Line(it.Req.URL))
	}
}

// submit sends the form's answers if they fit it, or shows what does not.
func (e *Questions) submit(it *Question) {
	if e.Shown() != it || e.Form == nil {
		return
	}
	content, bad, err := e.Form.Collect()
	if err != nil {
		e.Problem.SetText(err.Error())
		e.Problem.Show()
		if p := e.d.modals.parent; bad != nil && p != nil {
			p.Canvas().Focus(bad)
		}
		return
	}
	e.answer(it, servers.ElicitAccept, content)
}

// answer sends the person's answer; the next request's dialog opens.
func (e *Questions) answer(it *Question, action string, content map[string]any) {
	e.send(it, &QuestionAnswer{ID: it.Req.ID, Action: action, Content: content})
}

// elicitStop is the "Stop asking" button's key in elicitor.buttons.
const elicitStop = "stop"

// stop declines the question and every other of its server's for the
// session (the servers decline those waiting, and those to come unseen).
func (e *Questions) stop(it *Question) {
	e.send(it, &QuestionAnswer{ID: it.Req.ID, Action: servers.ElicitDecline, Stop: true})
}

func (e *Questions) send(it *Question, m *QuestionAnswer) {
	if e.answered[it.Req.ID] {
		return
	}
	e.answered[it.Req.ID] = true
	e.d.host.Tell(m)
	e.d.modals.drop(it)
}

// elicitForm is a form's fields as widgets.
type elicitForm struct {
	form   *mcp.Form
	Fields []*FormField
	box    *fyne.Container
	whole  fyne.CanvasObject // box, over the wheel
	page   *formPage         // the scroll it is in, once known
}

// FormField is one field's widget: an entry (text, numbers), a check
// (yes/no), a select or check group (few options), or a list with a
// filter (many).
type FormField struct {
	Field   mcp.Field
	title   string // cleaned, bounded
	Entry   *elicitEntry
	Check   *formCheck
	touched bool // the check was changed: an answer even when unchecked
	Select  *formSelect
	Group   *optionGroup
	List    *choiceList
	Labels  []string // the options' labels as shown
}

func newElicitForm(f *mcp.Form, submit, escape func()) *elicitForm {
	ef := &elicitForm{form: f, page: &formPage{}}
	if f == nil {
		ef.box = container.NewVBox()
		ef.whole = ef.box
		return ef
	}
	objs := []fyne.CanvasObject{}
	// Required fields first, then the others, each in the form's order
	// (which the SDK may have lost: it hands the schema over as a map).
	fields := slices.Clone(f.Fields)
	slices.SortStableFunc(fields, func(a, b mcp.Field) int {
		switch {
		case a.Required == b.Required:
			return 0
		case a.Required:
			return -1
		}
		return 1
	})
	if slices.ContainsFunc(fields, func(fl mcp.Field) bool { return fl.Required }) {
		_, note := widgets.Caption("Fields marked * are required.")
		objs = append(objs, note)
	}
	for _, fl := range fields {
		x := newFormField(fl, submit, escape, ef.page)
		ef.Fields = append(ef.Fields, x)
		title := widget.NewLabelWithStyle(x.title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		title.Wrapping = fyne.TextWrapBreak
		if fl.Required {
			title.SetText(x.title + " *")
		}
		objs = append(objs, title, x.object(ef.page))
		if d := strings.TrimSpace(clean.Text(fl.Description)); d != "" {
			dl, dobj := widgets.Caption(widgets.Shorten(d, elicitDescMax))
			dl.Wrapping = fyne.TextWrapWord
			objs = append(objs, dobj)
		}
	}
	ef.box = container.NewVBox(objs...)
	// Room on the left for a field's ring, and on the right for the
	// scroll bar, which covered the fields' right edges and their rings.
	pad := layout.NewCustomPaddedLayout(0, 0, 2*theme.InputBorderSize(), theme.ScrollBarSize())
	ef.whole = underWheel(container.New(pad, ef.box), ef.page)
	return ef
}

// object is the form; the dialog's scroll carries it when long.
func (ef *elicitForm) object() fyne.CanvasObject { return ef.whole }

// scrollIn says which scroll the form is in: the focus of a field brings
// it into that scroll's view, and the wheel over the form moves it.
func (ef *elicitForm) scrollIn(s *container.Scroll) { ef.page.scroll = s }

// first is the first field that takes the focus.
func (ef *elicitForm) first() fyne.Focusable {
	for _, x := range ef.Fields {
		if f := x.focusable(); f != nil {
			return f
		}
	}
	return nil
}

// Collect reads the answers, checked against the form: the content to
// send, or what is wrong (and the field to focus).
func (ef *elicitForm) Collect() (map[string]any, fyne.Focusable, error) {
	content := map[string]any{}
	for _, x := range ef.Fields {
		v, err := x.value()
		if err != nil {
			return nil, x.focusable(), fmt.Errorf("%s: %v", x.title, clean.Line(err.Error()))
		}
		if v == nil {
			if x.Field.Required {
				return nil, x.focusable(), widgets.Sentence(x.title + " is required.")
			}
			continue
		}
		content[x.Field.Name] = v
	}
	checked, err := ef.form.Check(content)
	if err != nil {
		return nil, nil, fmt.Errorf("%s", widgets.Shorten(clean.Line(err.Error()), 200))
	}
	return checked, nil, nil
}

func newFormField(fl mcp.Field, submit, escape func(), p *formPage) *FormField {
	x := &FormField{Field: fl, title: widgets.Shorten(clean.Line(fl.Title), elicitTitleMax)}
	if x.title == "" {
		x.title = widgets.Shorten(clean.Line(fl.Name), elicitTitleMax)
	}
	switch fl.Kind {
	case mcp.FieldBoolean:
		x.Check = newFormCheck("Yes", func(bool) { x.touched = true }, p)
		if b, ok := fl.Default.(bool); ok {
			x.Check.SetChecked(b)
		}
		x.touched = false
	case mcp.FieldEnum, mcp.FieldMulti:
		seen := map[string]bool{}
		for i := range fl.Options {
			l := widgets.Shorten(clean.Line(fl.Label(i)), OptionMax)
			if l == "" || seen[l] {
				l = fmt.Sprintf("%s (%d)", l, i+1) // labels tell options apart
			}
			seen[l] = true
			x.Labels = append(x.Labels, l)
		}
		defaults := x.defaultIndexes()
		switch {
		case len(fl.Options) > elicitBigChoice:
			x.List = newChoiceList(x.Labels, fl.Kind == mcp.FieldMulti, defaults, submit, escape, p)
		case fl.Kind == mcp.FieldEnum:
			x.Select = newFormSelect(x.Labels, p)
			if len(defaults) > 0 {
				x.Select.SetSelectedIndex(defaults[0])
			}
		default:
			x.Group = newOptionGroup(x.Labels, p)
			var sel []string
			for _, i := range defaults {
				sel = append(sel, x.Labels[i])
			}
			x.Group.SetSelected(sel)
		}
	default:
		x.Entry = newElicitEntry(submit, escape, p)
		x.Entry.PlaceHolder = fieldHint(fl)
		x.Entry.Password = fl.Sensitive() // not shown on the screen as it is typed
		if fl.Default != nil {
			x.Entry.SetText(fmt.Sprint(fl.Default))
		}
	}
	return x
}

// defaultIndexes are the options the field's default chooses.
func (x *FormField) defaultIndexes() []int {
	var vals []string
	switch d := x.Field.Default.(type) {
	case nil:
	case []any:
		for _, v := range d {
			vals = append(vals, fmt.Sprint(v))
		}
	default:
		vals = []string{fmt.Sprint(d)}
	}
	var out []int
	for _, v := range vals {
		for i, o := range x.Field.Options {
			if o == v {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// fieldHint is what an empty entry says it wants.
func fieldHint(fl mcp.Field) string {
	var h string
	switch fl.Kind {
	case mcp.FieldInteger:
		h = "a whole number"
	case mcp.FieldNumber:
		h = "a number"
	default:
		switch fl.Format {
		case "email":
			h = "an email address"
		case "uri":
			h = "a web address"
		case "date":
			h = "a date, YYYY-MM-DD"
		case "date-time":
			h = "a date and time, YYYY-MM-DDThh:mm:ssZ"
		}
	}
	switch {
	case fl.Min != nil && fl.Max != nil:
		h += fmt.Sprintf(" from %v to %v", *fl.Min, *fl.Max)
	case fl.Min != nil:
		h = strings.TrimPrefix(h+fmt.Sprintf(", at least %v", *fl.Min), ", ")
	case fl.Max != nil:
		h = strings.TrimPrefix(h+fmt.Sprintf(", at most %v", *fl.Max), ", ")
	}
	if fl.MaxLen != nil {
		h = strings.TrimPrefix(h+fmt.Sprintf(", up to %d characters", *fl.MaxLen), ", ")
	}
	return h
}

func (x *FormField) object(p *formPage) fyne.CanvasObject {
	switch {
	case x.Entry != nil:
		return overWheel(x.Entry, p)
	case x.Check != nil:
		return x.Check
	case x.Select != nil:
		return x.Select
	case x.Group != nil:
		return x.Group.object
	}
	return x.List.object
}

func (x *FormField) focusable() fyne.Focusable {
	switch {
	case x.Entry != nil:
		return x.Entry
	case x.Check != nil:
		return x.Check
	case x.Select != nil:
		return x.Select
	case x.Group != nil && len(x.Group.Checks) > 0:
		return x.Group.Checks[0]
	case x.List != nil:
		return x.List.Filter
	}
	return nil
}

// value is the field's answer, typed; nil for none.
func (x *FormField) value() (any, error) {
	switch {
	case x.Entry != nil:
		return x.Field.Parse(x.Entry.Text)
	case x.Check != nil:
		if !x.touched && !x.Field.Required && x.Field.Default == nil {
			return nil, nil // not answered
		}
		return x.Check.Checked, nil
	case x.Select != nil:
		i := x.Select.SelectedIndex()
		if i < 0 {
			return nil, nil
		}
		return x.Field.Options[i], nil
	case x.Group != nil:
		var out []any
		for i, l := range x.Labels {
			for _, s := range x.Group.Selected() {
				if s == l {
					out = append(out, x.Field.Options[i])
				}
			}
		}
		if out == nil {
			return nil, nil
		}
		return out, nil
	}
	chosen := x.List.chosenIndexes()
	if len(chosen) == 0 {
		return nil, nil
	}
	if x.Field.Kind == mcp.FieldEnum {
		return x.Field.Options[chosen[0]], nil
	}
	out := make([]any, len(chosen))
	for j, i := range chosen {
		out[j] = x.Field.Options[i]
	}
	return out, nil
}

// elicitEntry is a form's entry: Enter sends the form, Escape cancels;
// its focus brings it into the form's view, ringed (formfields.go).
type elicitEntry struct {
	widgets.PageEntry
	ring
	submit, escape func()
}

func newElicitEntry(submit, escape func(), p *formPage) *elicitEntry {
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

func newChoiceList(labels []string, multi bool, defaults []int, submit, escape func(), p *formPage) *choiceList {
	l := &choiceList{labels: labels, multi: multi, chosen: map[int]bool{}}
	for _, i := range defaults {
		l.chosen[i] = true
		if !multi {
			break
		}
	}
	l.Filter = newElicitEntry(submit, escape, p)
	l.Filter.PlaceHolder = fmt.Sprintf("Filter %d %s", len(labels), widgets.Plural(len(labels), "option", "options"))
	l.list = &formList{page: p}
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

// toFront brings the window a question is asked in to the front, with
// the keyboard in its form: the person clicked its notification.
func (e *Questions) toFront(id string) {
	if it := e.Asks[id]; it != nil && !e.answered[id] {
		e.d.modals.toFront(it)
		if e.Shown() == it {
			e.intoForm()
		}
	}
}

// intoForm puts the keyboard in the open form's first field when nothing
// has it: the person came to the question (its notification's Open
// Deckhand, or the window brought to the front). A dialog opens with the
// keyboard nowhere, in case it opened under someone typing; but after
// Open Deckhand the first Tab went to the server's message (a selectable
// label, which shows no focus) and the name typed then was lost
// (new-user pass 12).
func (e *Questions) intoForm() {
	p := e.d.modals.parent
	if e.Shown() == nil || e.first == nil || p == nil {
		return
	}
	if c := p.Canvas(); c.Focused() == nil {
		c.Focus(e.first)
	}
}
