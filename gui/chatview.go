package gui

import (
	"fmt"
	"image/color"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/transcript"
)

// chatView shows one conversation's transcript in a virtualized list: only
// the rows on screen have widgets. A row's height is estimated from its
// text until it is first shown, then measured (laid out off screen at the
// list's width) and corrected; rows that change while streaming are
// measured at once. Opening a long conversation lays out one screenful,
// not every message, and scrolling lays out only what comes into view.
type chatView struct {
	ui       *UI
	list     *transcriptList
	rows     []transcript.Row
	heights  []float32
	measured []bool // heights[i] is exact at the current width
	width    float32
	measure  *rowView   // lays rows out off screen, to learn their height
	views    []*rowView // every row view the list made (on screen or pooled)
	est      estimator
	icons    rowIcons
	follow   bool              // keep the end in view as rows arrive
	empty    fyne.CanvasObject // what an empty conversation shows

	resizing bool         // a re-measure at a new width is scheduled
	fixes    map[int]bool // rows shown with an estimated height
	fixing   bool         // fixHeights is scheduled
}

func newChatView(u *UI) *chatView {
	cv := &chatView{ui: u, follow: true, fixes: map[int]bool{}, icons: newRowIcons()}
	cv.measure = newRowView(cv)
	cv.list = cv.newList()
	hint, obj := subtle("Ask anything. The model can use the tools of your MCP servers;\n" +
		"each call waits for your approval unless a rule in Settings allows it.")
	hint.Alignment = fyne.TextAlignCenter
	cv.empty = container.NewCenter(obj)
	return cv
}

// transcriptList is a widget.List that re-measures its rows when its width
// changes.
type transcriptList struct {
	widget.List
	cv *chatView
	// drawn: the list has a renderer, hence a scroller to move. A list
	// that was never on screen (the first-run panel stands in its place)
	// has none, and Fyne's ScrollToBottom would dereference it.
	drawn bool
	toEnd bool // scroll to the end once drawn and laid out
}

func (cv *chatView) newList() *transcriptList {
	l := &transcriptList{cv: cv}
	l.Length = func() int { return len(cv.rows) }
	l.CreateItem = func() fyne.CanvasObject {
		v := newRowView(cv)
		cv.views = append(cv.views, v)
		return v
	}
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		if id >= len(cv.rows) {
			return
		}
		o.(*rowView).show(id, cv.rows[id])
		if !cv.measured[id] {
			cv.fixLater(id)
		}
	}
	l.HideSeparators = true
	l.ExtendBaseWidget(l)
	for i, h := range cv.heights {
		l.SetItemHeight(i, h) // cheap: the list is not drawn yet
	}
	return l
}

func (l *transcriptList) CreateRenderer() fyne.WidgetRenderer {
	r := l.List.CreateRenderer()
	l.drawn = true
	return r
}

func (l *transcriptList) Resize(s fyne.Size) {
	old := l.Size().Width
	l.List.Resize(s)
	if s.Width != old && s.Width > 0 {
		l.cv.widthChanged(s.Width)
	}
	if l.toEnd && l.drawn && s.Height > 0 {
		l.toEnd = false
		l.List.ScrollToBottom()
	}
}

// ScrollToBottom keeps the end in view; a list not yet drawn (or laid
// out) scrolls when it is.
func (l *transcriptList) ScrollToBottom() {
	if !l.drawn || l.Size().Height <= 0 {
		l.toEnd = true
		return
	}
	l.toEnd = false
	l.List.ScrollToBottom()
}

// ScrollToOffset moves the view; a list not drawn yet has no view to move.
func (l *transcriptList) ScrollToOffset(offset float32) {
	if l.drawn {
		l.List.ScrollToOffset(offset)
	}
}

// Tapping a row must not select it: the transcript is read, not picked.
func (l *transcriptList) Select(widget.ListItemID) {}

