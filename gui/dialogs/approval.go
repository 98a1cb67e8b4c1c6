package dialogs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/clean"
	"deckhand/config"
	"deckhand/gui/widgets"
	"deckhand/notify"
	"deckhand/tools"
)

// Approvals are the tool calls waiting for the person's approval. The
// list comes from the bridge each time it changes; each new request joins
// the window's modal queue (modal.go), which shows one dialog at a time. A
// request that leaves the list (answered here, timed out, or cancelled
// with its run) leaves the queue, closing its dialog if it is open.
type Approvals struct {
	d        *Dialogs
	asks     map[string]*approvalAsk // the bridge's list, by id: waiting, or answered here
	Answered map[string]bool         // answered here, not yet gone from the bridge's list
	notified map[string]bool

	// The open dialog's parts, for tests.
	Buttons map[approval.Answer]*widget.Button
	hints   *widget.Label // what the server claims
	// LocalNote says where a built-in tool's claims come from; nil for
	// another server's.
	LocalNote *widget.Label
	Title     string           // the dialog's title
	Args      []*argRow        // the arguments, one row each (none for a shell command)
	ArgKeys   *widget.Label    // every key and its value's start, below the scroll, when the rows do not all fit; nil else
	command   *widget.RichText // a shell command
	foot      *widget.Label    // the deadline, and how many more wait
	footObj   fyne.CanvasObject
}

func newApprovals(d *Dialogs) *Approvals {
	return &Approvals{d: d, asks: map[string]*approvalAsk{}, Answered: map[string]bool{}, notified: map[string]bool{}}
}

// approvalAsk is one approval request in the modal queue.
type approvalAsk struct {
	a *Approvals
	r *conversation.ApprovalRequested
}

func (q *approvalAsk) inQuick() bool { return q.r.Conversation == q.a.d.host.QuickConv() }
func (q *approvalAsk) dismissed()    { q.a.answer(q.r, approval.Deny) }
func (q *approvalAsk) recount()      { q.a.recount(q.r) }
func (q *approvalAsk) dialog(parent fyne.Window) *dialog.CustomDialog {
	return q.a.dialog(q.r, parent)
}

// typedKey: Escape and Enter deny (the dialog may have opened under
// someone typing).
func (q *approvalAsk) typedKey(_ fyne.Canvas, k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
		q.a.answer(q.r, approval.Deny)
	}
}

// Shown is the request whose dialog is open, if one is.
func (a *Approvals) Shown() *conversation.ApprovalRequested {
	if q, ok := a.d.modals.showing.(*approvalAsk); ok {
		return q.r
	}
	return nil
}

// Set takes the bridge's list of requests waiting; timedOut are the ids
// of those gone from it because nobody answered in time.
func (a *Approvals) Set(list []*conversation.ApprovalRequested, timedOut ...string) {
	live := map[string]bool{}
	for _, r := range list {
		live[r.ID] = true
	}
	var gone []modalRequest
	for id, q := range a.asks {
		if !live[id] {
			gone = append(gone, q)
			delete(a.asks, id)
			delete(a.Answered, id)
			if a.notified[id] {
				delete(a.notified, id)
				if slices.Contains(timedOut, id) {
					a.deniedNote(q.r) // in its place
				} else {
					a.d.notes.withdraw(id) // answered, here or anywhere else, or gone with its run
				}
			}
		}
	}
	a.d.modals.drop(gone...)
	var added, front []modalRequest
	for _, r := range list {
		if a.asks[r.ID] != nil {
			continue
		}
		q := &approvalAsk{a: a, r: r}
		a.asks[r.ID] = q
		added = append(added, q)
		switch {
		case a.d.host.Front() == a.d.modals.where(q):
		case fromView(r.Request):
			front = append(front, q)
		default:
			a.notified[r.ID] = true
			a.notify(r) // the person is not at the window its dialog opens on
		}
	}
	a.d.modals.add(added...)
	for _, q := range front {
		a.d.modals.toFront(q)
	}
}

// fromView reports whether a view (an MCP App's) makes the call. Its
// question comes in front rather than to a notification, as the view's
// own questions do (Send this message?, Open this link?): the view asks
// because the person pressed something in it, and its window hid the
// dialog, which waited unseen until the timeout denied it. The person is
// at the view, so the question comes to them; asking in the view's own
// page would let the page draw a look-alike of the question.
func fromView(req approval.Request) bool {
	return strings.HasPrefix(req.Origin, conversation.ViewOrigin)
}

