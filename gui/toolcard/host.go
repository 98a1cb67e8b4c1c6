package toolcard

import (
	"image/color"
	"net/url"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"deckhand/transcript"
)

// Host is the window the cards are shown in (package gui's UI, through
// the chat). Its methods are called on the UI goroutine, but for Post.
type Host interface {
	// Window is the main window: an image is shown large over it, and
	// Save… asks where in a dialog of its own.
	Window() fyne.Window
	// Post runs f on the UI goroutine.
	Post(f func())
	// ShowError tells the person of a problem.
	ShowError(msg string)
	// ShowInfo tells the person something done as they asked (a file
	// saved).
	ShowInfo(msg string)
	// OpenURL opens a link in the browser.
	OpenURL(link *url.URL) error
	// ServerReady reports whether server alias is connected.
	ServerReady(alias string) bool
	// AttachResource attaches a server's resource to the next message.
	AttachResource(alias, uri string)
	// AnswerCall brings up the approval conversation conv's call (the
	// model's id) waits for, in the window the card is in: the dialog may
	// be open on the quick prompt's.
	AnswerCall(conv, call string)
	// ResultFile is the file that keeps the whole result of call call of
	// run run of conversation conv, when the result limit cut it and
	// Deckhand kept it (store.DB.ResultPath); "" with no log.
	ResultFile(conv, run, call string) string
}

// Row is the chat's row a card is drawn in (package chat): the list
// reuses it for any kind of row, and it lays the card out among the
// others. Its methods are called on the UI goroutine.
type Row interface {
	// Shown is the transcript row the view shows now (not always a tool
	// call's: the list reuses views), and whether the view is in the list
	// rather than the one that measures rows off screen.
	Shown() (row transcript.Row, listed bool)
	// ID is the row's number in the chat's list (its place in the chat's
	// selection); -1 for the view that measures rows off screen.
	ID() int
	// Conv is the conversation the row is of.
	Conv() string
	// Expand shows the card's arguments and result whole (or cut), and
	// Collapse folds it to its header (or opens it): the row is drawn
	// again at its new height, and the bridge keeps the change. keep, if
	// not nil, is the control pressed (at a cut text's end): it stays
	// where it is on screen, under the pointer, and the card grows or
	// shrinks around it; nil keeps the card's top where it is.
	Expand(expanded bool, keep fyne.CanvasObject)
	Collapse(collapsed bool)
	// Remeasure gives the row the height of what the card now shows (a
	// note in an image's place), keeping the view where it is.
	Remeasure()
	// Reveal scrolls the chat so that o, a control of the card's that
	// has just taken the keyboard's focus, shows whole.
	Reveal(o fyne.CanvasObject)
	// Copy puts text on the clipboard and says so on b.
	Copy(text string, b *widget.Button)
	// FindMark is the colour of the card's border when it holds a match
	// of the find bar's (the current one's when it holds that), nil when
	// it holds none.
	FindMark() color.Color
}
