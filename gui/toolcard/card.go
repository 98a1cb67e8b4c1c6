package toolcard

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	lru "github.com/hashicorp/golang-lru/v2"

	"deckhand/gui/appview"
	"deckhand/gui/widgets"
	"deckhand/gui/widgets/imageview"
	"deckhand/gui/widgets/richtext"
	"deckhand/transcript"
)

// Cards are what a window's cards share: the images decoded and those
// that would not decode, the image shown large, the icons, and the tools'
// views the cards open.
type Cards struct {
	host  Host
	apps  *appview.Views // the tools' views (package appview), the window's
	icons widgets.StatusIcons
	// stopped is the icon of a call the person stopped: the theme's stop
	// sign in the text's colour, neither an error nor a warning.
	stopped fyne.Resource

	// undecodable are images whose header read but whose data did not
	// decode, with why: a card shows the note in the image's place (and is
	// measured with it), rather than an empty box.
	undecodable *lru.Cache[string, string]
	// bitmaps are the cards holding a decoded image (media.go).
	bitmaps *lru.Cache[*Media, struct{}]
	// decodes bounds the image decodes running at once: each may take up
	// to tools.MaxImageSide² pixels of memory until it is scaled down.
	decodes chan struct{}

	image *imageview.View // a tool's image shown large (image.go)

	// Tips is the layer the cards' icon buttons (the fold chevron, the
	// images' ‹ ›) name themselves on while the pointer rests on them:
	// the chat lays it over its list (and shares it with its messages'
	// buttons). Set it, if at all, before the first NewCard.
	Tips *widgets.Tips
	// Sel is the selection the cards' arguments and results are selected
	// in: the chat's, which runs across its messages, so that a drag goes
	// on through a card. Set it, if at all, before the first NewCard
	// (New makes one of the cards' own).
	Sel *richtext.Selection
}

// New makes the cards of the window host; they open the tools' views in
// apps.
func New(host Host, apps *appview.Views) *Cards {
	cs := &Cards{host: host, apps: apps, icons: widgets.NewStatusIcons(), stopped: theme.MediaStopIcon(), bitmaps: newBitmaps(),
		decodes: make(chan struct{}, 2), Tips: widgets.NewTips(host.Post), Sel: &richtext.Selection{}}
	cs.undecodable, _ = lru.New[string, string](64)
	return cs
}

// Card is a tool call's card: what, with which arguments, how it is
// going, and how it ended.
type Card struct {
	obj      fyne.CanvasObject
	cards    *Cards
	row      Row
	Border   *canvas.Rectangle
	Fold     *widgets.TipButton // collapses the card to its header, or opens it
	icon     *widget.Icon
	Spinner  *widget.Activity
	name     *widget.Label
	head     *header
	State    *widget.Label
	stateObj fyne.CanvasObject // State's subdued wrapper, in the header's layout
	Expand   *widget.Button    // Show all (Show less) in the header
	// Args and Out, the arguments and the result (or error), are
	// selected as the chat's text is (ArgsSel, OutSel: a drag, a double
	// click, Select all, Ctrl+C, the primary selection), what is drawn of
	// them.
	Args, Out       *richtext.MDText
	ArgsSel, OutSel *richtext.SelText
	argsSeg         *widget.TextSegment
	Progress        *widget.ProgressBar
	Status          *widget.Label
	outSeg          *widget.TextSegment
	// Copy copies the call as a person pastes it (CallText): the tool,
	// the arguments and the result or error, whole however much of them
	// is drawn.
	Copy *widgets.TipButton
	// The ends of the arguments and of the result (textEnd): their
	// controls are ArgsMore and OutMore (Show all, Show less) and
	// ArgsCopy and OutCopy (Copy all, when they are too long to draw).
	argsEnd, outEnd                      *textEnd
	ArgsMore, OutMore, ArgsCopy, OutCopy *widgets.RingButton
	OutLabel                             *widget.Label
	// CutNote says, at the result's top, that the result limit cut the
	// result before the model saw it (Row.Cut), and by how much.
	CutNote *widget.Label
	// SaveWhole saves the whole result the limit cut, which Deckhand kept
	// beside its log (Row.Cut.Saved), to a file the person picks.
	SaveWhole *widgets.RingButton
	saveBox   fyne.CanvasObject
	Media     *Media
	OpenView  *widget.Button // the tool's view (an MCP App), in a window of its own
	// Answer brings up the approval the call waits for, wherever its
	// dialog was (the quick prompt's window, behind this one).
	Answer    *widget.Button
	answerBox fyne.CanvasObject // its line (hidden, it takes no room)
	outNoun   string            // what the result's end calls it: result, error, text
	spinning  bool
	// The captions' theme wrappers: hiding those, not the labels inside,
	// takes them out of the layout.
	StatusBox, outLabelBox fyne.CanvasObject
}