// reset shows a whole transcript (another conversation, or a redraw),
// scrolled to its end.
func (cv *chatView) reset(rows []transcript.Row) {
	cv.rows = rows
	setVisible(cv.empty, len(rows) == 0)
	cv.estimateAll()
	cv.measureEnd()
	cv.replaceList()
	cv.follow = true
	cv.list.ScrollToBottom()
}

// estimateAll guesses every row's height from its text.
func (cv *chatView) estimateAll() {
	cv.heights = make([]float32, len(cv.rows))
	cv.measured = make([]bool, len(cv.rows))
	clear(cv.fixes)
	w := cv.listWidth()
	for i, r := range cv.rows {
		cv.heights[i] = cv.est.height(cv, r, w)
	}
}

// measureEnd measures the rows of the last screenful and a half exactly:
// what the person sees when a conversation opens.
func (cv *chatView) measureEnd() {
	want := max(cv.list.Size().Height, 600) * 1.5
	for i := len(cv.rows) - 1; i >= 0 && want > 0; i-- {
		cv.heights[i], cv.measured[i] = cv.measureRow(cv.rows[i]), true
		want -= cv.heights[i]
	}
}

// replaceList swaps in a fresh list with every height set: setting them on
// a list that is on screen would redraw it once per row.
func (cv *chatView) replaceList() {
	old := cv.list
	cv.views = nil
	cv.list = cv.newList()
	cv.list.Resize(old.Size())
	for i, o := range cv.ui.body.Objects {
		if o == fyne.CanvasObject(old) {
			cv.ui.body.Objects[i] = cv.list
			cv.ui.body.Refresh()
		}
	}
}

// update applies a frame's changed rows.
func (cv *chatView) update(n int, changed map[int]transcript.Row) {
	if n == len(cv.rows) && len(changed) == 0 {
		return
	}
	follow := cv.atEnd()
	setVisible(cv.empty, n == 0)
	if n < len(cv.rows) {
		cv.rows, cv.heights, cv.measured = cv.rows[:n], cv.heights[:n], cv.measured[:n]
	}
	for len(cv.rows) < n {
		cv.rows = append(cv.rows, transcript.Row{})
		cv.heights = append(cv.heights, 0)
		cv.measured = append(cv.measured, false)
	}
	for i, r := range changed {
		cv.rows[i] = r
		// Redraw the row's view alone (RefreshItem would redraw the whole
		// list, at a cost that grows with its length), and learn the row's
		// height from it; a row not on screen is measured off screen.
		v := cv.viewOf(i)
		if v != nil {
			v.show(i, r)
		}
		h := cv.heightOf(v, r)
		cv.measured[i] = true
		if h != cv.heights[i] {
			cv.heights[i] = h
			cv.list.SetItemHeight(i, h)
		}
	}
	if len(changed) == 0 {
		cv.list.Refresh()
	}
	if follow || cv.follow {
		cv.follow = false
		cv.list.ScrollToBottom()
	}
}

// fixLater measures a row shown with an estimated height once the list is
// done drawing (changing a height while it draws would redraw it within).
func (cv *chatView) fixLater(id int) {
	cv.fixes[id] = true
	if !cv.fixing {
		cv.fixing = true
		cv.ui.post(cv.fixHeights)
	}
}

// fixHeights replaces the estimates of the rows just shown with their
// measured heights, keeping the rows in view where they were.
func (cv *chatView) fixHeights() {
	cv.fixing = false
	if len(cv.fixes) == 0 {
		return
	}
	end := cv.atEnd()
	offset := cv.list.GetScrollOffset()
	pad := theme.Padding()
	var top, shift float32
	for i := range cv.rows {
		if cv.fixes[i] && !cv.measured[i] {
			h := cv.heightOf(cv.viewOf(i), cv.rows[i])
			cv.measured[i] = true
			if d := h - cv.heights[i]; d != 0 {
				if top < offset {
					shift += d // a row above the view grew: move the view with it
				}
				cv.heights[i] = h
				cv.list.SetItemHeight(i, h)
			}
		}
		top += cv.heights[i] + pad
	}
	clear(cv.fixes)
	switch {
	case end:
		cv.list.ScrollToBottom()
	case shift != 0:
		cv.list.ScrollToOffset(offset + shift)
	}
}