// notify asks in a desktop notification, for when Deckhand is not in
// front. It offers Deny, and Allow once when everything the person needs
// to judge the call fits in it: whose tool, the whole arguments (or the
// whole command), and no warning or change that the dialog would show.
// Never a grant: that needs the dialog. A click on its body brings the
// window, at the dialog.
func (a *Approvals) notify(r *conversation.ApprovalRequested) {
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
	a.d.notes.send(id, func(actions bool) notify.Notification {
		n := notify.Notification{Title: "Deckhand: " + title, Body: body, Urgency: notify.Critical, Expire: -1}
		if !actions {
			n.Body += "\nOpen Deckhand to allow or deny it."
			return n
		}
		n.Actions = []notify.Action{{Key: notify.DefaultAction, Label: "Open Deckhand"}, {Key: "deny", Label: "Deny"}}
		if whole {
			n.Actions = append(n.Actions, notify.Action{Key: "allow", Label: "Allow once"})
		}
		n.OnAction = func(key string) { a.FromNotification(id, conv, key, whole) }
		return n
	})
}

// deniedNote replaces the notification that asked about r, which nobody
// answered in time, with one saying the call was denied: withdrawn with
// nothing said, the person who looked away never learned what became of
// it (new-user pass 8).
func (a *Approvals) deniedNote(r *conversation.ApprovalRequested) {
	title := clean.Line(r.Request.Display)
	if r.Request.Command != "" {
		title = "a shell command"
	}
	a.d.notes.send(r.ID, func(bool) notify.Notification {
		return notify.Notification{Title: "Deckhand denied " + title,
			Body: "Nobody answered in time, so the call was denied; the chat goes on without it."}
	})
}

// whose says whose tool a call is: Deckhand's own built-in tools (the
// server "local", which no configured server can be called), or a server
// the config trusts or not.
func whose(req approval.Request) string {
	if req.Origin != "" {
		return whoseTool(req) + ", called from " + req.Origin + " (not by the model)"
	}
	return whoseTool(req)
}

