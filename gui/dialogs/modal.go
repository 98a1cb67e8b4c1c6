package dialogs

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
)

// modals is the window's one queue of requests the person answers in a
// dialog: tool calls to approve (approval.go) and servers' questions
// (elicit.go). One dialog shows at a time, for the oldest request, whatever
// its kind; the next opens as soon as the one before is answered or goes
// (timed out, or cancelled with its run). While a dialog is open it has the
// window's keys; when it closes, the keys and the focus go back to where
// they were, so typing goes on where it was.
//
// It is touched on the UI goroutine only. The two kinds say what their
// dialog shows and what its keys do; the queue decides which shows, where,
// and when.
type modals struct {
	d       *Dialogs
	queue   []modalRequest // not yet answered, oldest first
	showing modalRequest   // the one whose dialog is open, if any
	dlg     *dialog.CustomDialog
	parent  fyne.Window          // the window the dialog is open on
	closing bool                 // the dialog is being closed by us, not the person
	keys    func(*fyne.KeyEvent) // the parent's key handler while the dialog is open
	focus   fyne.Focusable       // what had the keyboard before the dialog took it
	// pending is that focus, to be given back once the event that closed
	// the dialog is through; a dialog opened first on the same window takes
	// it over.
	pending   fyne.Focusable
	pendingIn fyne.Canvas // the window's canvas pending belongs to
}

// modalRequest is one request in the queue.
type modalRequest interface {
	// inQuick says it comes from the quick prompt's conversation: its
	// dialog opens on the quick prompt while the person is at it.
	inQuick() bool
	// dialog makes the request's dialog on parent, not yet shown.
	dialog(parent fyne.Window) *dialog.CustomDialog
	// typedKey takes a key typed while its dialog is open.
	typedKey(c fyne.Canvas, k *fyne.KeyEvent)
	// dismissed: the person closed the dialog without choosing.
	dismissed()
	// recount: the number waiting changed while its dialog is open.
	recount()
}

// add queues requests, in the order given, after those already waiting.
func (m *modals) add(rs ...modalRequest) {
	if len(rs) == 0 {
		return
	}
	m.queue = append(m.queue, rs...)
	if m.showing != nil {
		m.showing.recount()
	}
	m.next()
}

// drop takes requests off the queue (answered, here or elsewhere, timed
// out, or gone with their run), closing the dialog of the one shown, and
// opens the next.
func (m *modals) drop(rs ...modalRequest) {
	n := len(m.queue)
	m.queue = slices.DeleteFunc(m.queue, func(q modalRequest) bool { return slices.Contains(rs, q) })
	if len(m.queue) == n {
		return
	}
	if m.showing != nil && slices.Contains(rs, m.showing) {
		m.close()
	} else if m.showing != nil {
		m.showing.recount()
	}
	m.next()
}

// waiting counts the requests not yet answered, the one shown included.
func (m *modals) waiting() int { return len(m.queue) }

// where is the window r's dialog opens on: the quick prompt, for the
// quick prompt's conversation while the person is at it; else the main
// window.
func (m *modals) where(r modalRequest) fyne.Window {
	if q := m.d.host.QuickWindow(); r.inQuick() && q != nil {
		return q
	}
	return m.d.host.Window()
}

// next opens the dialog of the oldest request, unless one is open, on
// the window where says, the main window brought back from the tray if
// need be.
func (m *modals) next() {
	if m.showing != nil || len(m.queue) == 0 {
		return
	}
	r := m.queue[0]
	parent := m.where(r)
	if parent == m.d.host.Window() && m.d.host.Hidden() {
		m.d.host.ShowMain()
	}
	m.showing, m.parent = r, parent
	m.dlg = r.dialog(parent)
	m.dlg.SetOnClosed(func() {
		if !m.closing && m.showing == r {
			r.dismissed()
		}
	})
	c := parent.Canvas()
	m.focus = c.Focused()
	if m.pending != nil && m.pendingIn == c {
		m.focus, m.pending = m.pending, nil // the last dialog's, not yet given back
	}
	c.Unfocus()
	m.keys = c.OnTypedKey() // the window's own (Escape stops a run), back when the dialog closes
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if m.showing == r {
			r.typedKey(c, k)
		}
	})
	m.dlg.Show()
	if o, ok := r.(interface{ opened() }); ok {
		o.opened()
	}
}

