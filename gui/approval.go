package gui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/approval"
	"deckhand/clean"
	"deckhand/config"
	"deckhand/conversation"
	"deckhand/notify"
	"deckhand/tools"
)

// approvals shows the pending approval requests one at a time, oldest
// first. The list comes from the bridge each time it changes; a request
// that leaves it (answered here, timed out, or cancelled with its run)
// closes its dialog. None is lost: the next one opens when the last closes.
type approvals struct {
	ui       *UI
	pending  []*conversation.ApprovalRequested
	showing  *conversation.ApprovalRequested
	dlg      *dialog.CustomDialog
	parent   fyne.Window
	closing  bool            // the dialog is being closed by us, not the person
	answered map[string]bool // answered here, not yet gone from the bridge's list
	notified map[string]bool
	buttons  map[approval.Answer]*widget.Button // the open dialog's, for tests
	hints    *widget.Label                      // the open dialog's claims, for tests
	title    string                             // the open dialog's title, for tests
	keys     func(*fyne.KeyEvent)               // the parent's key handler while the dialog is open
	focus    fyne.Focusable                     // what had the keyboard before the dialog took it
	args     *widget.RichText                   // the open dialog's arguments, for tests
}

func (a *approvals) set(list []*conversation.ApprovalRequested, quickConv string) {
	a.pending = list
	live := map[string]bool{}
	for _, r := range list {
		live[r.ID] = true
	}
	for id := range a.answered {
		if !live[id] {
			delete(a.answered, id)
		}
	}
	for id := range a.notified {
		if !live[id] {
			delete(a.notified, id)
			a.ui.notes.withdraw(id) // answered, here or anywhere else, or gone with its run
		}
	}
	if a.showing != nil && !live[a.showing.ID] {
		a.close()
	}
	for _, r := range list {
		if !a.notified[r.ID] && !a.answered[r.ID] {
			a.notified[r.ID] = true
			if !a.ui.foreground || a.ui.hidden {
				a.notify(r)
			}
		}
	}
	a.next(quickConv)
}

// notify asks in a desktop notification, for when Deckhand is not in
// front. It offers Deny, and Allow once when everything the person needs
// to judge the call fits in it: whose tool, the whole arguments (or the
// whole command), and no warning or change that the dialog would show.
// Never a grant: that needs the dialog. A click on its body brings the
// window, at the dialog.
func (a *approvals) notify(r *conversation.ApprovalRequested) {
	req := r.Request
	title, what := "Allow "+clean.Line(req.Display)+"?", whose(req)
	code := strings.TrimSpace(tools.PrettyArgs(req.Arguments))
	if req.Command != "" {
		title, what, code = "Run this shell command?", "The model proposed a shell command", req.Command
	}
	code = clean.Text(code)
	whole := len([]rune(code)) <= notifyArgs && len(req.Warnings) == 0 && req.Change == ""
	body := what + ":\n" + code
	if !whole {
		body = what + ". Open Deckhand to see the whole call."
	}
	id, conv := r.ID, r.Conversation
	a.ui.notes.send(id, func(actions bool) notify.Notification {
		n := notify.Notification{Title: "Deckhand: " + title, Body: body, Urgency: notify.Critical, Expire: -1}
		if !actions {
			n.Body += "\nOpen Deckhand to allow or deny it."
			return n
		}
		n.Actions = []notify.Action{{Key: notify.DefaultAction, Label: "Open Deckhand"}, {Key: "deny", Label: "Deny"}}
		if whole {
			n.Actions = append(n.Actions, notify.Action{Key: "allow", Label: "Allow once"})
		}
		n.OnAction = func(key string) { a.fromNotification(id, conv, key, whole) }
		return n
	})
}

// whose says whose tool a call is: Deckhand's own built-in tools (the
// server "local", which no configured server can be called), or a server
// the config trusts or not.
func whose(req approval.Request) string {
	if req.Server == config.LocalAlias {
		return fmt.Sprintf("Tool %q of Deckhand's built-in tools (%q)", clean.Line(req.Tool), req.Server)
	}
	server := "untrusted server"
	if req.Trusted {
		server = "trusted server"
	}
	return fmt.Sprintf("Tool %q on the %s %q", clean.Line(req.Tool), server, clean.Line(req.Server))
}

// notifyArgs is the longest call (arguments or command, in characters)
// that a notification shows whole, and so may allow.
const notifyArgs = 300