func whoseTool(req approval.Request) string {
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

// FromNotification carries out what the person chose in a notification,
// if the request still waits.
func (a *Approvals) FromNotification(id, conv, key string, whole bool) {
	q := a.asks[id]
	if q == nil || q.r.Conversation != conv || a.Answered[id] {
		return
	}
	switch key {
	case "allow":
		if whole {
			a.answer(q.r, approval.AllowOnce)
		}
	case "deny":
		a.answer(q.r, approval.Deny)
	default: // the body: to the window its dialog opens on (it may be waiting behind another)
		a.d.modals.toFront(q)
	}
}

// Bring opens the approval of conversation conv's call (its id, the
// model's) before any other waiting, on the window the person is at: they
// asked for it from the call's card ("Approve or deny…"). A call not asked
// about yet (it waits behind another call of its run) brings the first
// approval of its conversation. It reports whether one waits.
func (a *Approvals) Bring(conv, call string) bool {
	var first *approvalAsk
	for _, m := range a.d.modals.queue {
		q, ok := m.(*approvalAsk)
		if !ok || q.r.Conversation != conv || a.Answered[q.r.ID] {
			continue
		}
		if q.r.Request.ID == call {
			first = q
			break
		}
		if first == nil {
			first = q
		}
	}
	if first == nil {
		return false
	}
	a.d.modals.bring(first)
	return true
}

// dialog makes the dialog asking about r.
func (a *Approvals) dialog(r *conversation.ApprovalRequested, parent fyne.Window) *dialog.CustomDialog {
	req := r.Request

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
	small := parent.Canvas().Size().Height < 400
	if small {
		// A small window (the quick prompt's) keeps its room for the call:
		// the dialog's title asks the heading's question, and who names
		// the tool. (The title was the generic "Allow this tool call?":
		// which tool was said only in the line under it.)
		items = []fyne.CanvasObject{who}
	}
	var claims []fyne.CanvasObject
	if title := clean.Line(req.Title); title != "" && !command {
		q := widget.NewLabel(fmt.Sprintf("The server calls it: \u201c%s\u201d", title))
		q.Wrapping = fyne.TextWrapWord
		claims = append(claims, q)
	}
	if d := strings.TrimSpace(clean.Text(req.Description)); d != "" {
		desc := widget.NewLabel(widgets.Shorten(d, 600))
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
	a.LocalNote = nil
	if hints := approval.Claims(r.Request); hints != "" {
		h := widget.NewLabel(hints)
		h.Wrapping = fyne.TextWrapWord
		h.Importance = hintImportance(req)
		claims = append(claims, h)
		a.hints = h
		if req.Server == config.LocalAlias {
			// The built-in server's tools are a person's own definitions:
			// what they claim is what the definition says, and a tool
			// written without annotations is taken to change things.
			// Where that is set, so that its own author is not left
			// wondering why their echo looks dangerous.
			l, dim := widgets.Subtle(localHintsNote) // the placeholder's colour: the disabled one was all but unreadable
			l.Wrapping = fyne.TextWrapWord
			claims = append(claims, dim)
			a.LocalNote = l
		}
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
	a.Args, a.command = nil, nil
	callEnd := 0 // the items up to the call's end
	if command {
		// The command whole: it is the one thing to judge.
		label := widget.NewLabelWithStyle("Command", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		a.command = widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: clean.Text(req.Command)})
		a.command.Wrapping = fyne.TextWrapWord // between words; a word longer than the line is broken
		items = append(items, label, a.command)
	} else {
		// Each argument's key and the start of its value in sight, a long
		// value folded (argsView, below).
		view, rows := argsView(req.Arguments, parent.Canvas().Size().Height)
		a.Args = rows
		items = append(items, view)
		callEnd = len(items)
	}
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
	// The deadline, and how many more wait, above the buttons, out of
	// the scroll: the last line of the call's body, it was below the fold
	// at 640x480 (and 125%) under the server's description and claims.
	a.foot, a.footObj = widgets.Caption(a.footText(r))
	a.foot.Wrapping = fyne.TextWrapWord
	widgets.SetVisible(a.footObj, a.foot.Text != "")

	title := "Allow this tool call?"
	if command {
		title = "Allow this shell command?"
	}
	if small {
		title = heading.Text
	}
	if r.Calls > 1 && r.Position > 0 {
		// The calls of one answer are asked one after the other: the
		// next is not queued yet, and only this says it will come.
		title += fmt.Sprintf(" (call %d of %d)", r.Position, r.Calls)
	} else if n := a.d.modals.waiting(); n > 1 {
		title += fmt.Sprintf(" (1 of %d)", n)
	}
	a.Title = title
	a.Buttons = map[approval.Answer]*widget.Button{}
	mk := func(label string, ans approval.Answer) *widgets.RingButton {
		b := widgets.NewRingButton(label, func() { a.answer(r, ans) })
		a.Buttons[ans] = &b.Button
		return b
	}
	deny := mk("Deny", approval.Deny)
	// The default: Enter and Escape deny too, until Tab puts the focus
	// (its ring) on a button (ringbutton.go). From then on Enter presses
	// the ringed button, and Deny loses its fill: filled and beside the
	// ring, it looked chosen still.
	deny.Importance = widget.HighImportance
	buttons := []fyne.CanvasObject{deny, mk("Allow once", approval.AllowOnce)}
	if !req.OnceOnly {
		// No grant can cover a once-only call: offering one would be a lie.
		buttons = append(buttons,
			mk("Allow for this session", approval.AllowSession),
			mk("Always allow", approval.AllowAlways))
	}
	for _, o := range buttons {
		o.(*widgets.RingButton).OnFocus = func(on bool) {
			deny.Importance = widget.HighImportance
			if on {
				deny.Importance = widget.MediumImportance
			}
			deny.Refresh()
		}
	}
	// The dialog fits the window it is in, whatever its size (the quick
	// prompt's is small): the call scrolls, whole, above the buttons,
	// which never cover it and wrap to two rows when one is too wide.
	body := container.NewVBox(items...)
	var pinned []fyne.CanvasObject
	// (Measured in a VBox of their own: what the server says of its tool
	// may run below the fold; the call may not.)
	under := container.NewVBox(a.footObj, buttonRows(parent.Canvas().Size(), buttons))
	under.Resize(fyne.NewSize(min(640, parent.Canvas().Size().Width-12*theme.Padding()), under.MinSize().Height))
	if len(a.Args) > 1 && container.NewVBox(items[:callEnd]...).MinSize().Height > dialogRoom(parent.Canvas().Size(), under) {
		// More arguments than the window holds in sight: their keys and
		// the start of each value stay in sight below the scroll, so that
		// none hides (argStartsLine, below).
		var line fyne.CanvasObject
		a.ArgKeys, line = argStartsLine(a.Args)
		pinned = append(pinned, line)
	} else {
		a.ArgKeys = nil
	}
	pinned = append(pinned, a.footObj)
	content := fitDialog(parent.Canvas().Size(), body, buttons, pinned...)
	return dialog.NewCustomWithoutButtons(title, content, parent)
}

// footText is the dialog's last line: the deadline, and how many more
// requests wait (of either kind).
func (a *Approvals) footText(r *conversation.ApprovalRequested) string {
	return strings.TrimSpace(callsOf(r) + " " + waitingFoot("Denied", r.Deadline, a.d.modals.waiting()-1))
}

// callsOf says which of its answer's calls r asks about, and how many
// come after it ("" for a call made alone): the run asks about them one
// after the other, so the next one's request comes only once this one is
// answered (and its call has run).
func callsOf(r *conversation.ApprovalRequested) string {
	if r.Calls < 2 || r.Position < 1 || r.Position > r.Calls {
		return ""
	}
	s := fmt.Sprintf("Call %d of %d the model made in this answer", r.Position, r.Calls)
	switch later := r.Calls - r.Position; later {
	case 0:
		return s + ", the last."
	case 1:
		return s + ": one more comes after this one."
	default:
		return s + fmt.Sprintf(": %d more come after this one.", later)
	}
}

// recount updates the open dialog's count of requests waiting (its title
// keeps the count it opened with: a dialog's title is fixed).
func (a *Approvals) recount(r *conversation.ApprovalRequested) {
	if a.foot != nil {
		a.foot.SetText(a.footText(r))
		widgets.SetVisible(a.footObj, a.foot.Text != "")
	}
}

// fitDialog lays out a dialog's body and buttons for a window of size
// win: the body in a scroll no taller than what the window leaves, the
// buttons below it in one row, or in two when one row is wider than the
// window. pinned (what must stay in sight, as a form's problem) goes
// between them, outside the scroll.
func fitDialog(win fyne.Size, body fyne.CanvasObject, buttons []fyne.CanvasObject, pinned ...fyne.CanvasObject) fyne.CanvasObject {
	o, _ := fitDialogScroll(win, body, buttons, pinned...)
	return o
}

// fitDialogScroll is fitDialog, with the scroll the body is in.
func fitDialogScroll(win fyne.Size, body fyne.CanvasObject, buttons []fyne.CanvasObject, pinned ...fyne.CanvasObject) (fyne.CanvasObject, *container.Scroll) {
	pad := theme.Padding()
	// A dialog has its title, its own padding and a margin to the window.
	width := min(640, win.Width-12*pad)
	var bottom fyne.CanvasObject = buttonRows(win, buttons)
	if len(pinned) > 0 {
		bottom = container.NewVBox(append(pinned, bottom)...)
		// Laid out at the dialog's width first: a wrapped line pinned
		// there (the question's Decline/Cancel line) is measured as it
		// will show, not as one line, which left the body too much room.
		bottom.Resize(fyne.NewSize(width, bottom.MinSize().Height))
	}
	room := dialogRoom(win, bottom)
	scroll := container.NewVScroll(body)
	widgets.ScrolledIn(scroll, body) // Tab onto a button below the fold scrolls to it
	scroll.SetMinSize(fyne.NewSize(max(width, 100), max(min(body.MinSize().Height, room), 60)))
	return container.NewBorder(nil, bottom, nil, nil, scroll), scroll
}

// buttonRows lays out a dialog's buttons for a window of size win: columns
// of equal width, as many as the widest button allows (a button's text is
// never cut), in one row or more.
func buttonRows(win fyne.Size, buttons []fyne.CanvasObject) *fyne.Container {
	pad := theme.Padding()
	width := min(640, win.Width-12*pad)
	widest := float32(0)
	for _, b := range buttons {
		widest = max(widest, b.MinSize().Width)
	}
	cols := len(buttons)
	for cols > 1 && float32(cols)*(widest+pad) > width {
		cols--
	}
	if cols > 2 && cols < len(buttons) && len(buttons)%cols == 1 {
		cols-- // 3 then 1 looks broken: 2 and 2
	}
	return container.NewGridWithColumns(cols, buttons...)
}

// dialogRoom is the height a dialog's scrolled body has in a window of
// size win, above bottom (the buttons, and what is pinned above them).
func dialogRoom(win fyne.Size, bottom fyne.CanvasObject) float32 {
	return win.Height - bottom.MinSize().Height - 18*theme.Padding() - theme.TextSubHeadingSize()
}

// answer gives the person's answer to the run that asked, through the
// request's own Reply, from here (the UI goroutine: a button, a key, a
// notification's action) straight to the waiting run: no actor stands
// between them, and Reply never blocks. The bridge hears of it from the
// run (ApprovalClosed, which takes the request off its list) and is not on
// the answer's way. An answer the run no longer waits for (it timed out as
// the person clicked, or was stopped) is dropped, and logged. The next
// request's dialog opens.
func (a *Approvals) answer(r *conversation.ApprovalRequested, ans approval.Answer) {
	if a.Answered[r.ID] {
		return
	}
	a.Answered[r.ID] = true
	if err := r.Reply(ans, ""); err != nil {
		a.d.log.Info("approval answer dropped", "id", r.ID, "err", err)
	}
	if a.notified[r.ID] {
		delete(a.notified, r.ID)
		a.d.notes.withdraw(r.ID) // answered here: the notification asks no more
	}
	if q := a.asks[r.ID]; q != nil {
		a.d.modals.drop(q)
	}
	a.backToView(r)
}

// backToView brings the view whose call r is back in front once none of
// its calls waits for an answer any more: its approval brought the main
// window in front of it (fromView), and the person, answered, goes on
// in the view, which shows the call's result. It stayed behind.
func (a *Approvals) backToView(r *conversation.ApprovalRequested) {
	if !fromView(r.Request) {
		return
	}
	for _, m := range a.d.modals.queue {
		if q, ok := m.(*approvalAsk); ok && q.r.Conversation == r.Conversation && q.r.Request.Origin == r.Request.Origin && !a.Answered[q.r.ID] {
			return // the next of its calls is asked first
		}
	}
	a.d.host.BackToView(r.Conversation, strings.TrimPrefix(r.Request.Origin, conversation.ViewOrigin))
}

// localHintsNote says where a built-in tool's claims come from.
const localHintsNote = "This tool comes from a definition file of Deckhand's built-in tools; its \"annotations\" say this. " +
	"Without them a tool is taken to change things: \"annotations\": {\"read_only\": true} marks one that changes nothing, " +
	"\"open_world\": false one that stays on this machine (`deckhand tools list` names its file)."

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

// A call's arguments as the approval shows them: one row per argument,
// its key and the start of its value, so that no argument hides below
// another's long value (a 200-line first argument once pushed a second,
// dangerous one below the fold, with only a scroll bar to hint at it). A
// long value is folded to its first lines, with a button saying how much
// more there is, which opens it in place: what is shown is never a part of
// the call passed off as the whole.

// An argRow is one argument of the call shown.
type argRow struct {
	Key   *widget.Label
	Value *widget.RichText
	More  *widgets.RingButton // nil when the value is shown whole
	whole string              // the value in full, as shown when opened
	head  string              // its start, shown while folded
	start string              // its start on one line, for argStartsLine
}

// argFold is how much of each value shows while folded.
type argFold struct {
	lines int // lines of a value
	runes int // characters of a value (a long line wraps to many)
}

// foldFor is the fold for n arguments in a window of height h: in a small
// window (the quick prompt's, 640×480) one line of each, else a few.
func foldFor(n int, h float32) argFold {
	switch {
	case h < 560:
		return argFold{lines: 1, runes: 90}
	case n <= 3:
		return argFold{lines: 4, runes: 320}
	}
	return argFold{lines: 2, runes: 160}
}

// argEntry is a key and its value as JSON, in the call's order.
type argEntry struct {
	key string
	raw json.RawMessage
}

// argEntries reads the arguments' object, keeping its keys' order (the
// model's); ok is false when the arguments are not a JSON object.
func argEntries(raw []byte) (out []argEntry, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, argEntry{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, false
	}
	return out, true
}

// argText is a value as a person reads it: a string's text itself (its
// lines as lines), anything else as indented JSON; cleaned.
func argText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return clean.Text(s)
	}
	return clean.Text(tools.PrettyJSON(raw))
}

