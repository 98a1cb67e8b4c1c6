package gui

import (
	"log/slog"
	"sync"
	"time"

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
	connect func() (notifier, error) // notify.Connect; a recorder in tests
	post    func(func())             // runs on the UI goroutine

	// Only the worker goroutine touches these.
	n      notifier
	failed bool
	ids    map[string]uint32 // by what the notification is about
}

// notifier is what notes needs of a *notify.Notifier.
type notifier interface {
	Actions() bool
	Send(notify.Notification) (uint32, error)
	Withdraw(uint32)
	Close()
}

func newNotes(log *slog.Logger, post func(func())) *notes {
	connect := func() (notifier, error) { return notify.Connect() }
	return &notes{log: log, post: post, ops: make(chan func(), 256), ids: map[string]uint32{}, connect: connect}
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
func (s *notes) connected() notifier {
	if s.n == nil && !s.failed {
		n, err := s.connect()
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
	s.do(func() {
		n := s.connected()
		if n == nil {
			return
		}
		if id, ok := s.ids[key]; ok {
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
