package chat

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

// ToolView: a tool call's card: what, with which arguments, how it is
// going, and how it ended.
type ToolView struct {
	obj      fyne.CanvasObject
	row      *RowView
	Border   *canvas.Rectangle
	Fold     *widget.Button // collapses the card to its header, or opens it
	icon     *widget.Icon
	Spinner  *widget.Activity
	name     *widget.Label
	State    *widget.Label
	Expand   *widget.Button
	Args     *widget.RichText
	argsSeg  *widget.TextSegment
	Progress *widget.ProgressBar
	Status   *widget.Label
	Out      *widget.RichText
	outSeg   *widget.TextSegment
	OutLabel *widget.Label
	Media    *MediaView
	OpenView *widget.Button // the tool's view (an MCP App), in a window of its own
	spinning bool
	// The captions' theme wrappers: hiding those, not the labels inside,
	// takes them out of the layout.
	StatusBox, outLabelBox fyne.CanvasObject
}

func newToolView(r *RowView) *ToolView {
	t := &ToolView{row: r, icon: widget.NewIcon(nil), Spinner: widget.NewActivity()}
	t.name = widget.NewLabel("")
	t.name.TextStyle.Bold = true
	var state fyne.CanvasObject
	t.State, state = widgets.Subtle("")
	t.Expand = widget.NewButton("Show all", func() {
		row := r.Row
		row.Expanded, row.Collapsed = !row.Expanded, false
		t.apply(row)
		r.cv.host.Tell(&Expand{Conv: r.cv.conv, Row: r.ID, Expanded: row.Expanded})
	})
	t.Expand.Importance = widget.LowImportance
	t.Fold = widget.NewButtonWithIcon("", theme.MenuDropDownIcon(), func() {
		row := r.Row
		row.Collapsed = !row.Collapsed
		t.apply(row)
		r.cv.host.Tell(&Collapse{Conv: r.cv.conv, Row: r.ID, Collapsed: row.Collapsed})
	})
	t.Fold.Importance = widget.LowImportance
	// Monospace text wraps at spaces; a token longer than the line is
	// broken where it reaches the edge.
	t.argsSeg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	t.Args = widget.NewRichText(t.argsSeg)
	t.Args.Wrapping = fyne.TextWrapWord
	t.Progress = widget.NewProgressBar()
	t.Status, t.StatusBox = widgets.Subtle("")
	t.Status.Wrapping = fyne.TextWrapWord
	t.OutLabel, t.outLabelBox = widgets.Caption("Result")
	t.outSeg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	t.Out = widget.NewRichText(t.outSeg)
	t.Out.Wrapping = fyne.TextWrapWord
	t.Media = newMediaView(t)
	t.Border = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	t.Border.CornerRadius = theme.InputRadiusSize()
	t.Border.StrokeWidth = 1
	t.Spinner.Hide()
	t.OpenView = widget.NewButtonWithIcon("Open view", theme.ComputerIcon(), func() { r.cv.apps.Open(r.cv.conv, r.Row) })
	t.OpenView.Importance = widget.LowImportance
	t.OpenView.Hide()
	title := container.NewHBox(t.Fold, container.NewStack(t.icon, t.Spinner), t.name, state, layout.NewSpacer(), t.OpenView, t.Expand)
	body := container.NewVBox(title, t.Args, t.Progress, t.StatusBox, t.outLabelBox, t.Out, t.Media.obj)
	t.obj = indented(container.NewStack(t.Border, container.NewPadded(body)))
	return t
}

func (t *ToolView) view() fyne.CanvasObject { return t.obj }

// apply shows a change the person made to the card (folded, Show all) at
// once, and gives the row its new height, keeping the view where it is: the
// card grows or shrinks below its header. The bridge's copy of the row,
// when it comes, is the same, and changes nothing.
func (t *ToolView) apply(row transcript.Row) {
	r, cv := t.row, t.row.cv
	id := r.ID
	if id < 0 || id >= len(cv.Rows) {
		return
	}
	offset := cv.List.GetScrollOffset()
	cv.Rows[id] = row
	r.show(id, row)
	h := cv.heightOf(r, row)
	cv.measured[id] = true
	if h != cv.Heights[id] {
		cv.Heights[id] = h
		cv.List.SetItemHeight(id, h)
	}
	if cv.List.GetScrollOffset() != offset {
		cv.List.ScrollToOffset(offset)
	}
}