// foldText is text's start within f, and how much is left out ("" when
// nothing is).
func foldText(text string, f argFold) (head, rest string) {
	lines := strings.Split(text, "\n")
	n := min(len(lines), f.lines)
	head = strings.Join(lines[:n], "\n")
	r := []rune(head)
	cut := len(r) > f.runes
	if cut {
		head = string(r[:f.runes]) + "…"
	}
	switch more := len(lines) - n; {
	case more > 0:
		return head, fmt.Sprintf("%d %s", more, widgets.Plural(more, "more line", "more lines"))
	case cut:
		left := len([]rune(text)) - f.runes
		return head, fmt.Sprintf("%d %s", left, widgets.Plural(left, "more character", "more characters"))
	}
	return head, ""
}

// argsView lays out the arguments (raw JSON) for a window of height h: a
// row per key of an object; anything else (not an object, not JSON) as one
// value.
func argsView(raw []byte, h float32) (fyne.CanvasObject, []*argRow) {
	entries, ok := argEntries(raw)
	f := foldFor(len(entries), h)
	if !ok {
		text := clean.Text(tools.PrettyArgs(raw))
		r := newArgRow("", text, f)
		return container.NewVBox(r.object()), []*argRow{r}
	}
	if len(entries) == 0 {
		_, none := widgets.Subtle("No arguments.")
		return none, nil
	}
	var rows []*argRow
	var objs []fyne.CanvasObject
	for _, e := range entries {
		r := newArgRow(e.key, argText(e.raw), f)
		r.start = argStart(e.raw)
		rows = append(rows, r)
		objs = append(objs, r.object())
	}
	return container.NewVBox(objs...), rows
}