// atEnd reports whether the end of the transcript is in view (so new rows
// should keep it there).
func (cv *chatView) atEnd() bool {
	pad := theme.Padding()
	total := float32(0)
	for _, h := range cv.heights {
		total += h + pad
	}
	return cv.list.GetScrollOffset()+cv.list.Size().Height >= total-2*pad-40
}

// widthChanged re-measures every row once the width settles (a window being
// dragged wider sends many sizes).
func (cv *chatView) widthChanged(w float32) {
	if cv.resizing {
		return
	}
	cv.resizing = true
	time.AfterFunc(150*time.Millisecond, func() {
		cv.ui.post(func() {
			cv.resizing = false
			cv.remeasure()
		})
	})
}

func (cv *chatView) remeasure() {
	w := cv.list.Size().Width
	if w == cv.width || w <= 0 {
		return
	}
	cv.width = w
	if len(cv.rows) == 0 {
		return
	}
	end := cv.atEnd()
	offset := cv.list.GetScrollOffset()
	cv.estimateAll()
	if end {
		cv.measureEnd()
	}
	cv.replaceList()
	if end {
		cv.list.ScrollToBottom()
	} else {
		cv.list.ScrollToOffset(offset)
	}
}

func (cv *chatView) listWidth() float32 {
	if w := cv.list.Size().Width; w > 0 {
		return w
	}
	return 700 // not laid out yet: remeasure fixes it
}

// viewOf is the list's view of row i, if it has one laid out at the
// list's width.
func (cv *chatView) viewOf(i int) *rowView {
	for _, v := range cv.views {
		if v.id == i && v.Size().Width == cv.list.Size().Width {
			return v
		}
	}
	return nil
}

// heightOf is a row's height: its view's, if it has one (laid out anyway),
// else measured off screen.
func (cv *chatView) heightOf(v *rowView, r transcript.Row) float32 {
	if v != nil && v.row == r {
		return v.MinSize().Height
	}
	return cv.measureRow(r)
}

// measureRow lays a row out at the list's width and returns its height.
func (cv *chatView) measureRow(r transcript.Row) float32 {
	w := cv.listWidth()
	cv.width = w
	m := cv.measure
	m.show(-1, r)
	m.Resize(fyne.NewSize(w, m.MinSize().Height))
	m.box.Refresh()
	return m.MinSize().Height
}

// estimator guesses a row's height from its text, with sizes calibrated by
// measuring sample rows once per width: good enough to place rows that are
// not on screen, and corrected when they are.
type estimator struct {
	width                          float32
	header, text, code, notice     float32 // one-line rows
	line, charW, monoW, textInnerW float32
}

func (e *estimator) calibrate(cv *chatView, w float32) {
	e.width = w
	e.header = cv.measureRow(transcript.Row{Kind: transcript.Header, Role: "assistant", Text: "x"})
	e.text = cv.measureRow(transcript.Row{Kind: transcript.Text, Text: "x"})
	e.code = cv.measureRow(transcript.Row{Kind: transcript.Code, Text: "x"})
	e.notice = cv.measureRow(transcript.Row{Kind: transcript.Notice, Text: "x"})
	e.line = cv.measureRow(transcript.Row{Kind: transcript.Code, Text: "x\nx"}) - e.code
	const sample = "The quick brown fox jumps over the lazy dog, then rests."
	size := theme.TextSize()
	e.charW = fyne.MeasureText(sample, size, fyne.TextStyle{}).Width / float32(len(sample))
	e.monoW = fyne.MeasureText("M", size, fyne.TextStyle{Monospace: true}).Width
	e.textInnerW = w - inset - 4*theme.Padding() - 2*theme.InnerPadding()
}