// fromNotification carries out what the person chose in a notification,
// if the request still waits.
func (a *approvals) fromNotification(id, conv, key string, whole bool) {
	var r *conversation.ApprovalRequested
	for _, p := range a.pending {
		if p.ID == id && p.Conversation == conv {
			r = p
		}
	}
	if r == nil || a.answered[id] {
		return
	}
	switch key {
	case "allow":
		if whole {
			a.answer(r, approval.AllowOnce)
		}
	case "deny":
		a.answer(r, approval.Deny)
	default: // the body: to the dialog
		if r.Conversation == a.ui.quickConv() && a.ui.quick != nil && a.ui.quick.visible {
			a.ui.quick.win.Show()
			a.ui.quick.win.RequestFocus()
		} else {
			a.ui.showMain()
		}
		if a.showing != nil && a.showing.ID != id {
			// Another request's dialog is open: this one's comes next.
			return
		}
		a.next(a.ui.quickConv())
	}
}

// next opens the dialog for the oldest request not yet answered.
func (a *approvals) next(quickConv string) {
	if a.showing != nil {
		return
	}
	for _, r := range a.pending {
		if a.answered[r.ID] {
			continue
		}
		parent := a.ui.win
		if r.Conversation == quickConv && a.ui.quick != nil && a.ui.quick.visible {
			parent = a.ui.quick.win
		} else if a.ui.hidden {
			a.ui.showMain()
		}
		a.open(r, parent)
		return
	}
}

func (a *approvals) open(r *conversation.ApprovalRequested, parent fyne.Window) {
	req := r.Request
	a.showing, a.parent = r, parent

	// The heading is Deckhand's own words: which tool, of which server. What
	// the server says of it (its title, its description) comes below, as
	// the server's claim, cleaned of anything that could disguise it. A
	// shell command (a CMD: line) is no server's: the command itself is
	// what the person judges, shown as it will run.
	command := req.Command != ""
	heading := widget.NewLabelWithStyle("Allow "+req.Display+"?", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	if command {
		heading.SetText("Run this shell command?")
	}
	heading.SizeName = theme.SizeNameSubHeadingText
	who := widget.NewLabel(whose(req))
	if command {
		who.SetText("A shell command the model proposed (runs in the workspace, sandboxed)")
	}
	who.Wrapping = fyne.TextWrapWord
	// What runs comes first, right under whose tool it is and anything
	// alarming: in a small window (the quick prompt's) it is what shows
	// without scrolling. What the server says of its tool follows.
	items := []fyne.CanvasObject{heading, who}
	var claims []fyne.CanvasObject
	if title := clean.Line(req.Title); title != "" && !command {
		q := widget.NewLabel(fmt.Sprintf("The server calls it: \u201c%s\u201d", title))
		q.Wrapping = fyne.TextWrapWord
		claims = append(claims, q)
	}
	if d := strings.TrimSpace(clean.Text(req.Description)); d != "" {
		desc := widget.NewLabel(shorten(d, 600))
		desc.Wrapping = fyne.TextWrapWord
		claims = append(claims, desc)
	}
	if req.Change != "" {
		l := widget.NewLabel("Changed since it was last allowed (no rule or grant covers it until you allow it again):\n" + req.Change)
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.DangerImportance
		items = append(items, l)
	}
	for _, w := range req.Warnings {
		l := widget.NewLabel("Warning: " + w + ".")
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.DangerImportance
		items = append(items, l)
	}
	if hints := approval.Claims(r.Request); hints != "" {
		h := widget.NewLabel(hints)
		h.Wrapping = fyne.TextWrapWord
		h.Importance = hintImportance(req)
		claims = append(claims, h)
		a.hints = h
	}
	if len(req.Access) > 0 {
		// What the policy found the call may touch, in Deckhand's words
		// (the paths themselves are the model's: cleaned).
		lines := make([]string, len(req.Access))
		for i, s := range req.Access {
			lines[i] = clean.Line(s)
		}
		l := widget.NewLabel("It may touch: " + strings.Join(lines, "; ") + ".")
		l.Wrapping = fyne.TextWrapWord
		claims = append(claims, l)
	}
	codeLabel, code := "Arguments", tools.PrettyArgs(req.Arguments)
	if command {
		codeLabel, code = "Command", req.Command
	}
	argsLabel := widget.NewLabelWithStyle(codeLabel, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	args := widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: clean.Text(code)})
	args.Wrapping = fyne.TextWrapBreak
	a.args = args
	items = append(items, argsLabel, args)
	items = append(items, claims...)
	if req.OnceOnly {
		once := "This call is asked every time: it can only be allowed once."
		if command {
			once = "Each shell command is asked every time: it can only be allowed once."
		}
		l := widget.NewLabel(once)
		l.Wrapping = fyne.TextWrapWord
		items = append(items, l)
	}
	foot := fmt.Sprintf("Denied if not answered by %s.", r.Deadline.Format("15:04:05"))
	if r.Deadline.IsZero() {
		foot = ""
	}
	if n := a.waiting() - 1; n > 0 {
		foot = strings.TrimSpace(fmt.Sprintf("%s %d more waiting.", foot, n))
	}
	if foot != "" {
		_, f := caption(foot)
		items = append(items, f)
	}

	title := "Allow this tool call?"
	if command {
		title = "Allow this shell command?"
	}
	if n := a.waiting(); n > 1 {
		title += fmt.Sprintf(" (1 of %d)", n)
	}
	a.title = title
	a.buttons = map[approval.Answer]*widget.Button{}
	mk := func(label string, ans approval.Answer) *widget.Button {
		b := widget.NewButton(label, func() { a.answer(r, ans) })
		a.buttons[ans] = b
		return b
	}
	deny := mk("Deny", approval.Deny)
	deny.Importance = widget.HighImportance // the default: Enter and Escape deny too
	buttons := []fyne.CanvasObject{deny, mk("Allow once", approval.AllowOnce)}
	if !req.OnceOnly {
		// No grant can cover a once-only call: offering one would be a lie.
		buttons = append(buttons,
			mk("Allow for this session", approval.AllowSession),
			mk("Always allow", approval.AllowAlways))
	}
	// The dialog fits the window it is in, whatever its size (the quick
	// prompt's is small): the call scrolls, whole, above the buttons,
	// which never cover it and wrap to two rows when one is too wide.
	content := fitDialog(parent.Canvas().Size(), container.NewVBox(items...), buttons)
	a.dlg = dialog.NewCustomWithoutButtons(title, content, parent)
	a.dlg.SetOnClosed(func() {
		if !a.closing && a.showing == r {
			a.answer(r, approval.Deny)
		}
	})
	c := parent.Canvas()
	a.focus = c.Focused()
	c.Unfocus()
	a.keys = c.OnTypedKey() // the window's own (Escape stops a run), back when the dialog closes
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		switch k.Name {
		case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
			a.answer(r, approval.Deny)
		}
	})
	a.dlg.Show()
}