// argKeyMax is the longest key shown beside its value; a longer one goes
// above it, whole.
const argKeyMax = 24

func newArgRow(key, text string, f argFold) *argRow {
	r := &argRow{whole: text}
	r.head, r.More = text, nil
	head, rest := foldText(text, f)
	r.Value = widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyleCodeBlock, Text: head})
	// Between words, as the tool cards wrap: breaking at the edge cut
	// words in two ("the long argu" / "ment") in the quick prompt. A word
	// longer than the line is still broken where it reaches the edge.
	r.Value.Wrapping = fyne.TextWrapWord
	if rest != "" {
		r.head = head
		r.More = widgets.NewRingButton(rest, nil)
		r.More.Importance = widget.LowImportance
		folded := true
		r.More.OnTapped = func() {
			folded = !folded
			shown, label := r.whole, "Fold"
			if folded {
				shown, label = r.head, rest
			}
			r.Value.Segments[0].(*widget.TextSegment).Text = shown
			r.Value.Refresh()
			r.More.SetText(label)
		}
	}
	if key != "" {
		r.Key = widget.NewLabelWithStyle(clean.Line(key), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		r.Key.Wrapping = fyne.TextWrapBreak
	}
	return r
}

// object is the row, one line while folded: the key, the start of its
// value, and the button that opens it ("199 more lines"). A long key goes
// above, whole.
func (r *argRow) object() fyne.CanvasObject {
	var more fyne.CanvasObject
	if r.More != nil {
		more = container.NewVBox(r.More) // at the top, beside the value's first line
	}
	value := container.NewBorder(nil, nil, nil, more, r.Value)
	switch {
	case r.Key == nil:
		return value
	case len([]rune(r.Key.Text)) > argKeyMax:
		return container.NewVBox(r.Key, value)
	}
	r.Key.Wrapping = fyne.TextWrapOff
	return container.NewBorder(nil, nil, container.NewVBox(r.Key), nil, value)
}