// lines is how many lines text takes at charW per character.
func (e *estimator) lines(text string, charW float32) float32 {
	per := max(int(e.textInnerW/charW), 10)
	n := 0
	for line := range strings.SplitSeq(text, "\n") {
		n += max(1, (utf8.RuneCountInString(line)+per-1)/per)
	}
	return float32(n)
}

func (e *estimator) height(cv *chatView, r transcript.Row, w float32) float32 {
	if e.width != w {
		e.calibrate(cv, w)
	}
	switch r.Kind {
	case transcript.Header:
		return e.header
	case transcript.Text:
		return e.text + (e.lines(r.Text, e.charW)-1)*e.line
	case transcript.Code:
		return e.code + (e.lines(r.Text, e.monoW)-1)*e.line
	case transcript.Notice:
		return e.notice + (e.lines(r.Text, e.charW)-1)*e.line
	}
	return cv.measureRow(r) // tool cards are few, and too varied to guess
}

// rowView draws one transcript row; the list reuses it for any kind. Its
// parts change only what differs from the row it showed before: a list
// redraws every visible row when one changes, and re-decoding icons or
// re-wrapping unchanged text each time would make that cost grow.
type rowView struct {
	widget.BaseWidget
	cv  *chatView
	id  int
	row transcript.Row
	box *fyne.Container // holds the view of the row's kind

	parts [transcript.Notice + 1]rowPart // by kind, made when first needed
}

// rowPart draws one kind of row.
type rowPart interface {
	set(transcript.Row)
	view() fyne.CanvasObject
}

// newPart makes the part that draws rows of kind k.
func (r *rowView) newPart(k transcript.Kind) rowPart {
	switch k {
	case transcript.Header:
		return newHeaderView(r)
	case transcript.Text:
		return newTextView()
	case transcript.Code:
		return newCodeView(r)
	case transcript.Tool:
		return newToolView(r)
	}
	return newNoticeView(r)
}

// tool is the row's tool card part, if it has drawn one.
func (r *rowView) tool() *toolView {
	t, _ := r.parts[transcript.Tool].(*toolView)
	return t
}

// text is the row's text part, if it has drawn one.
func (r *rowView) text() *textView {
	t, _ := r.parts[transcript.Text].(*textView)
	return t
}

func newRowView(cv *chatView) *rowView {
	r := &rowView{cv: cv, id: -2, box: container.NewStack()}
	r.ExtendBaseWidget(r)
	return r
}

func (r *rowView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.box) }

// show draws row (number id; -1 when measuring).
func (r *rowView) show(id int, row transcript.Row) {
	if id >= 0 && id == r.id && row == r.row {
		return
	}
	r.id, r.row = id, row
	k := min(row.Kind, transcript.Notice)
	if r.parts[k] == nil {
		r.parts[k] = r.newPart(k)
	}
	r.parts[k].set(row)
	obj := r.parts[k].view()
	if len(r.box.Objects) != 1 || r.box.Objects[0] != obj {
		r.box.Objects = []fyne.CanvasObject{obj}
		r.box.Refresh()
		return
	}
	relayout(r.box)
}

// relayout lays out a tree of containers again at their current sizes:
// what changed inside may have changed their children's sizes, which
// Resize (a no-op at the same size) would not notice.
func relayout(o fyne.CanvasObject) {
	c, ok := o.(*fyne.Container)
	if !ok || c.Hidden {
		return
	}
	if c.Layout != nil {
		c.Layout.Layout(c.Objects, c.Size())
	}
	for _, child := range c.Objects {
		relayout(child)
	}
}

func (r *rowView) copy(text string) {
	r.cv.ui.app.Clipboard().SetContent(text)
}

// Setters that refresh a widget only when what it shows changes.

func setText(l *widget.Label, s string) {
	if l.Text != s {
		l.SetText(s)
	}
}

func setIcon(i *widget.Icon, res fyne.Resource) {
	if i.Resource != res {
		i.SetResource(res)
	}
}

