package gui

import (
	"fmt"
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/transcript"
)

// chatView shows one conversation's transcript in a virtualized list: only
// the rows on screen have widgets. Each row's height is measured once (and
// again when it changes, or the width does), so scrolling never lays out
// text that is not shown.
type chatView struct {
	ui      *UI
	list    *transcriptList
	rows    []transcript.Row
	heights []float32
	width   float32
	measure *rowView // lays rows out off screen, to learn their height
	follow  bool     // keep the end in view as rows arrive

	resizing bool // a re-measure at a new width is scheduled
}

func newChatView(u *UI) *chatView {
	cv := &chatView{ui: u, follow: true}
	cv.measure = newRowView(cv)
	cv.list = cv.newList()
	return cv
}

// transcriptList is a widget.List that re-measures its rows when its width
// changes.
type transcriptList struct {
	widget.List
	cv *chatView
}

func (cv *chatView) newList() *transcriptList {
	l := &transcriptList{cv: cv}
	l.Length = func() int { return len(cv.rows) }
	l.CreateItem = func() fyne.CanvasObject { return newRowView(cv) }
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < len(cv.rows) {
			o.(*rowView).show(id, cv.rows[id])
		}
	}
	l.HideSeparators = true
	l.ExtendBaseWidget(l)
	for i, h := range cv.heights {
		l.SetItemHeight(i, h) // cheap: the list is not drawn yet
	}
	return l
}

func (l *transcriptList) Resize(s fyne.Size) {
	old := l.Size().Width
	l.List.Resize(s)
	if s.Width != old && s.Width > 0 {
		l.cv.widthChanged(s.Width)
	}
}

// Tapping a row must not select it: the transcript is read, not picked.
func (l *transcriptList) Select(widget.ListItemID) {}

// reset shows a whole transcript (another conversation, or a redraw).
func (cv *chatView) reset(rows []transcript.Row) {
	cv.rows = rows
	cv.heights = make([]float32, len(rows))
	for i, r := range rows {
		cv.heights[i] = cv.measureRow(r)
	}
	cv.replaceList()
	cv.follow = true
	cv.list.ScrollToBottom()
}

