package chat

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/transcript"
)

// HeaderView: who speaks, when, and a copy button for the whole message.
// The person's messages also have Delete, the last one Retry and Edit, and
// a message with versions ‹ n/m ›; an answer's says, while the pointer is
// on it, which model wrote it, its tokens and its speed.
type HeaderView struct {
	Obj                 fyne.CanvasObject
	icon                *widget.Icon
	who                 *widget.Label
	when                *widget.Label
	cp                  *widgets.TipButton
	Retry, Edit, Delete *widgets.TipButton
	// ‹ n/m ›: the versions of the person's message.
	Prev, Next     *widgets.TipButton
	Version        *widget.Label
	toPrev, toNext string
	// Info: the answer's model, tokens and speed, shown on hover.
	Info     *widget.Label
	infoText string
	hovered  bool
	// left and right: the line's two ends (fit); wide is the right
	// end's width with Retry's and Edit's words, as last measured.
	left, right *fyne.Container
	whenObj     fyne.CanvasObject
	wide        float32
	text, run   string
	cv          *View
}

func newHeaderView(r *RowView) *HeaderView {
	h := &HeaderView{icon: widget.NewIcon(nil), who: widget.NewLabel(""), cv: r.cv}
	h.who.TextStyle.Bold = true
	var when fyne.CanvasObject
	h.when, when = widgets.Caption("")
	// Each names itself while the pointer rests on it (Retry and Edit
	// lose their words in a narrow window).
	tips := r.cv.Tips
	h.cp = widgets.NewTipButton("", theme.ContentCopyIcon(), "Copy message", tips, nil)
	h.cp.OnTapped = func() { r.copy(h.text, &h.cp.Button) }
	h.Retry = widgets.NewTipButton("Retry", theme.ViewRefreshIcon(), "Retry", tips, func() { r.cv.Control(Retry, h.run, h.text) })
	h.Edit = widgets.NewTipButton("Edit", theme.DocumentCreateIcon(), "Edit", tips, func() { r.cv.Control(Edit, h.run, h.text) })
	h.Delete = widgets.NewTipButton("", theme.DeleteIcon(), "Delete message", tips, func() { r.cv.Control(Remove, h.run, h.text) })
	h.Prev = widgets.NewTipButton("‹", nil, "Previous version", tips, func() { r.cv.Control(Choose, h.toPrev, "") })
	h.Next = widgets.NewTipButton("›", nil, "Next version", tips, func() { r.cv.Control(Choose, h.toNext, "") })
	h.Version = widget.NewLabel("")
	for _, b := range []*widgets.TipButton{h.cp, h.Retry, h.Edit, h.Delete, h.Prev, h.Next} {
		b.Importance = widget.LowImportance
	}
	var info fyne.CanvasObject
	h.Info, info = widgets.Caption("")
	h.Info.Truncation = fyne.TextTruncateEllipsis
	h.whenObj = when
	h.left = container.NewHBox(h.icon, h.who, when, h.Prev, h.Version, h.Next)
	h.right = container.NewHBox(h.Retry, h.Edit, h.Delete, h.cp)
	line := container.NewBorder(nil, nil, h.left, h.right, info)
	h.Obj = widgets.NewHoverArea(container.NewPadded(container.New(fitLine{h}, line)), func() { h.hovered = true; h.showInfo() }, func() { h.hovered = false; h.showInfo() })
	return h
}

// View is the header's line.
func (h *HeaderView) View() fyne.CanvasObject { return h.Obj }

// Set shows row r.
func (h *HeaderView) Set(r transcript.Row) {
	if r.Role == "user" {
		widgets.SetIcon(h.icon, theme.AccountIcon())
		widgets.SetText(h.who, "You")
	} else {
		widgets.SetIcon(h.icon, theme.ComputerIcon())
		widgets.SetText(h.who, "Deckhand")
	}
	when := ""
	if !r.Time.IsZero() {
		when = r.Time.Format("15:04")
	}
	widgets.SetText(h.when, when)
	h.text, h.run = r.Text, r.Run
	widgets.SetVisible(h.cp, r.Text != "") // hidden while the answer streams
	// While an answer is being written the conversation refuses them:
	// they show once it is over.
	idle := !h.cv.running
	widgets.SetVisible(h.Retry, r.Run != "" && r.Last && idle)
	widgets.SetVisible(h.Edit, r.Run != "" && r.Last && idle)
	widgets.SetVisible(h.Delete, r.Run != "" && idle)
	h.toPrev, h.toNext = r.Prev, r.Next
	h.infoText = r.Info
	h.showInfo()
	versions := r.Versions > 1
	if versions {
		widgets.SetText(h.Version, fmt.Sprintf("%d/%d", r.Version, r.Versions))
	}
	widgets.SetVisible(h.Version, versions)
	widgets.SetVisible(h.Prev, versions)
	widgets.SetVisible(h.Next, versions)
	setEnabled(&h.Prev.Button, idle && r.Prev != "")
	setEnabled(&h.Next.Button, idle && r.Next != "")
}

