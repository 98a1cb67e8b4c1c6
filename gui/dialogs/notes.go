package dialogs

import (
	"log/slog"
	"slices"
	"sync"
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

	// Only the worker goroutine touches these.
	n      Notifier
	failed bool
	ids    map[string]uint32 // by what the notification is about
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
	return &notes{log: log, post: post, ops: make(chan func(), 256), ids: map[string]uint32{}, Connect: connect}
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

// connected connects on first use; it runs on the worker.
func (s *notes) connected() Notifier {
	if s.n == nil && !s.failed {
		n, err := s.Connect()
		if err != nil {
			s.failed = true
			s.log.Info("no desktop notifications", "err", err)
			return nil
		}
		s.n = n
	}
	return s.n
}

// send shows n about key (an approval's or a question's id), replacing
// one already shown about it. build gets whether the notification server
// shows actions; its callbacks run on the UI goroutine.
func (s *notes) send(key string, build func(actions bool) notify.Notification) {
	keep := s.keep
	s.do(func() {
		n := s.connected()
		if n == nil {
			return
		}
		if id, ok := s.ids[key]; ok {
			if keep {
				return
			}
			n.Withdraw(id)
			delete(s.ids, key)
		}
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
			s.log.Info("desktop notification not shown", "err", err)
			return
		}
		sent, s.ids[key] = id, id
	})
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
	done := make(chan struct{})
	s.do(func() {
		if s.n != nil {
			s.n.Close()
			s.n, s.failed = nil, true
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