// argStartMax is the most of a value argStartsLine shows.
const argStartMax = 32

// argStart is the start of a value (raw JSON) on one line: a string's
// first line, quoted, anything else as compact JSON; cut at argStartMax
// characters, with "…" when cut.
func argStart(raw json.RawMessage) string {
	var s string
	quote := json.Unmarshal(raw, &s) == nil
	if !quote {
		var buf bytes.Buffer
		if json.Compact(&buf, raw) != nil {
			buf.Reset()
			buf.Write(raw)
		}
		s = buf.String()
	}
	first, _, more := strings.Cut(clean.Text(s), "\n")
	first = clean.Line(first)
	if r := []rune(first); len(r) > argStartMax {
		first, more = string(r[:argStartMax]), true
	}
	if more {
		first += "…"
	}
	if quote {
		return "\u201c" + first + "\u201d"
	}
	return first
}

// argStartsLine names every argument with the start of its value, for
// below the scroll when their rows do not all fit in the window (the quick
// prompt's leaves the call some 170 px): what the call is about stays in
// sight above the buttons, each value whole a scroll away.
func argStartsLine(rows []*argRow) (*widget.Label, fyne.CanvasObject) {
	parts := make([]string, 0, len(rows))
	for _, r := range rows {
		if r.Key != nil {
			parts = append(parts, r.Key.Text+": "+r.start)
		}
	}
	l, obj := widgets.Caption(fmt.Sprintf("%d %s (scroll to see each whole): %s", len(parts), widgets.Plural(len(parts), "argument", "arguments"), strings.Join(parts, " · ")))
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.WarningImportance
	return l, obj
}