func setVisible(o fyne.CanvasObject, visible bool) {
	switch {
	case visible && !o.Visible():
		o.Show()
	case !visible && o.Visible():
		o.Hide()
	}
}

// setSegment sets a one-segment rich text's text and colour.
func setSegment(rt *widget.RichText, seg *widget.TextSegment, text string, color fyne.ThemeColorName) {
	if seg.Text != text || seg.Style.ColorName != color {
		seg.Text, seg.Style.ColorName = text, color
		rt.Refresh()
	}
}

// rowIcons are the row views' themed icons, made once per view: a new
// resource per draw would be decoded again each time. They are made with
// the window, not at package init: looking up a theme icon needs the app,
// and the terminal commands have none.
type rowIcons struct {
	succeeded, failed, denied fyne.Resource
}

func newRowIcons() rowIcons {
	return rowIcons{
		succeeded: theme.NewSuccessThemedResource(theme.ConfirmIcon()),
		failed:    theme.NewErrorThemedResource(theme.ErrorIcon()),
		denied:    theme.NewWarningThemedResource(theme.CancelIcon()),
	}
}

// inset indents a message's blocks under its header.
const inset = 34

type insetLayout struct{ left, right float32 }

func (l insetLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(l.left, 0))
		o.Resize(fyne.NewSize(max(size.Width-l.left-l.right, 0), size.Height))
	}
}

func (l insetLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s.AddWidthHeight(l.left+l.right, 0)
}

func indented(o fyne.CanvasObject) *fyne.Container {
	return container.New(insetLayout{left: inset, right: theme.Padding() * 2}, o)
}

// headerView: who speaks, when, and a copy button for the whole message.
type headerView struct {
	obj  fyne.CanvasObject
	icon *widget.Icon
	who  *widget.Label
	when *widget.Label
	cp   *widget.Button
	text string
}

func newHeaderView(r *rowView) *headerView {
	h := &headerView{icon: widget.NewIcon(nil), who: widget.NewLabel("")}
	h.who.TextStyle.Bold = true
	var when fyne.CanvasObject
	h.when, when = caption("")
	h.cp = widget.NewButtonWithIcon("", theme.ContentCopyIcon(), func() { r.copy(h.text) })
	h.cp.Importance = widget.LowImportance
	h.obj = container.NewPadded(container.NewHBox(h.icon, h.who, when, layout.NewSpacer(), h.cp))
	return h
}

func (h *headerView) view() fyne.CanvasObject { return h.obj }

func (h *headerView) set(r transcript.Row) {
	if r.Role == "user" {
		setIcon(h.icon, theme.AccountIcon())
		setText(h.who, "You")
	} else {
		setIcon(h.icon, theme.ComputerIcon())
		setText(h.who, "Deckhand")
	}
	when := ""
	if !r.Time.IsZero() {
		when = r.Time.Format("15:04")
	}
	setText(h.when, when)
	h.text = r.Text
	setVisible(h.cp, r.Text != "") // hidden while the answer streams
}

// textView: a block of Markdown. The person's messages sit on a tinted
// background, the model's on none.
type textView struct {
	obj  fyne.CanvasObject
	bg   *canvas.Rectangle
	rt   *widget.RichText
	src  string
	user bool
}

func newTextView() *textView {
	t := &textView{bg: canvas.NewRectangle(color.Transparent), rt: widget.NewRichText()}
	t.bg.CornerRadius = theme.InputRadiusSize()
	t.rt.Wrapping = fyne.TextWrapWord
	t.obj = indented(container.NewStack(t.bg, t.rt))
	return t
}

func (t *textView) view() fyne.CanvasObject { return t.obj }

func (t *textView) set(r transcript.Row) {
	if user := r.Role == "user"; user != t.user || t.src == "" {
		t.user = user
		t.bg.FillColor = color.Transparent
		if user {
			t.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
		}
		t.bg.Refresh()
	}
	if r.Text != t.src {
		t.src = r.Text
		t.rt.ParseMarkdown(r.Text)
	}
}