// replaceList swaps in a fresh list with every height set: setting them on
// a list that is on screen would redraw it once per row.
func (cv *chatView) replaceList() {
	old := cv.list
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
	if n < len(cv.rows) {
		cv.rows, cv.heights = cv.rows[:n], cv.heights[:n]
	}
	for len(cv.rows) < n {
		cv.rows = append(cv.rows, transcript.Row{})
		cv.heights = append(cv.heights, 0)
	}
	for i, r := range changed {
		cv.rows[i] = r
		h := cv.measureRow(r)
		if h != cv.heights[i] {
			cv.heights[i] = h
			cv.list.SetItemHeight(i, h)
		} else {
			cv.list.RefreshItem(i)
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
	for i, r := range cv.rows {
		cv.heights[i] = cv.measureRow(r)
	}
	cv.replaceList()
	if end {
		cv.list.ScrollToBottom()
	} else {
		cv.list.ScrollToOffset(offset)
	}
}

// measureRow lays a row out at the list's width and returns its height.
func (cv *chatView) measureRow(r transcript.Row) float32 {
	w := cv.list.Size().Width
	if w <= 0 {
		w = 700 // not laid out yet: remeasure fixes it
	} else {
		cv.width = w
	}
	m := cv.measure
	m.show(-1, r)
	m.Resize(fyne.NewSize(w, m.MinSize().Height))
	m.box.Refresh()
	return m.MinSize().Height
}

// rowView draws one transcript row; the list reuses it for any kind.
type rowView struct {
	widget.BaseWidget
	cv  *chatView
	id  int
	row transcript.Row
	box *fyne.Container // holds the view of the row's kind

	header *headerView
	text   *textView
	code   *codeView
	tool   *toolView
	notice *noticeView
}

func newRowView(cv *chatView) *rowView {
	r := &rowView{cv: cv, box: container.NewStack()}
	r.ExtendBaseWidget(r)
	return r
}

func (r *rowView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.box) }

// show draws row (number id; -1 when measuring).
func (r *rowView) show(id int, row transcript.Row) {
	r.id, r.row = id, row
	var obj fyne.CanvasObject
	switch row.Kind {
	case transcript.Header:
		if r.header == nil {
			r.header = newHeaderView(r)
		}
		r.header.set(row)
		obj = r.header.obj
	case transcript.Text:
		if r.text == nil {
			r.text = newTextView()
		}
		r.text.set(row)
		obj = r.text.obj
	case transcript.Code:
		if r.code == nil {
			r.code = newCodeView(r)
		}
		r.code.set(row)
		obj = r.code.obj
	case transcript.Tool:
		if r.tool == nil {
			r.tool = newToolView(r)
		}
		r.tool.set(row)
		obj = r.tool.obj
	default:
		if r.notice == nil {
			r.notice = newNoticeView()
		}
		r.notice.set(row)
		obj = r.notice.obj
	}
	if len(r.box.Objects) != 1 || r.box.Objects[0] != obj {
		r.box.Objects = []fyne.CanvasObject{obj}
	}
	r.box.Refresh()
}

func (r *rowView) copy(text string) {
	r.cv.ui.app.Clipboard().SetContent(text)
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
	h.when = widget.NewLabel("")
	h.when.SizeName = theme.SizeNameCaptionText
	h.when.Importance = widget.LowImportance
	h.cp = widget.NewButtonWithIcon("", theme.ContentCopyIcon(), func() { r.copy(h.text) })
	h.cp.Importance = widget.LowImportance
	h.obj = container.NewPadded(container.NewHBox(h.icon, h.who, h.when, layout.NewSpacer(), h.cp))
	return h
}

func (h *headerView) set(r transcript.Row) {
	if r.Role == "user" {
		h.icon.SetResource(theme.AccountIcon())
		h.who.SetText("You")
	} else {
		h.icon.SetResource(theme.ComputerIcon())
		h.who.SetText("Deckhand")
	}
	if r.Time.IsZero() {
		h.when.SetText("")
	} else {
		h.when.SetText(r.Time.Format("15:04"))
	}
	h.text = r.Text
	if r.Text == "" {
		h.cp.Hide() // still streaming
	} else {
		h.cp.Show()
	}
}

// textView: a block of Markdown. The person's messages sit on a tinted
// background, the model's on none.
type textView struct {
	obj fyne.CanvasObject
	bg  *canvas.Rectangle
	rt  *widget.RichText
	src string
}

func newTextView() *textView {
	t := &textView{bg: canvas.NewRectangle(color.Transparent), rt: widget.NewRichText()}
	t.bg.CornerRadius = theme.InputRadiusSize()
	t.rt.Wrapping = fyne.TextWrapWord
	t.obj = indented(container.NewStack(t.bg, t.rt))
	return t
}

func (t *textView) set(r transcript.Row) {
	if r.Role == "user" {
		t.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	} else {
		t.bg.FillColor = color.Transparent
	}
	if r.Text != t.src {
		t.src = r.Text
		t.rt.ParseMarkdown(r.Text)
	}
	t.bg.Refresh()
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
	c := &codeView{lang: widget.NewLabel(""), rt: widget.NewRichText()}
	c.lang.SizeName = theme.SizeNameCaptionText
	c.lang.Importance = widget.LowImportance
	c.seg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	c.rt.Segments = []widget.RichTextSegment{c.seg}
	c.rt.Wrapping = fyne.TextWrapBreak
	cp := widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() { r.copy(c.text) })
	cp.Importance = widget.LowImportance
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	top := container.NewHBox(c.lang, layout.NewSpacer(), cp)
	c.obj = indented(container.NewStack(bg, container.NewBorder(top, nil, nil, nil, c.rt)))
	return c
}

func (c *codeView) set(r transcript.Row) {
	c.text = r.Text
	lang := r.Lang
	if lang == "" {
		lang = "code"
	}
	c.lang.SetText(lang)
	if c.seg.Text != r.Text {
		c.seg.Text = r.Text
		c.rt.Refresh()
	}
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
}

func newToolView(r *rowView) *toolView {
	t := &toolView{row: r, icon: widget.NewIcon(nil), spinner: widget.NewActivity()}
	t.name = widget.NewLabel("")
	t.name.TextStyle.Bold = true
	t.state = widget.NewLabel("")
	t.state.Importance = widget.LowImportance
	t.expand = widget.NewButton("Show all", func() {
		cv := r.cv
		r.cv.ui.tell(&uiExpand{conv: cv.ui.conv, row: r.id, expanded: !r.row.Expanded})
	})
	t.expand.Importance = widget.LowImportance
	t.argsSeg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	t.args = widget.NewRichText(t.argsSeg)
	t.args.Wrapping = fyne.TextWrapBreak
	t.progress = widget.NewProgressBar()
	t.status = widget.NewLabel("")
	t.status.Importance = widget.LowImportance
	t.status.Wrapping = fyne.TextWrapWord
	t.outLabel = widget.NewLabel("Result")
	t.outLabel.SizeName = theme.SizeNameCaptionText
	t.outSeg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	t.out = widget.NewRichText(t.outSeg)
	t.out.Wrapping = fyne.TextWrapBreak
	t.border = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	t.border.CornerRadius = theme.InputRadiusSize()
	t.border.StrokeWidth = 1
	title := container.NewHBox(container.NewStack(t.icon, t.spinner), t.name, t.state, layout.NewSpacer(), t.expand)
	body := container.NewVBox(title, t.args, t.progress, t.status, t.outLabel, t.out)
	t.obj = indented(container.NewStack(t.border, container.NewPadded(body)))
	return t
}

