package servers

import (
	"encoding/json"
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/conversation"
	"deckhand/gui/dialogs"
	"deckhand/gui/widgets"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// A tool run by hand: the tool page's Run opens a form built from the
// tool's input schema (a question's form, dialogs.Form; a schema with
// nested objects or free arrays gets one JSON box instead), checks what
// was typed against the whole schema, and only then starts a chat of its
// own whose one run is the call (conversation.ToolRun): the same gate as
// the model's calls, the approval included, and the result as a tool card.

// RunForm is the open Run dialog's parts, for tests.
type RunForm struct {
	tool    tools.Tool
	Form    *dialogs.Form // nil: the JSON box
	json    *widget.Entry
	Problem *widget.Label
	dlg     *dialog.CustomDialog
	Sent    bool
}

// runBar is the Run button under a tool's page, beside its note; the
// bar's layout lays out the page's detail (its parent) again when the
// note needs another height.
func (tw *ToolsPage) runBar() (*fyne.Container, *noteBeside) {
	tw.RunButton = widget.NewButtonWithIcon("Run…", theme.MediaPlayIcon(), func() {
		if i := tw.selected; i >= 0 && i < len(tw.List) {
			tw.openRun(tw.List[i])
		}
	})
	tw.RunButton.Importance = widget.HighImportance
	noteLabel, note := widgets.Caption("Run it yourself: it goes through the same approval as the model's calls, in a chat of its own.")
	noteLabel.Wrapping = fyne.TextWrapWord // on one line it made the page as wide as it (823 px at 128%)
	fit := &noteBeside{note: noteLabel, button: tw.RunButton}
	return container.New(fit, note, tw.RunButton), fit
}

// noteBeside lays out a wrapped note beside a button (the run bar) as
// high as the note needs at the width it gets, the button at its own
// height beside it. A Border gives its bottom the height the note needed
// at its last width, one layout late: at 640×480 with the text at 125%,
// back from a wider window, the note's second line was cut (the bar 41
// px high for 54), and wider the bar kept 92 px for 54; the button was
// stretched to the note's height.
type noteBeside struct {
	note   *widget.Label
	button fyne.CanvasObject
	height float32 // the height MinSize last gave: the note's at its last width
	// relayout lays out the bar's parent again, which then asks MinSize
	// for the note's height at its new width.
	relayout func()
}

func (l *noteBeside) MinSize(objects []fyne.CanvasObject) fyne.Size {
	note, button := objects[0].MinSize(), l.button.MinSize()
	l.height = max(note.Height, button.Height)
	return fyne.NewSize(note.Width+theme.Padding()+button.Width, l.height)
}

func (l *noteBeside) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	note, button := objects[0], l.button.MinSize()
	width := max(size.Width-button.Width-theme.Padding(), 0)
	note.Move(fyne.Position{})
	note.Resize(fyne.NewSize(width, size.Height))
	l.button.Move(fyne.NewPos(width+theme.Padding(), max(size.Height-button.Height, 0)/2))
	l.button.Resize(button)
	if need := max(note.MinSize().Height, button.Height); need != l.height && l.relayout != nil {
		l.height = need
		l.relayout()
	}
}

// runnable reports whether the page's tool can be run: it must be in the
// catalog (enabled, listed by a connected server) under its display name.
func (tw *ToolsPage) runnable(t tools.Tool) bool {
	return !tw.disabled[t.Name] && !tw.quarantined[t.Name] && t.Display != "" && tw.s.host.Catalog() != nil &&
		slices.ContainsFunc(tw.s.host.Catalog().Server(tw.alias), func(c tools.Tool) bool { return c.Display == t.Display })
}

