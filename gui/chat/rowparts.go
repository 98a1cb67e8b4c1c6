package chat

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
	"deckhand/gui/widgets/richtext"
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

func (h *HeaderView) view() fyne.CanvasObject { return h.Obj }

func (h *HeaderView) set(r transcript.Row) {
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

// TextView: a block of Markdown. The person's messages sit on a tinted
// background, the model's on none.
type TextView struct {
	obj   fyne.CanvasObject
	Bg    *canvas.Rectangle
	RT    *richtext.MDText
	sel   *richtext.SelText
	src   string
	user  bool
	plain bool // shown as written (Row.Plain)
	cont  bool // goes on with the paragraph of the row before (Row.Cont)
	// lead: it goes on on the last line of the row before, after a blank
	// this wide; under: the row after goes on on its last line (flow.go);
	// segs are its segments without the blank.
	lead  float32
	under bool
	segs  []widget.RichTextSegment
	rv    *RowView
}

func newTextView(r *RowView) *TextView {
	t := &TextView{Bg: canvas.NewRectangle(color.Transparent), RT: richtext.NewMDText(), rv: r}
	t.Bg.CornerRadius = theme.InputRadiusSize()
	t.RT.Wrapping = fyne.TextWrapWord
	t.RT.Wheel = r.Wheel.Scrolled // over a wide table: the transcript moves
	t.sel = richtext.NewSelText(&r.cv.Sel, t.RT, func() int { return r.ID })
	t.sel.Source = func() string {
		if t.plain {
			return t.src // as typed
		}
		return "" // Markdown: its source is not what shows
	}
	t.obj = indented(container.New(goOn{t}, t.Bg, t.sel))
	return t
}

// goOn lays a text block out, its background and its text; a block that
// goes on with the paragraph of the row before (a paragraph longer than
// transcript.MaxBlock, cut in rows) is drawn on from the row before's
// last line, at the distance of a paragraph's lines (pull): a gap and a
// blank line showed there, mid-sentence; one that goes on on that line
// (a lead, flow.go) is drawn a line higher still, over it. Its
// background reaches up to the row before's, over the list's gap between
// them and its rounded corners.
type goOn struct{ t *TextView }

// pull is how far a block that goes on is drawn above its row: the
// rows' gap, the list's padding and the rich texts' inner paddings below
// the one and above the other (a rich text's wrapped lines have no
// spacing between them).
func pull() float32 {
	return theme.Padding() + 2*theme.InnerPadding()
}

// up is how far the text is drawn above the block. One that goes on on
// the row before's last line begins half way down that line (see down),
// and is drawn over it.
func (t *TextView) up() float32 {
	switch {
	case t.lead > 0:
		return theme.InnerPadding() + linePitch()/2
	case t.cont:
		return pull()
	}
	return 0
}

// down is how far the text reaches below the block: when the row after
// goes on on its last line, the block ends half way down that line (the
// rest of it, the text's padding below it and the list's gap are the
// next row's). The list shows a row from the first pixel of it in view:
// the line, half drawn by each row, shows with one row alone only when
// more than half of it is out of view, at the top or the bottom. (Ending
// below the line, the row before could be shown with the line in full
// view at the bottom while the row after was not: the line held the
// words of the row before alone, as though cut.)
func (t *TextView) down() float32 {
	if t.under {
		return theme.InnerPadding() + theme.Padding() + linePitch()/2
	}
	return 0
}

func (l goOn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	var bgUp, bgDown float32
	up, down := l.t.up(), l.t.down()
	switch {
	case l.t.lead > 0:
		// Below the line it shares with the row before, which the row
		// before's background reaches over: drawn over the row before,
		// it hid the lower half of its words there.
		bgUp = -linePitch() / 2
	case l.t.cont:
		bgUp = theme.Padding() + l.t.Bg.CornerRadius
	}
	if l.t.under {
		bgDown = theme.Padding() + linePitch()/2 + l.t.Bg.CornerRadius
	}
	bg, text := objs[0], objs[1]
	bg.Move(fyne.NewPos(0, -bgUp))
	bg.Resize(fyne.NewSize(size.Width, size.Height+bgUp+bgDown))
	text.Move(fyne.NewPos(0, -up))
	text.Resize(fyne.NewSize(size.Width, size.Height+up+down))
}

func (l goOn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := objs[1].MinSize()
	s.Height = max(s.Height-l.t.up()-l.t.down(), 0)
	return s
}

func (t *TextView) selectable() *richtext.SelText { return t.sel }

func (t *TextView) view() fyne.CanvasObject { return t.obj }

func (t *TextView) set(r transcript.Row) {
	t.cont = r.Cont
	lead := t.rv.flow.lead
	if under := t.rv.flow.under; under != t.under {
		t.under = under
		widgets.Relayout(t.obj)
	}
	if user := r.Role == "user"; user != t.user || t.src == "" {
		t.user = user
		t.Bg.FillColor = color.Transparent
		if user {
			t.Bg.FillColor = theme.Color(theme.ColorNameInputBackground)
		}
		t.Bg.Refresh()
	}
	if r.Text != t.src || r.Plain != t.plain || lead != t.lead {
		if r.Text != t.src || r.Plain != t.plain || t.segs == nil {
			t.segs = rowSegments(r.Plain, r.Text)
		}
		t.src, t.plain, t.lead = r.Text, r.Plain, lead
		t.RT.Segments = richtext.WithLead(t.segs, lead)
		t.sel.Gap = 0
		if lead > 0 {
			t.sel.Gap = spaceWidth()
		}
		if !r.Plain {
			richtext.FitTables(t.RT)
		}
		t.RT.Refresh()
	}
}

// rowSegments are the segments of a text row's text: the person's words
// as typed, line breaks kept (plain: not Markdown, whose single newlines
// join lines); else Markdown, its line breaks kept as an answer's are in
// chat apps.
func rowSegments(plain bool, text string) []widget.RichTextSegment {
	if plain {
		return plainSegments(text)
	}
	return richtext.MarkdownSegments(text)
}

// plainSegments shows text as it is: a paragraph a line (an empty line
// keeps its height).
func plainSegments(text string) []widget.RichTextSegment {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	segs := make([]widget.RichTextSegment, 0, len(lines))
	for _, l := range lines {
		if l == "" {
			l = " "
		}
		segs = append(segs, &widget.TextSegment{Text: l, Style: widget.RichTextStyleParagraph})
	}
	return segs
}

// codeView: a code block, drawn as richtext.CodeBox draws one (the quick
// prompt draws its answers' code so too), selectable with the chat's
// selection. A block longer than transcript.MaxBlock is cut in rows at
// line ends: the rows after the first (Row.Cont) are drawn as the same
// box, with no header and no gap, and the first's Copy copies the whole
// block.
type codeView struct {
	obj fyne.CanvasObject
	box *richtext.CodeBox
	sel *richtext.SelText
	bg  *canvas.Rectangle
	top *fyne.Container // the language and Copy: the first row's alone
}

func newCodeView(r *RowView) *codeView {
	rt := richtext.NewMDText()
	c := &codeView{}
	c.sel = richtext.NewSelText(&r.cv.Sel, rt, func() int { return r.ID })
	c.box = richtext.NewCodeBox(rt, c.sel)
	c.sel.Source = c.box.Text
	c.box.Copy.OnTapped = func() { r.copy(r.cv.wholeCode(r.ID, c.box.Text()), c.box.Copy) }
	c.bg, c.top = c.box.Bg, c.box.Top
	c.obj = indented(c.box.Object())
	return c
}

// wholeCode is the code block whose first row is row i, its rows joined
// as they were in the message (text: row i's, if the rows moved on).
func (cv *View) wholeCode(i int, text string) string {
	rows := cv.Rows
	if i < 0 || i >= len(rows) || rows[i].Kind != transcript.Code || rows[i].Text != text {
		return text
	}
	var b strings.Builder
	b.WriteString(text)
	for j := i + 1; j < len(rows) && rows[j].Kind == transcript.Code && rows[j].Cont; j++ {
		b.WriteString(rows[j].Join)
		b.WriteString(rows[j].Text)
	}
	return b.String()
}

func (c *codeView) selectable() *richtext.SelText { return c.sel }

func (c *codeView) view() fyne.CanvasObject { return c.obj }

// set shows row r; a row after a cut goes on from the row before's last
// line at the code's line pitch (pull), over the list's gap.
func (c *codeView) set(r transcript.Row) {
	c.box.SetCont(r.Cont, pull())
	c.box.Set(r.Text, r.Lang)
}

// noticeView: a note from Deckhand, an error in the error colour; the
// last run's failure offers Retry, its Stop Continue and Retry, and a
// retry's notice, while its run waits to try again, Retry now.
type noticeView struct {
	obj         fyne.CanvasObject
	icons       *widgets.StatusIcons
	icon        *widget.Icon
	rt          *widget.RichText
	seg         *widget.TextSegment
	actions     *fyne.Container
	cont, retry *widget.Button
	key         *widget.Button // the settings, at the API key or the model's address or name
	now         *widget.Button // Retry now: the run's next try goes at once
	action      string
	run         string // the run that waits, for now
	try         int    // the try it waits for
}

func newNoticeView(r *RowView) *noticeView {
	n := &noticeView{icons: &r.cv.icons, icon: widget.NewIcon(theme.InfoIcon())}
	// Dimmed (or in the error colour) beside its icon, not italic as well:
	// italic is a text style of its own, which Fyne parses its fonts again
	// for (about 8.7 MB of heap), and the chat measures a sample notice
	// each time its width or text size changes, whether one is shown or
	// not (TestPanelTextStyles).
	n.seg = &widget.TextSegment{Style: widget.RichTextStyle{ColorName: theme.ColorNamePlaceHolder}}
	n.rt = widget.NewRichText(n.seg)
	n.rt.Wrapping = fyne.TextWrapWord
	n.cont = widget.NewButtonWithIcon("Continue", theme.MediaPlayIcon(), func() { r.cv.Control(Continue, "", "") })
	n.retry = widget.NewButtonWithIcon("Retry", theme.ViewRefreshIcon(), func() { r.cv.Control(Retry, "", "") })
	n.key = widget.NewButtonWithIcon("Settings", theme.SettingsIcon(), func() {
		if n.action == transcript.ActionKey {
			r.cv.host.ShowKeySettings()
		} else {
			r.cv.host.ShowModelSettings(n.action)
		}
	})
	n.now = widget.NewButtonWithIcon("Retry now", theme.MediaFastForwardIcon(), func() { r.cv.retryNow(n.run, n.try) })
	n.actions = container.NewHBox(n.cont, n.key, n.retry, n.now)
	n.actions.Hide()
	n.obj = indented(container.New(&noticeLayout{}, n.icon, n.rt, n.actions))
	return n
}

// noticeLayout puts a notice's icon, its text and its buttons side by
// side, or, where the buttons would leave the text less than half again
// their width, the buttons under the text: at 640×480 a model's error
// wrapped into a column of 14 lines 190 px wide beside Settings and
// Retry, taller than the chat. Its height is the text's wrapped at the
// width laid out last (the chat measures a row by laying it out).
type noticeLayout struct{ w float32 }

// stacked reports whether, at width w, the buttons go under the text.
func (l *noticeLayout) stacked(objs []fyne.CanvasObject, w float32) bool {
	icon, actions := objs[0].MinSize(), objs[2]
	if !actions.Visible() {
		return false
	}
	aw := actions.MinSize().Width
	return w-icon.Width-2*theme.Padding()-aw < 1.5*aw
}

func (l *noticeLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.w = size.Width
	icon, rt, actions := objs[0], objs[1], objs[2]
	pad, is, as := theme.Padding(), icon.MinSize(), actions.MinSize()
	left := is.Width + pad
	if l.stacked(objs, size.Width) {
		rt.Resize(fyne.NewSize(size.Width-left, rt.MinSize().Height))
		rt.Resize(fyne.NewSize(size.Width-left, rt.MinSize().Height)) // wrapped at its width
		rt.Move(fyne.NewPos(left, 0))
		icon.Resize(is)
		icon.Move(fyne.NewPos(0, (rt.Size().Height-is.Height)/2))
		actions.Resize(as)
		actions.Move(fyne.NewPos(left, rt.Size().Height+pad))
		return
	}
	var right float32
	if actions.Visible() {
		right = as.Width + pad
		actions.Resize(as)
		actions.Move(fyne.NewPos(size.Width-as.Width, (size.Height-as.Height)/2))
	}
	rt.Resize(fyne.NewSize(size.Width-left-right, size.Height))
	rt.Move(fyne.NewPos(left, 0))
	icon.Resize(is)
	icon.Move(fyne.NewPos(0, (size.Height-is.Height)/2))
}

func (l *noticeLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	icon, rt, actions := objs[0].MinSize(), objs[1].MinSize(), objs[2]
	pad := theme.Padding()
	if l.w > 0 && l.stacked(objs, l.w) {
		as := actions.MinSize()
		return fyne.NewSize(icon.Width+pad+max(rt.Width, as.Width), rt.Height+pad+as.Height)
	}
	w, h := icon.Width+pad+rt.Width, max(icon.Height, rt.Height)
	if actions.Visible() {
		as := actions.MinSize()
		w, h = w+pad+as.Width, max(h, as.Height)
	}
	return fyne.NewSize(w, h)
}

func (n *noticeView) view() fyne.CanvasObject { return n.obj }

func (n *noticeView) set(r transcript.Row) {
	color := theme.ColorNamePlaceHolder
	widgets.SetIcon(n.icon, theme.InfoIcon())
	if r.Error {
		color = theme.ColorNameError
		widgets.SetIcon(n.icon, n.icons.Failed)
	}
	widgets.SetSegment(n.rt, n.seg, strings.TrimSpace(r.Text), color)
	widgets.SetVisible(n.cont, r.Action == transcript.ActionContinue)
	n.action, n.run, n.try = r.Action, r.Run, r.Try
	widgets.SetVisible(n.retry, r.Action != transcript.ActionRetryNow)
	widgets.SetVisible(n.now, r.Action == transcript.ActionRetryNow)
	widgets.SetVisible(n.key, r.Action == transcript.ActionKey || r.Action == transcript.ActionAddress || r.Action == transcript.ActionModel)
	widgets.SetVisible(n.actions, r.Action != "")
}
