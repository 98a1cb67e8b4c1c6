package dialogs

import (
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"deckhand/clean"
	"deckhand/notify"
)

// notes sends the window's desktop notifications (approvals and questions
// asked while Deckhand is not in front) and withdraws them once they no
// longer apply. Talking to the bus can block, so it happens on a goroutine
// of its own, in the order asked; the person's choice in a notification
// comes back on the UI goroutine.
type notes struct {
	log     *slog.Logger
	ops     chan func()
	start   sync.Once
	Connect func() (Notifier, error) // notify.Connect; a recorder in tests
	post    func(func())             // runs on the UI goroutine
	// keep: a send asked now leaves a notification already shown about
	// its key as it is (set by Away, on the UI goroutine).
	keep bool

	// retry is the pause before a notification that was not shown (no
	// server on the bus yet) is sent once more.
	retry time.Duration
	// closed: Deckhand is ending, nothing more is sent (set by close, at
	// once, so that a send waiting to try again stops).
	closed atomic.Bool

	// Only the worker goroutine touches these.
	n    Notifier
	lost bool              // the last notification was not shown (said once, at Warn)
	ids  map[string]uint32 // by what the notification is about
}

// Notifier is what notes needs of a *notify.Notifier.
type Notifier interface {
	Actions() bool
	Send(notify.Notification) (uint32, error)
	Withdraw(uint32)
	Close()
}

func newNotes(log *slog.Logger, post func(func())) *notes {
	connect := func() (Notifier, error) { return notify.Connect() }
	return &notes{log: log, post: post, ops: make(chan func(), 256), ids: map[string]uint32{}, Connect: connect, retry: time.Second}
}

func (s *notes) do(op func()) {
	s.start.Do(func() {
		go func() {
			for op := range s.ops {
				op()
			}
		}()
	})
	select {
	case s.ops <- op:
	default:
		s.log.Warn("desktop notifications are backed up: one was dropped")
	}
}

// connected connects on first use, and again after a failure: a
// notification server that starts after Deckhand (a session whose
// autostart runs Deckhand first, or one slow to answer under load) is
// used once it is there; one failed try no longer turned notifications
// off until Deckhand restarted. It runs on the worker.
func (s *notes) connected() (Notifier, error) {
	if s.n == nil {
		if s.closed.Load() {
			return nil, errors.New("notifications: Deckhand is ending")
		}
		n, err := s.Connect()
		if err != nil {
			return nil, err
		}
		s.n = n
	}
	return s.n, nil
}

// drop forgets the connection, whose server or bus went away: the next
// send connects again. The notifications it showed went with it.
func (s *notes) drop() {
	if s.n != nil {
		s.n.Close()
		s.n = nil
	}
	clear(s.ids)
}

// send shows n about key (an approval's or a question's id), replacing
// one already shown about it. build gets whether the notification server
// shows actions; its callbacks run on the UI goroutine. One that could
// not be shown because no server was on the bus (none yet, or one
// restarting) is tried once more a moment later, on a new connection; one
// still not shown is logged at Warn, never dropped without a word.
func (s *notes) send(key string, build func(actions bool) notify.Notification) {
	keep := s.keep
	s.do(func() {
		if s.closed.Load() {
			return
		}
		if id, ok := s.ids[key]; ok && s.n != nil {
			if keep {
				return
			}
			s.n.Withdraw(id)
			delete(s.ids, key)
		}
		var err error
		for try := range 2 {
			if try > 0 {
				time.Sleep(s.retry)
				if s.closed.Load() {
					return
				}
			}
			var n Notifier
			if n, err = s.connected(); err != nil {
				continue // nothing was shown: try again
			}
			if err = s.sendOn(n, key, build); err == nil {
				if s.lost {
					s.lost = false
					s.log.Info("desktop notifications are shown again")
				}
				return
			}
			if !errors.Is(err, notify.ErrNotShown) {
				break // it may have been shown: sent again, it could show twice
			}
			s.drop()
		}
		// Said at Warn once, until one is shown again: a desktop without
		// a notification server would otherwise say it at every approval.
		if !s.lost {
			s.lost = true
			s.log.Warn("desktop notification not shown: what asks for an answer waits in the window", "err", err)
		} else {
			s.log.Debug("desktop notification not shown", "err", err)
		}
	})
}

// sendOn shows build's notification about key on n.
func (s *notes) sendOn(n Notifier, key string, build func(actions bool) notify.Notification) error {
	no := build(n.Actions())
	if f := no.OnAction; f != nil {
		no.OnAction = func(k string) { s.post(func() { f(k) }) }
	}
	var sent uint32
	no.OnClosed = func() {
		s.do(func() {
			if s.ids[key] == sent {
				delete(s.ids, key)
			}
		})
	}
	id, err := n.Send(no)
	if err != nil {
		return err
	}
	sent, s.ids[key] = id, id
	return nil
}

// withdraw takes back the notification about key, if one is shown.
func (s *notes) withdraw(key string) {
	s.do(func() {
		if id, ok := s.ids[key]; ok && s.n != nil {
			s.n.Withdraw(id)
			delete(s.ids, key)
		}
	})
}

// close withdraws what is still shown (Deckhand is ending: nobody is left
// to answer it) and waits for that, at most a second.
func (s *notes) close() {
	s.closed.Store(true)
	done := make(chan struct{})
	s.do(func() {
		if s.n != nil {
			s.n.Close()
			s.n = nil
		}
		close(done)
	})
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}

// Away notifies what waits for the person when the window goes from
// the front (another window in front, minimized, hidden to the tray): the
// approvals and questions whose dialogs they can no longer see, which
// otherwise timed out unseen (only a request that came while the window
// was behind was notified). One already shown stays as it is. Each is
// withdrawn when answered, as one that came while behind. It runs on the
// UI goroutine (Fyne's lifecycle callbacks).
func (d *Dialogs) Away() {
	d.notes.keep = true
	defer func() { d.notes.keep = false }()
	a := d.Approvals
	for _, id := range sortedKeys(a.asks) {
		if q := a.asks[id]; !a.Answered[id] {
			a.notified[id] = true
			a.notify(q.r)
		}
	}
	e := d.Questions
	for _, id := range sortedKeys(e.Asks) {
		if !e.answered[id] {
			e.notified[id] = true
			e.noteAway(e.Asks[id])
		}
	}
}

// Back is the window come to the front again: a question open there
// has the keyboard in its form (Questions.intoForm). It runs on the UI
// goroutine (Fyne's lifecycle callbacks).
func (d *Dialogs) Back() { d.Questions.intoForm() }

// noteAway notifies a server's question: one that comes while Deckhand
// is behind (elicitor.add), or one open when the window goes behind.
func (e *Questions) noteAway(it *Question) {
	id := it.Req.ID
	body := clean.Line(it.Req.Server) + " asks you something. Open Deckhand to answer it."
	e.d.notes.send(id, func(actions bool) notify.Notification {
		n := notify.Notification{Title: "Deckhand: a server asks", Body: body, Urgency: notify.Normal, Expire: -1}
		if actions {
			n.Actions = []notify.Action{{Key: notify.DefaultAction, Label: "Open Deckhand"}}
			n.OnAction = func(string) { e.toFront(id) }
		}
		return n
	})
}

// sortedKeys are m's keys in order: notifications go out in the same
// order each time.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
