package gui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/transcript"
)

// toolView: a tool call's card: what, with which arguments, how it is
// going, and how it ended.
type toolView struct {
	obj      fyne.CanvasObject
	row      *rowView
	border   *canvas.Rectangle
	fold     *widget.Button // collapses the card to its header, or opens it
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
	media    *mediaView
	openView *widget.Button // the tool's view (an MCP App), in a window of its own
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
	t.state, state = widgets.Subtle("")
	t.expand = widget.NewButton("Show all", func() {
		row := r.row
		row.Expanded, row.Collapsed = !row.Expanded, false
		t.apply(row)
		r.cv.ui.tell(&uiExpand{conv: r.cv.ui.conv, row: r.id, expanded: row.Expanded})
	})
	t.expand.Importance = widget.LowImportance
	t.fold = widget.NewButtonWithIcon("", theme.MenuDropDownIcon(), func() {
		row := r.row
		row.Collapsed = !row.Collapsed
		t.apply(row)
		r.cv.ui.tell(&uiCollapse{conv: r.cv.ui.conv, row: r.id, collapsed: row.Collapsed})
	})
	t.fold.Importance = widget.LowImportance
	// Monospace text wraps at spaces; a token longer than the line is
	// broken where it reaches the edge.
	t.argsSeg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	t.args = widget.NewRichText(t.argsSeg)
	t.args.Wrapping = fyne.TextWrapWord
	t.progress = widget.NewProgressBar()
	t.status, t.statusBox = widgets.Subtle("")
	t.status.Wrapping = fyne.TextWrapWord
	t.outLabel, t.outLabelBox = widgets.Caption("Result")
	t.outSeg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	t.out = widget.NewRichText(t.outSeg)
	t.out.Wrapping = fyne.TextWrapWord
	t.media = newMediaView(t)
	t.border = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	t.border.CornerRadius = theme.InputRadiusSize()
	t.border.StrokeWidth = 1
	t.spinner.Hide()
	t.openView = widget.NewButtonWithIcon("Open view", theme.ComputerIcon(), func() { r.cv.ui.openAppView(r.row) })
	t.openView.Importance = widget.LowImportance
	t.openView.Hide()
	title := container.NewHBox(t.fold, container.NewStack(t.icon, t.spinner), t.name, state, layout.NewSpacer(), t.openView, t.expand)
	body := container.NewVBox(title, t.args, t.progress, t.statusBox, t.outLabelBox, t.out, t.media.obj)
	t.obj = indented(container.NewStack(t.border, container.NewPadded(body)))
	return t
}

func (t *toolView) view() fyne.CanvasObject { return t.obj }

// uiCollapse asks the bridge to fold a card (transcript.Transcript.Collapse),
// so that it stays folded when the conversation is shown again. The card
// folds at once, without waiting for it.
type uiCollapse struct {
	conv      string
	row       int
	collapsed bool
}

// apply shows a change the person made to the card (folded, Show all) at
// once, and gives the row its new height, keeping the view where it is: the
// card grows or shrinks below its header. The bridge's copy of the row,
// when it comes, is the same, and changes nothing.
func (t *toolView) apply(row transcript.Row) {
	r, cv := t.row, t.row.cv
	id := r.id
	if id < 0 || id >= len(cv.rows) {
		return
	}
	offset := cv.list.GetScrollOffset()
	cv.rows[id] = row
	r.show(id, row)
	h := cv.heightOf(r, row)
	cv.measured[id] = true
	if h != cv.heights[id] {
		cv.heights[id] = h
		cv.list.SetItemHeight(id, h)
	}
	if cv.list.GetScrollOffset() != offset {
		cv.list.ScrollToOffset(offset)
	}
}

// resize gives the row the height of what the card now shows (a note in
// an image's place), keeping the view where it is.
func (t *toolView) resize() {
	r, cv := t.row, t.row.cv
	id := r.id
	if id < 0 || id >= len(cv.rows) {
		return
	}
	relayout(r.box)
	offset := cv.list.GetScrollOffset()
	if h := r.MinSize().Height; h != cv.heights[id] {
		cv.heights[id] = h
		cv.list.SetItemHeight(id, h)
	}
	if cv.list.GetScrollOffset() != offset {
		cv.list.ScrollToOffset(offset)
	}
}