// Away hides what the headers show on hover, and a button's tip: the
// window lost the focus (the pointer went to another window, or to the
// tray), and Fyne says nothing when the pointer leaves a window, so the
// info stayed.
func (cv *View) Away() {
	cv.Tips.Dismiss()
	for _, v := range cv.Views {
		if h, ok := v.Parts[transcript.Header].(*HeaderView); ok && h.hovered {
			h.hovered = false
			h.showInfo()
		}
	}
}

// fitLine lays the header's line out at its width, after fit.
type fitLine struct{ h *HeaderView }

func (l fitLine) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	changed := l.h.fit(size.Width)
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
		if changed {
			widgets.Relayout(o)
		}
	}
}

func (l fitLine) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

// fit makes the line's two ends fit its width with a gap between them:
// at 640x480 and 128% text, ‹ 1/2 › ran into Retry, then over it. Retry
// and Edit lose their words first (their icons stay), then the time
// goes. It reports whether it changed anything.
func (h *HeaderView) fit(width float32) bool {
	words := h.Retry.Text != ""
	if words {
		h.wide = h.right.MinSize().Width
	}
	gap := 2 * theme.Padding()
	leftW := h.left.MinSize().Width
	if !h.whenObj.Visible() {
		leftW += h.whenObj.MinSize().Width + theme.Padding()
	}
	wantWords := leftW+h.wide+gap <= width
	narrow := h.wide
	if wantWords != words {
		retry, edit := "", ""
		if wantWords {
			retry, edit = "Retry", "Edit"
		}
		h.Retry.SetText(retry)
		h.Edit.SetText(edit)
	}
	if !wantWords {
		narrow = h.right.MinSize().Width
	}
	wantWhen := leftW+narrow+gap <= width
	changed := wantWords != words || wantWhen != h.whenObj.Visible()
	widgets.SetVisible(h.whenObj, wantWhen)
	return changed
}

// showInfo shows the answer's info while the pointer is on its header.
// The label stays shown, empty when the pointer is elsewhere: shown and
// hidden, it was not drawn once shown on the header of the answer after
// a tool call (and of every answer in a chat reopened from the log),
// though the screen dump found it shown.
func (h *HeaderView) showInfo() {
	text := ""
	if h.hovered {
		text = fitInfo(h.infoText, h.Info.Size().Width, func(s string) float32 {
			return fyne.MeasureText(s, theme.Size(h.Info.SizeName), h.Info.TextStyle).Width + 2*theme.InnerPadding()
		})
	}
	widgets.SetText(h.Info, text)
}

// fitInfo is an answer's info (model · tokens · speed) as it fits in
// width: whole, else without the model (the status line names it), then
// in short words, then the speed alone; cut only if even that does not
// fit. At 640×480 and 128% the line was cut before the speed.
func fitInfo(info string, width float32, measure func(string) float32) string {
	if width <= 0 || measure(info) <= width {
		return info
	}
	parts := strings.Split(info, " · ")
	var tries []string
	if len(parts) > 1 {
		rest := parts[1:]
		tries = append(tries, strings.Join(rest, " · "))
		short := strings.NewReplacer(" out tokens", " out", " tokens/s", " tok/s").Replace(strings.Join(rest, " · "))
		tries = append(tries, short)
		if last := rest[len(rest)-1]; strings.HasSuffix(last, "tokens/s") {
			tries = append(tries, last)
		}
	}
	for _, t := range tries {
		if measure(t) <= width {
			return t
		}
	}
	if len(tries) > 0 {
		return tries[len(tries)-1]
	}
	return info
}

func setEnabled(b *widget.Button, on bool) {
	if on == b.Disabled() {
		if on {
			b.Enable()
		} else {
			b.Disable()
		}
	}
}
