package dialogs

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/gui/dialogs/form"
	"deckhand/gui/widgets"
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
// not know. Enter in a form's field (an entry, a check box, a closed
// select, a list) sends the form when it is valid (else the problem shows
// in the form); Enter with no field focused (the dialog
// may have opened under someone typing) only moves into the first field,
// and in URL mode it declines, as it denies an approval: a page is never
// opened from the keyboard.

// Bounds on what a server's question may take of the dialog.
const (
	elicitMessageMax = 4000 // the message (it scrolls past a few lines)
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
	Form    *form.Form
	first   fyne.Focusable            // the form's first field, if it has one
	scroll  *container.Scroll         // what the question and its form scroll in
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

// opened: the dialog is shown, laid out. Its form's first field is
// brought into view, the keyboard left where it is (the dialog may have
// opened under someone typing): at 640×480 a question's only field opened
// below the fold, and Space, meant for it, did nothing seen (new-user
// pass 15). The server's name and message scroll up as little as it takes.
func (it *Question) opened() {
	e := it.e
	if o, ok := e.first.(fyne.CanvasObject); ok && e.Shown() == it && e.scroll != nil {
		inViewNow(e.scroll, o)
	}
}

// inViewNow is widgets.InView for a dialog just shown: laid out, but not
// yet drawn, so that the driver knows no canvas for its objects (the
// window's driver learns them as it draws: InView did nothing there,
// though it did in the tests' driver). o's place is found through the
// containers holding it.
func inViewNow(s *container.Scroll, o fyne.CanvasObject) {
	top, ok := offsetIn(s.Content, o)
	view := s.Size().Height
	if !ok || view <= 0 {
		return
	}
	bottom := top + o.Size().Height
	if top >= s.Offset.Y && bottom <= s.Offset.Y+view {
		return
	}
	y := min(top, bottom-view)
	s.ScrollToOffset(fyne.NewPos(s.Offset.X, max(0, min(y, s.Content.Size().Height-view))))
}

// offsetIn is how far down in root o is, through root's containers.
func offsetIn(root, o fyne.CanvasObject) (float32, bool) {
	if root == o {
		return 0, true
	}
	if c, ok := root.(*fyne.Container); ok {
		for _, x := range c.Objects {
			if y, ok := offsetIn(x, o); ok {
				return x.Position().Y + y, true
			}
		}
	}
	return 0, false
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
	e.Form, e.Problem, e.first, e.secret, e.scroll = nil, nil, nil, nil, nil
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
			secret[i] = "\u201c" + widgets.Shorten(clean.Line(s), form.TitleMax) + "\u201d"
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
		f := form.New(r.Form, func() { e.submit(it) }, func() { e.answer(it, servers.ElicitCancel, nil) })
		e.Form = f
		if len(f.Fields) > 0 {
			items = append(items, f.Object())
			e.first = f.First()
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
	page := &form.Page{}
	content, scroll := fitDialogScroll(parent.Canvas().Size(), form.UnderWheel(container.NewVBox(items...), page), buttons, e.Problem, choices, e.footObj)
	page.Scroll = scroll
	e.scroll = scroll
	if e.Form != nil {
		e.Form.ScrollIn(scroll)
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