// onScreen reports whether the card is one of the list's (not the view
// that measures rows) and open.
func (t *toolView) onScreen() bool {
	return t.row.id >= 0 && t.row.row.Kind == transcript.Tool && !t.row.row.Collapsed
}

func (t *toolView) set(r transcript.Row) {
	icons := &t.row.cv.icons
	widgets.SetText(t.name, r.Tool)
	stroke := theme.ColorNameSeparator
	var icon fyne.Resource
	var state string
	refused := r.RefusedByPolicy()
	switch r.State {
	case transcript.Asked:
		icon, state, stroke = theme.QuestionIcon(), "waiting for approval", theme.ColorNameWarning
	case transcript.Running:
		state, stroke = "running", theme.ColorNamePrimary
	case transcript.Succeeded:
		icon, state = icons.Succeeded, "done in "+widgets.Elapsed(r.Elapsed)
	case transcript.Failed:
		icon, state, stroke = icons.Failed, "failed after "+widgets.Elapsed(r.Elapsed), theme.ColorNameError
		if refused {
			icon, state, stroke = icons.Denied, "refused by policy (not run)", theme.ColorNameWarning
		}
	case transcript.Denied:
		icon, state, stroke = icons.Denied, "denied", theme.ColorNameWarning
	}
	widgets.SetText(t.state, state)
	if icon != nil {
		widgets.SetIcon(t.icon, icon)
	}
	widgets.SetVisible(t.icon, icon != nil)
	spin := r.State == transcript.Running && t.row.id >= 0 // never animate the measuring view
	widgets.SetVisible(t.spinner, r.State == transcript.Running)
	if spin != t.spinning {
		t.spinning = spin
		if spin {
			t.spinner.Start()
		} else {
			t.spinner.Stop()
		}
	}
	c := theme.Color(stroke)
	width := float32(1)
	if m := t.row.cv.find.cardMark(t.row.id); m != nil {
		c, width = m, 3 // it holds a match of the find bar's
	}
	if t.border.StrokeColor != c || t.border.StrokeWidth != width {
		t.border.StrokeColor, t.border.StrokeWidth = c, width
		t.border.Refresh()
	}

	open := !r.Collapsed
	fold := theme.MenuDropDownIcon()
	if !open {
		fold = theme.MenuExpandIcon()
	}
	if t.fold.Icon != fold {
		t.fold.SetIcon(fold)
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
	widgets.SetVisible(t.expand, long && open)
	_, view := t.row.cv.ui.appViewOf(r.Tool)
	widgets.SetVisible(t.openView, view != "")
	widgets.SetVisible(t.args, open)
	widgets.SetSegment(t.args, t.argsSeg, args, theme.ColorNameForeground)
	progress := r.State == transcript.Running && r.Total > 0
	if progress && (t.progress.Max != r.Total || t.progress.Value != r.Progress) {
		t.progress.Max = r.Total
		t.progress.SetValue(r.Progress)
	}
	widgets.SetVisible(t.progress, progress && open)
	status := r.Status
	if refused {
		status = "Deckhand's policy stopped this call before it ran. To allow such calls, change the policy in Settings, under Policy."
		if strings.Contains(r.Output, " roots") {
			status = "Deckhand's policy stopped this call before it ran. To allow such calls, widen the read or write roots in Settings, under Policy."
		}
	}
	widgets.SetText(t.status, status)
	widgets.SetVisible(t.statusBox, open && (r.State == transcript.Running && r.Status != "" || refused))
	finished := r.State == transcript.Succeeded || r.State == transcript.Failed || r.State == transcript.Denied
	if finished && out != "" {
		label, color := "Result", theme.ColorNameForeground
		switch r.State {
		case transcript.Failed:
			label, color = "Error", theme.ColorNameError
			if refused {
				label, color = "Why (what the model was told)", theme.ColorNameForeground
			}
		case transcript.Denied:
			label = "Why"
		}
		widgets.SetText(t.outLabel, label)
		widgets.SetSegment(t.out, t.outSeg, out, color)
	}
	widgets.SetVisible(t.outLabelBox, open && finished && out != "")
	widgets.SetVisible(t.out, open && finished && out != "")
	media := r.Media
	if !open || !finished {
		media = nil
	}
	t.media.set(media, t.onScreen())
}