// resize gives the row the height of what the card now shows (a note in
// an image's place), keeping the view where it is.
func (t *ToolView) resize() {
	r, cv := t.row, t.row.cv
	id := r.ID
	if id < 0 || id >= len(cv.Rows) {
		return
	}
	widgets.Relayout(r.box)
	offset := cv.List.GetScrollOffset()
	if h := r.MinSize().Height; h != cv.Heights[id] {
		cv.Heights[id] = h
		cv.List.SetItemHeight(id, h)
	}
	if cv.List.GetScrollOffset() != offset {
		cv.List.ScrollToOffset(offset)
	}
}

// onScreen reports whether the card is one of the list's (not the view
// that measures rows) and open.
func (t *ToolView) onScreen() bool {
	return t.row.ID >= 0 && t.row.Row.Kind == transcript.Tool && !t.row.Row.Collapsed
}

func (t *ToolView) set(r transcript.Row) {
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
	widgets.SetText(t.State, state)
	if icon != nil {
		widgets.SetIcon(t.icon, icon)
	}
	widgets.SetVisible(t.icon, icon != nil)
	spin := r.State == transcript.Running && t.row.ID >= 0 // never animate the measuring view
	widgets.SetVisible(t.Spinner, r.State == transcript.Running)
	if spin != t.spinning {
		t.spinning = spin
		if spin {
			t.Spinner.Start()
		} else {
			t.Spinner.Stop()
		}
	}
	c := theme.Color(stroke)
	width := float32(1)
	if m := t.row.cv.Find.cardMark(t.row.ID); m != nil {
		c, width = m, 3 // it holds a match of the find bar's
	}
	if t.Border.StrokeColor != c || t.Border.StrokeWidth != width {
		t.Border.StrokeColor, t.Border.StrokeWidth = c, width
		t.Border.Refresh()
	}

	open := !r.Collapsed
	fold := theme.MenuDropDownIcon()
	if !open {
		fold = theme.MenuExpandIcon()
	}
	if t.Fold.Icon != fold {
		t.Fold.SetIcon(fold)
	}
	long := transcript.Long(r.Args) || transcript.Long(r.Output)
	args, out := r.Args, r.Output
	if long && !r.Expanded {
		args, out = transcript.Preview(args), transcript.Preview(out)
	}
	if long {
		if r.Expanded {
			t.Expand.SetText("Show less")
		} else if t.Expand.Text != "Show all" {
			t.Expand.SetText("Show all")
		}
	}
	widgets.SetVisible(t.Expand, long && open)
	_, view := t.row.cv.apps.Of(r.Tool)
	widgets.SetVisible(t.OpenView, view != "")
	widgets.SetVisible(t.Args, open)
	widgets.SetSegment(t.Args, t.argsSeg, args, theme.ColorNameForeground)
	progress := r.State == transcript.Running && r.Total > 0
	if progress && (t.Progress.Max != r.Total || t.Progress.Value != r.Progress) {
		t.Progress.Max = r.Total
		t.Progress.SetValue(r.Progress)
	}
	widgets.SetVisible(t.Progress, progress && open)
	status := r.Status
	if refused {
		status = "Deckhand's policy stopped this call before it ran. To allow such calls, change the policy in Settings, under Policy."
		if strings.Contains(r.Output, " roots") {
			status = "Deckhand's policy stopped this call before it ran. To allow such calls, widen the read or write roots in Settings, under Policy."
		}
	}
	widgets.SetText(t.Status, status)
	widgets.SetVisible(t.StatusBox, open && (r.State == transcript.Running && r.Status != "" || refused))
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
		widgets.SetText(t.OutLabel, label)
		widgets.SetSegment(t.Out, t.outSeg, out, color)
	}
	widgets.SetVisible(t.outLabelBox, open && finished && out != "")
	widgets.SetVisible(t.Out, open && finished && out != "")
	media := r.Media
	if !open || !finished {
		media = nil
	}
	t.Media.set(media, t.onScreen())
}