func (t *toolView) set(r transcript.Row) {
	t.name.SetText(r.Tool)
	stroke := theme.ColorNameSeparator
	t.spinner.Stop()
	t.spinner.Hide()
	t.icon.Show()
	switch r.State {
	case transcript.Asked:
		t.icon.SetResource(theme.QuestionIcon())
		t.state.SetText("waiting for approval")
		stroke = theme.ColorNameWarning
	case transcript.Running:
		t.icon.Hide()
		t.spinner.Show()
		if t.row.id >= 0 {
			t.spinner.Start()
		}
		t.state.SetText("running")
		stroke = theme.ColorNamePrimary
	case transcript.Succeeded:
		t.icon.SetResource(theme.NewSuccessThemedResource(theme.ConfirmIcon()))
		t.state.SetText("done in " + elapsed(r.Elapsed))
	case transcript.Failed:
		t.icon.SetResource(theme.NewErrorThemedResource(theme.ErrorIcon()))
		t.state.SetText("failed after " + elapsed(r.Elapsed))
		stroke = theme.ColorNameError
	case transcript.Denied:
		t.icon.SetResource(theme.NewWarningThemedResource(theme.CancelIcon()))
		t.state.SetText("denied")
		stroke = theme.ColorNameWarning
	}
	t.border.StrokeColor = theme.Color(stroke)
	t.border.Refresh()

	long := transcript.Long(r.Args) || transcript.Long(r.Output)
	args, out := r.Args, r.Output
	if long && !r.Expanded {
		args, out = transcript.Preview(args), transcript.Preview(out)
	}
	if long {
		if r.Expanded {
			t.expand.SetText("Show less")
		} else {
			t.expand.SetText("Show all")
		}
		t.expand.Show()
	} else {
		t.expand.Hide()
	}
	if t.argsSeg.Text != args {
		t.argsSeg.Text = args
		t.args.Refresh()
	}
	switch {
	case r.State == transcript.Running && r.Total > 0:
		t.progress.Max = r.Total
		t.progress.SetValue(r.Progress)
		t.progress.Show()
	default:
		t.progress.Hide()
	}
	if r.State == transcript.Running && r.Status != "" {
		t.status.SetText(r.Status)
		t.status.Show()
	} else {
		t.status.Hide()
	}
	finished := r.State == transcript.Succeeded || r.State == transcript.Failed || r.State == transcript.Denied
	if finished && out != "" {
		switch r.State {
		case transcript.Failed:
			t.outLabel.SetText("Error")
			t.outSeg.Style.ColorName = theme.ColorNameError
		case transcript.Denied:
			t.outLabel.SetText("Why")
			t.outSeg.Style.ColorName = theme.ColorNameForeground
		default:
			t.outLabel.SetText("Result")
			t.outSeg.Style.ColorName = theme.ColorNameForeground
		}
		if t.outSeg.Text != out {
			t.outSeg.Text = out
		}
		t.out.Refresh()
		t.outLabel.Show()
		t.out.Show()
	} else {
		t.outLabel.Hide()
		t.out.Hide()
	}
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
	obj  fyne.CanvasObject
	icon *widget.Icon
	rt   *widget.RichText
	seg  *widget.TextSegment
}

func newNoticeView() *noticeView {
	n := &noticeView{icon: widget.NewIcon(theme.InfoIcon())}
	n.seg = &widget.TextSegment{Style: widget.RichTextStyle{TextStyle: fyne.TextStyle{Italic: true}, ColorName: theme.ColorNamePlaceHolder}}
	n.rt = widget.NewRichText(n.seg)
	n.rt.Wrapping = fyne.TextWrapWord
	n.obj = indented(container.NewBorder(nil, nil, container.NewCenter(n.icon), nil, n.rt))
	return n
}

func (n *noticeView) set(r transcript.Row) {
	if r.Error {
		n.icon.SetResource(theme.NewErrorThemedResource(theme.ErrorIcon()))
		n.seg.Style.ColorName = theme.ColorNameError
	} else {
		n.icon.SetResource(theme.InfoIcon())
		n.seg.Style.ColorName = theme.ColorNamePlaceHolder
	}
	n.seg.Text = strings.TrimSpace(r.Text)
	n.rt.Refresh()
}
