package toolcard

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/tools"
	"deckhand/transcript"
)

// textEnd is what ends a card's long text (its arguments, its result):
// cut, the control that shows the rest, saying how much that is ("Show
// the whole result (482 B more)"); shown whole, Show less, and, when it
// is too long to draw all of (transcript.Whole), a note that says so and
// Copy all. The cut's line "… 482 B more (Show all)" was text that no
// click or key reached, and the header's Show all was out of sight above
// a long result.
type textEnd struct {
	obj  fyne.CanvasObject
	more *widgets.RingButton
	copy *widgets.RingButton // Copy all, when not all is drawn
	note *widget.Label
	box  fyne.CanvasObject // note's
	text string            // all of the text, for Copy all
	// partial: the text is the part of a result the model saw (the
	// result limit cut it): its Show says so, not "the whole result".
	partial bool
}

// newTextEnd makes the end of a text of the card's row r. Its controls
// keep the focus when pressed from the keyboard, and the card grows or
// shrinks around the one pressed, which stays under the pointer.
func newTextEnd(r Row) *textEnd {
	e := &textEnd{}
	e.more = widgets.NewRingButton("", nil)
	e.more.OnTapped = func() {
		row, _ := r.Shown()
		r.Expand(!row.Expanded, e.more)
	}
	e.copy = widgets.NewRingButtonWithIcon("Copy all", theme.ContentCopyIcon(), func() { r.Copy(e.text, &e.copy.Button) })
	for _, b := range []*widgets.RingButton{e.more, e.copy} {
		b.Importance, b.KeepFocus, b.Alignment = widget.LowImportance, true, widget.ButtonAlignLeading
	}
	e.note, e.box = widgets.Subtle("")
	e.note.Wrapping = fyne.TextWrapWord
	e.obj = container.NewVBox(e.box, container.NewHBox(e.more, e.copy))
	e.obj.Hide()
	return e
}

// set shows the end of text, drawn cut (hidden bytes after its head) or
// whole (undrawn bytes at its end), noun naming it; shown false hides it.
func (e *textEnd) set(text string, shown, expanded bool, hidden, undrawn int, noun string) {
	label := ""
	switch {
	case !shown || !transcript.Long(text):
	case expanded:
		label = "Show less"
	case hidden > 0 && noun == "arguments":
		label = "Show all the arguments (" + tools.Size(hidden) + " more)"
	case hidden > 0 && e.partial:
		label = "Show all the model saw (" + tools.Size(hidden) + " more)"
	case hidden > 0:
		label = "Show the whole " + noun + " (" + tools.Size(hidden) + " more)"
	}
	if label == "" {
		widgets.SetVisible(e.obj, false)
		widgets.SetVisible(e.more, false)
		return
	}
	icon := theme.MoreHorizontalIcon()
	if expanded {
		icon = theme.MenuDropUpIcon()
	}
	if e.more.Text != label || e.more.Icon != icon {
		e.more.Text, e.more.Icon = label, icon
		e.more.Refresh()
	}
	e.text = text
	cut := expanded && undrawn > 0
	if cut {
		widgets.SetText(e.note, "The last "+tools.Size(undrawn)+" of the "+noun+" are not drawn: too long for the window. Copy all copies the whole "+noun+" ("+tools.Size(len(text))+").")
	}
	widgets.SetVisible(e.box, cut)
	widgets.SetVisible(e.copy, cut)
	widgets.SetVisible(e.more, true)
	widgets.SetVisible(e.obj, true)
}