// codeView: a code block, monospace, with its language and a copy button.
type codeView struct {
	obj  fyne.CanvasObject
	lang *widget.Label
	rt   *widget.RichText
	seg  *widget.TextSegment
	text string
}

func newCodeView(r *rowView) *codeView {
	c := &codeView{rt: widget.NewRichText()}
	var lang fyne.CanvasObject
	c.lang, lang = caption("")
	c.seg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	c.rt.Segments = []widget.RichTextSegment{c.seg}
	c.rt.Wrapping = fyne.TextWrapBreak
	cp := widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() { r.copy(c.text) })
	cp.Importance = widget.LowImportance
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	top := container.NewHBox(lang, layout.NewSpacer(), cp)
	c.obj = indented(container.NewStack(bg, container.NewBorder(top, nil, nil, nil, c.rt)))
	return c
}

func (c *codeView) view() fyne.CanvasObject { return c.obj }

func (c *codeView) set(r transcript.Row) {
	c.text = r.Text
	lang := r.Lang
	if lang == "" {
		lang = "code"
	}
	setText(c.lang, lang)
	setSegment(c.rt, c.seg, r.Text, c.seg.Style.ColorName)
}

// toolView: a tool call's card: what, with which arguments, how it is
// going, and how it ended.
type toolView struct {
	obj      fyne.CanvasObject
	row      *rowView
	border   *canvas.Rectangle
	icon     *widget.Icon
	spinner  *widget.Activity
	name     *widget.Label
	state    *widget.Label
	expand   *widget.Button
	args     *widget.RichText
	argsSeg  *widget.TextSegment
	progress *widget.ProgressBar
	status   *widget.Label
	out      *widget.RichText
	outSeg   *widget.TextSegment
	outLabel *widget.Label
	spinning bool
	// The captions' theme wrappers: hiding those, not the labels inside,
	// takes them out of the layout.
	statusBox, outLabelBox fyne.CanvasObject
}

func newToolView(r *rowView) *toolView {
	t := &toolView{row: r, icon: widget.NewIcon(nil), spinner: widget.NewActivity()}
	t.name = widget.NewLabel("")
	t.name.TextStyle.Bold = true
	var state fyne.CanvasObject
	t.state, state = subtle("")
	t.expand = widget.NewButton("Show all", func() {
		cv := r.cv
		r.cv.ui.tell(&uiExpand{conv: cv.ui.conv, row: r.id, expanded: !r.row.Expanded})
	})
	t.expand.Importance = widget.LowImportance
	t.argsSeg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	t.args = widget.NewRichText(t.argsSeg)
	t.args.Wrapping = fyne.TextWrapBreak
	t.progress = widget.NewProgressBar()
	t.status, t.statusBox = subtle("")
	t.status.Wrapping = fyne.TextWrapWord
	t.outLabel, t.outLabelBox = caption("Result")
	t.outSeg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	t.out = widget.NewRichText(t.outSeg)
	t.out.Wrapping = fyne.TextWrapBreak
	t.border = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	t.border.CornerRadius = theme.InputRadiusSize()
	t.border.StrokeWidth = 1
	t.spinner.Hide()
	title := container.NewHBox(container.NewStack(t.icon, t.spinner), t.name, state, layout.NewSpacer(), t.expand)
	body := container.NewVBox(title, t.args, t.progress, t.statusBox, t.outLabelBox, t.out)
	t.obj = indented(container.NewStack(t.border, container.NewPadded(body)))
	return t
}

func (t *toolView) view() fyne.CanvasObject { return t.obj }