// close hides the open dialog without answering, and gives the window its
// keys and focus back.
func (m *modals) close() {
	if m.dlg == nil {
		m.showing = nil
		return
	}
	m.closing = true
	m.dlg.Hide()
	m.closing = false
	c := m.parent.Canvas()
	c.SetOnTypedKey(m.keys)
	// What the person was typing in gets the keys back: a word typed
	// after answering lands where the one before it did. Not at once: a
	// Space that pressed the dialog's button has its character still to
	// come, and it would type a space into the message box.
	target := m.focus
	m.keys, m.focus = nil, nil
	m.dlg, m.showing = nil, nil
	if f, ok := target.(fyne.CanvasObject); ok && f.Visible() {
		m.pending, m.pendingIn = target, c
		// A character typed before the focus is back (nothing has it, so
		// the canvas gets it) goes on to the target, but for the Space
		// that pressed the dialog's button: typing straight on after
		// Escape lost its first letter.
		runes := c.OnTypedRune()
		give := func() bool {
			c.SetOnTypedRune(runes)
			if m.pending != target {
				return false // a dialog opened meanwhile took it over
			}
			m.pending = nil
			// (A dialog open on another window leaves this one's focus
			// free: the one moved from here to where the person went.)
			if (m.dlg == nil || m.parent.Canvas() != c) && f.Visible() {
				c.Focus(target)
				return true
			}
			return false
		}
		first := true
		c.SetOnTypedRune(func(r rune) {
			give()
			if first && r == ' ' {
				first = false
				return
			}
			first = false
			if c.Focused() == target {
				target.TypedRune(r)
			} else if runes != nil {
				runes(r)
			}
		})
		// From another goroutine, so that it is queued behind the events
		// in hand rather than run at once.
		go m.d.host.Post(func() {
			if m.pending == target {
				give()
			}
		})
	}
}

// follow moves the open dialog to the window where now says, when that
// is another: the person went from the quick prompt to the main window
// (or back) by Deckhand's own means, and a dialog left behind there could
// be answered only from the tray or a notification. Exactly one dialog
// stays open for the request.
func (m *modals) follow() {
	if m.showing == nil || m.where(m.showing) == m.parent {
		return
	}
	m.close()
	m.next() // the same request: it is still the first in the queue
}

// bring opens r's dialog before the others waiting, on the window where
// says: the person asked for it from its call's card. The dialog open
// for another request closes, its request waiting on.
func (m *modals) bring(r modalRequest) {
	i := slices.Index(m.queue, r)
	if i < 0 {
		return
	}
	if m.showing == r {
		m.follow()
		return
	}
	if m.showing != nil {
		m.close()
	}
	m.queue = append([]modalRequest{r}, slices.Delete(m.queue, i, i+1)...)
	m.next()
}

// toFront brings the window r's dialog is open on (or opens on) to the
// front, at the dialog: the person clicked its notification.
func (m *modals) toFront(r modalRequest) {
	w := m.where(r)
	if m.showing == r {
		w = m.parent
	}
	if w == m.d.host.Window() {
		m.d.host.ShowMain()
	} else {
		m.d.host.ShowQuick()
	}
	m.next()
}

// waitingFoot is a dialog's last line: what no answer by the deadline
// counts as ("Denied", "Declined"), and how many more requests wait.
func waitingFoot(verb string, deadline time.Time, more int) string {
	foot := ""
	if !deadline.IsZero() {
		foot = fmt.Sprintf("%s if not answered by %s.", verb, deadline.Format("15:04:05"))
	}
	if more > 0 {
		foot = strings.TrimSpace(fmt.Sprintf("%s %d more waiting.", foot, more))
	}
	return foot
}