// formFor is the form of a tool's input schema, or nil when the schema is
// more than flat fields (the JSON box then).
func formFor(t tools.Tool) *mcp.Form {
	if t.Def == nil || t.Def.InputSchema == nil {
		return &mcp.Form{}
	}
	f, err := mcp.ParseForm(t.Def.InputSchema)
	if err != nil {
		return nil
	}
	for _, fl := range f.Fields {
		if fl.Kind == mcp.FieldMulti && len(fl.Options) == 0 {
			return nil // an array of free values: JSON
		}
	}
	return f
}

// openRun opens the Run dialog of t.
func (tw *ToolsPage) openRun(t tools.Tool) {
	if !tw.runnable(t) {
		widgets.ShowInformation("Run "+t.Display, "This tool cannot be run now: it is disabled, quarantined, or its server is not connected.", tw.Win)
		return
	}
	rf := &RunForm{tool: t, Problem: widget.NewLabel("")}
	rf.Problem.Importance = widget.DangerImportance
	rf.Problem.Wrapping = fyne.TextWrapWord
	rf.Problem.Hide()
	submit := func() { tw.submitRun(rf) }
	cancel := func() { rf.dlg.Hide() }
	var body fyne.CanvasObject
	if f := formFor(t); f != nil {
		rf.Form = dialogs.NewForm(f, submit, cancel)
		body = rf.Form.Object()
		if len(f.Fields) == 0 {
			body = widget.NewLabel("This tool takes no arguments.")
		}
	} else {
		rf.json = widget.NewMultiLineEntry()
		rf.json.SetText("{}")
		rf.json.SetMinRowsVisible(6)
		body = container.NewVBox(widget.NewLabel("Arguments, as a JSON object (the input schema is on the tool's page):"), rf.json)
	}
	run := widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), submit)
	run.Importance = widget.HighImportance
	cancelBtn := widget.NewButton("Cancel", cancel)
	sc := container.NewVScroll(body)
	if rf.Form != nil {
		rf.Form.ScrollIn(sc) // Tab onto a field below the fold brings it into view
	}
	content := container.NewBorder(nil, rf.Problem, nil, nil, sc)
	rf.dlg = dialog.NewCustomWithoutButtons("Run "+t.Display, content, tw.Win)
	rf.dlg.SetButtons([]fyne.CanvasObject{cancelBtn, run})
	rf.dlg.Resize(fyne.NewSize(480, 420))
	tw.Run = rf
	// Enter runs, as in a field of the form; Escape cancels. Without them
	// (no field, or the JSON's), Escape closed the tools' page behind.
	widgets.WithDialogKeys(rf.dlg, tw.Win, submit, cancel)
	if rf.Form != nil && rf.Form.First() != nil {
		tw.Win.Canvas().Focus(rf.Form.First())
	}
}

// submitRun checks the form against the tool's whole input schema and,
// when it fits, starts the call's chat; else it names what is wrong.
func (tw *ToolsPage) submitRun(rf *RunForm) {
	if rf.Sent {
		return
	}
	args, bad, err := rf.arguments()
	if err == nil {
		err = tools.NewValidator(1).Validate(rf.tool, args)
	}
	if err != nil {
		rf.Problem.SetText(widgets.Shorten(err.Error(), 300))
		rf.Problem.Show()
		if bad != nil {
			tw.Win.Canvas().Focus(bad)
		}
		return
	}
	rf.Sent = true
	rf.dlg.Hide()
	tw.s.host.RunByHand(&conversation.ToolRun{Tool: rf.tool.Display, Arguments: args})
}

// arguments are the form's answers as the call's JSON arguments.
// bad is the field to focus when one is wrong.
func (rf *RunForm) arguments() (args json.RawMessage, bad fyne.Focusable, err error) {
	if rf.Form == nil {
		return json.RawMessage(rf.json.Text), nil, nil // checked by the validator
	}
	content, bad, err := rf.Form.Collect()
	if err != nil {
		return nil, bad, err
	}
	b, err := json.Marshal(content)
	if err != nil {
		return nil, nil, fmt.Errorf("writing the arguments: %w", err)
	}
	return b, nil, nil
}
