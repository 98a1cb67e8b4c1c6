package block

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/gui/widgets/richtext"
)

// Row is the transcript row a block is drawn in, and the chat around it
// (package chat's row view).
type Row interface {
	// ID is the row's number in the transcript (-1 while it is measured).
	ID() int
	// Flow is how the row's text flows with its neighbours'.
	Flow() Flow
	// Selection is the chat's selection, across blocks.
	Selection() *richtext.Selection
	// Scrolled takes the wheel over the row: the transcript moves.
	Scrolled(*fyne.ScrollEvent)
	// CopyCode puts the code block that begins with text on the clipboard
	// (its rows joined: WholeCode) and says so on b.
	CopyCode(text string, b *widget.Button)
}

// Inset indents a message's blocks under its header.
const Inset = 34

// Indented is o indented under its message's header, as its blocks are
// (the chat indents its tool cards and notices alike).
func Indented(o fyne.CanvasObject) *fyne.Container {
	return container.New(widgets.Inset{Left: Inset, Right: theme.Padding() * 2}, o)
}