func (t *toolView) set(r transcript.Row) {
	setText(t.name, r.Tool)
	stroke := theme.ColorNameSeparator
	var icon fyne.Resource
	var state string
	switch r.State {
	case transcript.Asked:
		icon, state, stroke = theme.QuestionIcon(), "waiting for approval", theme.ColorNameWarning
	case transcript.Running:
		state, stroke = "running", theme.ColorNamePrimary
	case transcript.Succeeded:
		icon, state = t.row.cv.icons.succeeded, "done in "+elapsed(r.Elapsed)
	case transcript.Failed:
		icon, state, stroke = t.row.cv.icons.failed, "failed after "+elapsed(r.Elapsed), theme.ColorNameError
	case transcript.Denied:
		icon, state, stroke = t.row.cv.icons.denied, "denied", theme.ColorNameWarning
	}
	setText(t.state, state)
	if icon != nil {
		setIcon(t.icon, icon)
	}
	setVisible(t.icon, icon != nil)
	spin := r.State == transcript.Running && t.row.id >= 0 // never animate the measuring view
	setVisible(t.spinner, r.State == transcript.Running)
	if spin != t.spinning {
		t.spinning = spin
		if spin {
			t.spinner.Start()
		} else {
			t.spinner.Stop()
		}
	}
	if c := theme.Color(stroke); t.border.StrokeColor != c {
		t.border.StrokeColor = c
		t.border.Refresh()
	}

	long := transcript.Long(r.Args) || transcript.Long(r.Output)
	args, out := r.Args, r.Output
	if long && !r.Expanded {
		args, out = transcript.Preview(args), transcript.Preview(out)
	}
	if long {
		if r.Expanded {
			t.expand.SetText("Show less")
		} else if t.expand.Text != "Show all" {
			t.expand.SetText("Show all")
		}
	}
	setVisible(t.expand, long)
	setSegment(t.args, t.argsSeg, args, theme.ColorNameForeground)
	progress := r.State == transcript.Running && r.Total > 0
	if progress && (t.progress.Max != r.Total || t.progress.Value != r.Progress) {
		t.progress.Max = r.Total
		t.progress.SetValue(r.Progress)
	}
	setVisible(t.progress, progress)
	setText(t.status, r.Status)
	setVisible(t.statusBox, r.State == transcript.Running && r.Status != "")
	finished := r.State == transcript.Succeeded || r.State == transcript.Failed || r.State == transcript.Denied
	if finished && out != "" {
		label, color := "Result", theme.ColorNameForeground
		switch r.State {
		case transcript.Failed:
			label, color = "Error", theme.ColorNameError
		case transcript.Denied:
			label = "Why"
		}
		setText(t.outLabel, label)
		setSegment(t.out, t.outSeg, out, color)
	}
	setVisible(t.outLabelBox, finished && out != "")
	setVisible(t.out, finished && out != "")
}

func elapsed(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "<1 ms"
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return d.Round(100 * time.Millisecond).String()
}

// noticeView: a note from Deckhand, an error in the error colour.
type noticeView struct {
	obj   fyne.CanvasObject
	icons *rowIcons
	icon  *widget.Icon
	rt    *widget.RichText
	seg   *widget.TextSegment
}

func newNoticeView(r *rowView) *noticeView {
	n := &noticeView{icons: &r.cv.icons, icon: widget.NewIcon(theme.InfoIcon())}
	n.seg = &widget.TextSegment{Style: widget.RichTextStyle{TextStyle: fyne.TextStyle{Italic: true}, ColorName: theme.ColorNamePlaceHolder}}
	n.rt = widget.NewRichText(n.seg)
	n.rt.Wrapping = fyne.TextWrapWord
	n.obj = indented(container.NewBorder(nil, nil, container.NewCenter(n.icon), nil, n.rt))
	return n
}

func (n *noticeView) view() fyne.CanvasObject { return n.obj }

func (n *noticeView) set(r transcript.Row) {
	color := theme.ColorNamePlaceHolder
	setIcon(n.icon, theme.InfoIcon())
	if r.Error {
		color = theme.ColorNameError
		setIcon(n.icon, n.icons.failed)
	}
	setSegment(n.rt, n.seg, strings.TrimSpace(r.Text), color)
}