// fitDialog lays out a dialog's body and buttons for a window of size
// win: the body in a scroll no taller than what the window leaves, the
// buttons below it in one row, or in two when one row is wider than the
// window.
func fitDialog(win fyne.Size, body fyne.CanvasObject, buttons []fyne.CanvasObject) fyne.CanvasObject {
	pad := theme.Padding()
	// A dialog has its title, its own padding and a margin to the window.
	width := min(640, win.Width-12*pad)
	// Columns of equal width: as many as the widest button allows (a
	// button's text is never cut).
	widest := float32(0)
	for _, b := range buttons {
		widest = max(widest, b.MinSize().Width)
	}
	cols := len(buttons)
	for cols > 1 && float32(cols)*(widest+pad) > width {
		cols--
	}
	if cols == 3 {
		cols = 2 // 3 then 1 looks broken: 2 and 2
	}
	btns := container.NewGridWithColumns(cols, buttons...)
	room := win.Height - btns.MinSize().Height - 18*pad - theme.TextSubHeadingSize()
	scroll := container.NewVScroll(body)
	scroll.SetMinSize(fyne.NewSize(max(width, 100), max(min(body.MinSize().Height, room), 60)))
	return container.NewBorder(nil, btns, nil, nil, scroll)
}

// waiting counts requests not yet answered.
func (a *approvals) waiting() int {
	n := 0
	for _, r := range a.pending {
		if !a.answered[r.ID] {
			n++
		}
	}
	return n
}

// answer sends the person's answer and moves on to the next request.
func (a *approvals) answer(r *conversation.ApprovalRequested, ans approval.Answer) {
	if a.answered[r.ID] {
		return
	}
	a.answered[r.ID] = true
	a.ui.tell(&uiAnswer{conv: r.Conversation, id: r.ID, answer: ans})
	if a.notified[r.ID] {
		a.ui.notes.withdraw(r.ID) // answered here: the notification asks no more
	}
	if a.showing == r {
		a.close()
	}
	a.next(a.ui.quickConv())
}

// close hides the open dialog without answering.
func (a *approvals) close() {
	if a.dlg == nil {
		return
	}
	a.closing = true
	a.dlg.Hide()
	a.closing = false
	c := a.parent.Canvas()
	c.SetOnTypedKey(a.keys)
	// What the person was typing in gets the keys back: a word typed
	// after answering lands where the one before it did.
	if f, ok := a.focus.(fyne.CanvasObject); ok && f.Visible() {
		c.Focus(a.focus)
	}
	a.keys, a.focus = nil, nil
	a.dlg, a.showing, a.buttons = nil, nil, nil
}

// hintImportance colours what the server claims of a tool: a claim that it
// may change or delete things stands out (red from a trusted server, amber
// from another); a read-only claim is plain, since from an untrusted server
// it may be false, and the two never share a colour.
func hintImportance(req approval.Request) widget.Importance {
	ann := req.Annotations
	if ann == nil || ann.ReadOnlyHint {
		return widget.MediumImportance
	}
	if req.Trusted {
		return widget.DangerImportance
	}
	return widget.WarningImportance
}