// NewCard makes a card for the chat's row r.
func (cs *Cards) NewCard(r Row) *Card {
	t := &Card{cards: cs, row: r, icon: widget.NewIcon(nil), Spinner: widget.NewActivity()}
	t.name = widget.NewLabel("")
	t.name.TextStyle.Bold = true
	t.State, t.stateObj = widgets.Subtle("")
	t.Expand = widget.NewButton("Show all", func() {
		row, _ := r.Shown()
		r.Expand(!row.Expanded, nil)
	})
	t.Expand.Importance = widget.LowImportance
	t.argsEnd, t.outEnd = newTextEnd(r), newTextEnd(r)
	t.ArgsMore, t.ArgsCopy = t.argsEnd.more, t.argsEnd.copy
	t.OutMore, t.OutCopy = t.outEnd.more, t.outEnd.copy
	t.Fold = widgets.NewTipButton("", theme.MenuDropDownIcon(), foldTip, cs.Tips, func() {
		row, _ := r.Shown()
		r.Collapse(!row.Collapsed)
	})
	t.Fold.Importance = widget.LowImportance
	// Monospace text wraps at spaces; a token longer than the line is
	// broken where it reaches the edge.
	t.argsSeg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	t.Args = richtext.NewMDText(t.argsSeg)
	t.Args.Wrapping = fyne.TextWrapWord
	t.ArgsSel = t.selectable(t.Args, 0)
	t.Progress = widget.NewProgressBar()
	t.Status, t.StatusBox = widgets.Subtle("")
	t.Status.Wrapping = fyne.TextWrapWord
	t.OutLabel, t.outLabelBox = widgets.Caption("Result")
	t.CutNote = widget.NewLabel("")
	t.CutNote.Wrapping = fyne.TextWrapWord
	t.CutNote.Hide()
	t.SaveWhole = widgets.NewRingButtonWithIcon("Save the whole result…", theme.DocumentSaveIcon(), func() {
		row, _ := r.Shown()
		cs.saveWhole(r.Conv(), row)
	})
	t.SaveWhole.Importance, t.SaveWhole.KeepFocus = widget.LowImportance, true
	t.saveBox = container.NewHBox(t.SaveWhole)
	t.saveBox.Hide()
	t.outSeg = &widget.TextSegment{Style: widget.RichTextStyleCodeBlock}
	t.Out = richtext.NewMDText(t.outSeg)
	t.Out.Wrapping = fyne.TextWrapWord
	t.OutSel = t.selectable(t.Out, 1)
	// An icon: a word beside Open view and Show all left a narrow card's
	// name no room.
	t.Copy = widgets.NewRingTipButton("", theme.ContentCopyIcon(), copyTip, cs.Tips, func() {
		row, _ := r.Shown()
		r.Copy(CallText(row, t.OutLabel.Text), &t.Copy.Button)
	})
	t.Copy.Importance = widget.LowImportance
	// Tab brings the card's controls into view: the chat's Tab goes
	// through the rows the list draws, and at 640×480 a focused Copy
	// showed 9 of its 36 pixels above the list's bottom edge.
	t.Fold.OnFocus = t.reveal(t.Fold)
	t.Copy.OnFocus = t.reveal(t.Copy)
	for _, b := range []*widgets.RingButton{t.ArgsMore, t.ArgsCopy, t.OutMore, t.OutCopy} {
		b.OnFocus = t.reveal(b)
	}
	t.Media = newMedia(t)
	t.Border = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	t.Border.CornerRadius = theme.InputRadiusSize()
	t.Border.StrokeWidth = 1
	t.Spinner.Hide()
	t.OpenView = widget.NewButtonWithIcon("Open view", theme.ComputerIcon(), func() {
		row, _ := r.Shown()
		if cs.apps.Open(r.Conv(), row) {
			// Why the view cannot open (no helper), or that it now
			// can, is said on the card: a notice said nothing at all.
			t.Set(row)
			r.Remeasure()
		}
	})
	t.OpenView.Importance = widget.LowImportance
	t.OpenView.Hide()
	t.Answer = widget.NewButtonWithIcon("Approve or deny…", theme.QuestionIcon(), func() {
		row, _ := r.Shown()
		cs.host.AnswerCall(r.Conv(), row.Call)
	})
	t.Answer.Importance = widget.HighImportance
	t.name.Wrapping, t.State.Wrapping = fyne.TextWrapWord, fyne.TextWrapWord
	t.head = &header{name: t.name, state: t.State}
	title := container.New(t.head,
		container.NewHBox(t.Fold, container.NewStack(t.icon, t.Spinner)), t.name, t.stateObj, container.NewHBox(t.OpenView, t.Expand, t.Copy))
	// Below the title, on a line of its own: beside it, it widened the
	// card past a narrow window.
	t.answerBox = container.NewHBox(t.Answer)
	t.answerBox.Hide()
	body := container.NewVBox(title, t.answerBox, t.ArgsSel, t.argsEnd.obj, t.Progress, t.StatusBox, t.outLabelBox, t.CutNote, t.saveBox, t.OutSel, t.outEnd.obj, t.Media.obj)
	t.obj = container.NewStack(t.Border, container.NewPadded(body))
	return t
}

