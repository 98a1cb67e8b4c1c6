package dialogs

import (
	"log/slog"
	"net/url"

	"fyne.io/fyne/v2"

	"deckhand/actors/servers"
)

// Host is what the dialogs ask of the window they open on.
type Host interface {
	// Window is the main window.
	Window() fyne.Window
	// QuickWindow is the quick prompt's window while it shows and the
	// person is at it (they went to it after the main window, by Deckhand's
	// own means: the tray, Ctrl+K, a notification), else nil. Dialogs for
	// its conversation open there.
	QuickWindow() fyne.Window
	// QuickConv is the quick prompt's conversation.
	QuickConv() string
	// Front is the window the person is at (the main window or the quick
	// prompt's), nil when Deckhand is not in front: behind another
	// application, minimized or closed to the tray. A request whose dialog
	// opens elsewhere is notified.
	Front() fyne.Window
	// Hidden reports whether the main window is closed to the tray.
	Hidden() bool
	// ShowMain brings the main window back and in front; the person is
	// at it.
	ShowMain()
	// ShowQuick brings the quick prompt in front; the person is at it.
	ShowQuick()
	// BackToView brings the view of tool (server.tool) of conversation
	// conv back in front: the person answered the approval of the last
	// call it made, which brought the main window in front of it.
	BackToView(conv, tool string)
	// Tell sends the bridge a message (QuestionAnswer). An approval's
	// answer does not go through it: it goes to the run that asked, by
	// the request's Reply.
	Tell(msg any)
	// Post runs f on the UI goroutine.
	Post(f func())
	// ShowError tells the person of a problem.
	ShowError(msg string)
	// OpenURL opens a page in the browser.
	OpenURL(u *url.URL) error
	// Clipboard is the app's clipboard.
	Clipboard() fyne.Clipboard
}

// Dialogs are the window's requests answered in a dialog: the tool calls
// to approve and the servers' questions, in one queue, with their desktop
// notifications. They belong to the UI goroutine.
type Dialogs struct {
	Approvals *Approvals
	Questions *Questions
	host      Host
	log       *slog.Logger
	modals    *modals
	notes     *notes
}

// New makes the window's dialogs; log takes the notifications' failures
// and the answers dropped (nil: discarded).
func New(host Host, log *slog.Logger) *Dialogs {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d := &Dialogs{host: host, log: log}
	d.modals = &modals{d: d}
	d.Approvals, d.Questions = newApprovals(d), newQuestions(d)
	d.notes = newNotes(log, host.Post)
	return d
}

// Close withdraws the notifications still asking: nobody is left to
// answer them.
func (d *Dialogs) Close() { d.notes.close() }

// Follow moves the open dialog to the window the person is at now
// (Host.QuickWindow), if it is on another: they went from the quick
// prompt to the main window, or back.
func (d *Dialogs) Follow() { d.modals.follow() }

// Parent is the window the open dialog is on, or nil.
func (d *Dialogs) Parent() fyne.Window { return d.modals.parent }

// Waiting is how many requests wait in the queue, the one shown included.
func (d *Dialogs) Waiting() int { return d.modals.waiting() }

// SetNotifier replaces the desktop's notifications (tests give a
// recorder). Call it before the first notification.
func (d *Dialogs) SetNotifier(connect func() (Notifier, error)) { d.notes.Connect = connect }

// QuestionAnswer answers a server's question: a message to the bridge.
type QuestionAnswer struct {
	ID, Action string
	Content    map[string]any
	Stop       bool // and refuse the rest of the server's questions for the session
}

// Question is a server's question as the window shows it: the request,
// and what the bridge knows of where it came from.
type Question struct {
	Req   *servers.ElicitationRequested
	Tool  string // the tool call it came during (alias.tool), when known
	Conv  string // that call's conversation's title
	Quick bool   // the quick prompt's conversation

	e *Questions // set when it joins the window's questions
}