// What the fold chevron says of itself, open and folded.
const (
	foldTip   = "Fold the card to its header"
	copyTip   = "Copy the call: the tool, its arguments and its result"
	unfoldTip = "Open the card"
)

// reveal is what o does when it takes the keyboard's focus: it asks the
// chat to show it whole, once the chat is laid out (a control pressed at
// a text's end takes the focus again as the card grows or shrinks around
// it, and is where it was only then).
func (t *Card) reveal(o fyne.CanvasObject) func(bool) {
	return func(on bool) {
		if !on {
			return
		}
		t.cards.host.Post(func() {
			c := fyne.CurrentApp().Driver().CanvasForObject(o)
			if f, ok := o.(fyne.Focusable); ok && c != nil && c.Focused() == f && o.Visible() {
				t.row.Reveal(o)
			}
		})
	}
}

// selectable makes text, drawn in the card as its part-th block,
// selectable in the cards' selection.
func (t *Card) selectable(text *richtext.MDText, part int) *richtext.SelText {
	s := richtext.NewSelText(t.cards.Sel, text, t.row.ID)
	s.Part = part
	// What is copied is cut from the text as drawn: its line breaks, and
	// none where a line was wrapped.
	s.Source = func() string { return text.Segments[0].(*widget.TextSegment).Text }
	return s
}

// Selectables are the card's texts shown, in reading order, for the
// chat's selection.
func (t *Card) Selectables() []*richtext.SelText {
	var out []*richtext.SelText
	for _, s := range []*richtext.SelText{t.ArgsSel, t.OutSel} {
		if s.Visible() && s.Rich.Visible() {
			out = append(out, s)
		}
	}
	return out
}

// View is the card's canvas object.
func (t *Card) View() fyne.CanvasObject { return t.obj }

// onScreen reports whether the card is one of the list's (not the view
// that measures rows) and open.
func (t *Card) onScreen() bool {
	row, listed := t.row.Shown()
	return listed && row.Kind == transcript.Tool && !row.Collapsed
}

// Set draws row, a tool call's, on the card; only what changed is drawn
// again.
func (t *Card) Set(r transcript.Row) {
	icons := &t.cards.icons
	_, listed := t.row.Shown()
	t.head.setName(r.Tool)
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
		if transcript.CutNote(r.Cut) != "" {
			// Folded too, the card says the model saw a part.
			state += " · cut for the model"
		}
	case transcript.Failed:
		icon, state, stroke = icons.Failed, r.FailedState(widgets.Elapsed), theme.ColorNameError
		switch {
		case refused:
			icon, state, stroke = icons.Denied, "refused by policy (not run)", theme.ColorNameWarning
		case r.Cancelled:
			// The person stopped it: nothing went wrong, so neither the
			// red error icon nor "failed" (the run above says "Stopped.").
			icon, state, stroke = t.cards.stopped, "stopped after "+widgets.Elapsed(r.Elapsed), theme.ColorNameSeparator
		}
	case transcript.Denied:
		icon, state, stroke = icons.Denied, "denied", theme.ColorNameWarning
	}
	notRun := r.NotRun != "" && !refused
	if notRun {
		// It never ran: no duration, which would say it ran and failed.
		icon, state, stroke = icons.Denied, "not run: "+r.NotRun, theme.ColorNameWarning
	}
	widgets.SetText(t.State, state)
	widgets.SetVisible(t.answerBox, r.State == transcript.Asked)
	widgets.SetVisible(t.Answer, r.State == transcript.Asked)
	if icon != nil {
		widgets.SetIcon(t.icon, icon)
	}
	widgets.SetVisible(t.icon, icon != nil)
	spin := r.State == transcript.Running && listed // never animate the measuring view
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
	if m := t.row.FindMark(); m != nil {
		c, width = m, 3 // it holds a match of the find bar's
	}
	if t.Border.StrokeColor != c || t.Border.StrokeWidth != width {
		t.Border.StrokeColor, t.Border.StrokeWidth = c, width
		t.Border.Refresh()
	}

	open := !r.Collapsed
	fold, tip := theme.MenuDropDownIcon(), foldTip
	if !open {
		fold, tip = theme.MenuExpandIcon(), unfoldTip
	}
	if t.Fold.Icon != fold {
		t.Fold.SetIcon(fold)
	}
	t.Fold.Tip = tip
	long := transcript.Long(r.Args) || transcript.Long(r.Output)
	args, out := r.Args, r.Output
	var argsHidden, outHidden, argsUndrawn, outUndrawn int
	if r.Expanded {
		args, argsUndrawn = transcript.Whole(args)
		out, outUndrawn = transcript.Whole(out)
	} else {
		args, argsHidden = transcript.Cut(args)
		out, outHidden = transcript.Cut(out)
	}
	if long {
		if r.Expanded {
			t.Expand.SetText("Show less")
		} else if t.Expand.Text != "Show all" {
			t.Expand.SetText("Show all")
		}
	}
	widgets.SetVisible(t.Expand, long && open)
	_, view := t.cards.apps.Of(r.Tool)
	// A view's own call: the view that made it has its result already,
	// and another would be told a result it never asked to show.
	widgets.SetVisible(t.OpenView, view != "" && r.Origin == "")
	widgets.SetVisible(t.Copy, open)
	widgets.SetVisible(t.Args, open)
	widgets.SetVisible(t.ArgsSel, open)
	widgets.SetSegment(&t.Args.RichText, t.argsSeg, args, theme.ColorNameForeground)
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
	if r.Origin != "" {
		status = "Called from " + r.Origin + ", not by the model (the model does not see it)."
	}
	said := r.State == transcript.Running && r.Status != "" || refused || r.Origin != ""
	if !said {
		status = ""
	}
	if r.Origin == "" {
		// Why its Open view could not open the view, till one can (or,
		// the tool gone, till it is back and Open view with it).
		if cannot := t.cards.apps.Cannot(t.row.Conv(), r); cannot != "" {
			status = strings.TrimSpace(status + "\n" + cannot)
		}
	}
	widgets.SetText(t.Status, status)
	widgets.SetVisible(t.StatusBox, open && status != "")
	finished := r.State == transcript.Succeeded || r.State == transcript.Failed || r.State == transcript.Denied
	if finished && out != "" {
		label, color, noun := "Result", theme.ColorNameForeground, "result"
		switch r.State {
		case transcript.Failed:
			label, color, noun = "Error", theme.ColorNameError, "error"
			if refused || r.Cancelled {
				label, color, noun = "Why (what the model was told)", theme.ColorNameForeground, "text"
			}
		case transcript.Denied:
			label, noun = "Why", "text"
		}
		if notRun {
			label, color, noun = "Why (what the model was told)", theme.ColorNameForeground, "text"
		}
		widgets.SetText(t.OutLabel, label)
		t.outNoun = noun
		widgets.SetSegment(&t.Out.RichText, t.outSeg, out, color)
	}
	shown := open && finished && out != ""
	widgets.SetVisible(t.outLabelBox, shown)
	note := transcript.CutNote(r.Cut)
	widgets.SetText(t.CutNote, note)
	widgets.SetVisible(t.CutNote, shown && note != "")
	saved := shown && note != "" && r.Cut.Saved
	widgets.SetVisible(t.saveBox, saved)
	widgets.SetVisible(t.SaveWhole, saved)
	// What Show all shows of a cut result is what the model saw: the
	// whole result is the file Save the whole result… writes.
	t.outEnd.partial = note != ""
	widgets.SetVisible(t.Out, shown)
	widgets.SetVisible(t.OutSel, shown)
	t.argsEnd.set(r.Args, open, r.Expanded, argsHidden, argsUndrawn, "arguments")
	t.outEnd.set(r.Output, shown, r.Expanded, outHidden, outUndrawn, t.outNoun)
	media := r.Media
	if !open || !finished {
		media = nil
	}
	t.Media.set(media, t.onScreen())
}

// CallText is a call as a person pastes it: the tool's name, its
// arguments (JSON), and its result or error under label (what the card
// calls it: Result, Error, Why), each whole, however much of them the
// card draws. Both texts were cleaned of escape sequences when the
// transcript took them.
func CallText(r transcript.Row, label string) string {
	var b strings.Builder
	b.WriteString(r.Tool)
	if r.Args != "" {
		b.WriteString("\n\nArguments:\n")
		b.WriteString(r.Args)
	}
	finished := r.State == transcript.Succeeded || r.State == transcript.Failed || r.State == transcript.Denied
	if finished && r.Output != "" {
		if label == "" {
			label = "Result"
		}
		b.WriteString("\n\n" + label + ":\n")
		b.WriteString(r.Output)
	}
	return b.String()
}
