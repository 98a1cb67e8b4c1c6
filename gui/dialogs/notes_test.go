package dialogs

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"deckhand/notify"
)

// fakeServer is the session's notification server as notes sees it: each
// Connect is a new Notifier on it; it can be away (Connect fails), or
// leave after a connection was made (Send fails with ErrNotShown).
type fakeServer struct {
	mu       sync.Mutex
	failConn int     // Connects that fail before one succeeds
	sendErrs []error // what the next Sends return, in order, before they succeed
	conns    int
	shown    []string // titles, in order
	closed   int      // Notifiers closed
}

func (f *fakeServer) connect() (Notifier, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.conns++
	if f.failConn > 0 {
		f.failConn--
		return nil, errors.New("notifications: no notification server on the session bus: org.freedesktop.DBus.Error.ServiceUnknown")
	}
	return &fakeNotifier{f: f}, nil
}

func (f *fakeServer) state() (conns int, shown []string, closed int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conns, append([]string(nil), f.shown...), f.closed
}

type fakeNotifier struct{ f *fakeServer }

func (n *fakeNotifier) Actions() bool   { return true }
func (n *fakeNotifier) Withdraw(uint32) {}
func (n *fakeNotifier) Close() {
	n.f.mu.Lock()
	n.f.closed++
	n.f.mu.Unlock()
}
func (n *fakeNotifier) Send(no notify.Notification) (uint32, error) {
	n.f.mu.Lock()
	defer n.f.mu.Unlock()
	if len(n.f.sendErrs) > 0 {
		err := n.f.sendErrs[0]
		n.f.sendErrs = n.f.sendErrs[1:]
		return 0, err
	}
	n.f.shown = append(n.f.shown, no.Title)
	return uint32(len(n.f.shown)), nil
}

// testNotes are notes on f, logging into the returned buffer, trying
// again at once.
func testNotes(f *fakeServer) (*notes, *bytes.Buffer) {
	var log bytes.Buffer
	s := newNotes(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo})), func(fn func()) { fn() })
	s.Connect, s.retry = f.connect, 0
	return s, &log
}

// flush waits until the worker has done everything asked before.
func flush(t *testing.T, s *notes) {
	t.Helper()
	done := make(chan struct{})
	s.do(func() { close(done) })
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the notes' worker is stuck")
	}
}

func titled(title string) func(bool) notify.Notification {
	return func(bool) notify.Notification { return notify.Notification{Title: title} }
}

// A notification server not on the bus at the first notification (one
// still starting, or slow to answer under load) is connected to again: the
// notification is tried once more, and later ones are shown. One failed
// Connect turned desktop notifications off until Deckhand restarted,
// saying so only at Info (not shown at the default level), so an approval
// asked while Deckhand was behind was never notified.
func TestNotesConnectAgainAfterAFailure(t *testing.T) {
	f := &fakeServer{failConn: 1}
	s, log := testNotes(f)
	s.send("a", titled("first"))
	s.send("b", titled("second"))
	flush(t, s)
	if conns, shown, _ := f.state(); strings.Join(shown, ",") != "first,second" || conns != 2 {
		t.Errorf("after one failed connect: shown %q over %d connects, want first and second over 2\nlog:\n%s", shown, conns, log)
	}
}

// A server that is never there: each notification is tried twice, and
// the loss is said at Warn, once, until one is shown again.
func TestNotesNotShownIsSaid(t *testing.T) {
	f := &fakeServer{failConn: 4}
	s, log := testNotes(f)
	s.send("a", titled("first"))
	s.send("b", titled("second"))
	flush(t, s)
	conns, shown, _ := f.state()
	if len(shown) != 0 || conns != 4 {
		t.Errorf("no server: shown %q over %d connects, want none over 4", shown, conns)
	}
	if n := strings.Count(log.String(), "level=WARN"); n != 1 || !strings.Contains(log.String(), "desktop notification not shown") {
		t.Errorf("no server: %d warnings, want 1 saying it was not shown; log:\n%s", n, log)
	}
	s.send("c", titled("third"))
	flush(t, s)
	if _, shown, _ := f.state(); fmt.Sprint(shown) != "[third]" || !strings.Contains(log.String(), "shown again") {
		t.Errorf("the server back: shown %q; log:\n%s", shown, log)
	}
}

// A server that left after the connection was made (a restart): the
// notification is sent again on a new connection, once. An error that
// may have shown it (no answer in time) is not sent again, which could
// show it twice, but said.
func TestNotesServerGoneSendsAgain(t *testing.T) {
	gone := fmt.Errorf("notifications: %w: org.freedesktop.DBus.Error.ServiceUnknown", notify.ErrNotShown)
	f := &fakeServer{sendErrs: []error{gone}}
	s, log := testNotes(f)
	s.send("a", titled("first"))
	flush(t, s)
	if conns, shown, closed := f.state(); fmt.Sprint(shown) != "[first]" || conns != 2 || closed != 1 {
		t.Errorf("server gone: shown %q over %d connects (%d closed), want first once over 2 (1 closed)\nlog:\n%s", shown, conns, closed, log)
	}

	f.mu.Lock()
	f.sendErrs = []error{errors.New("notifications: context deadline exceeded")}
	f.mu.Unlock()
	s.send("b", titled("second"))
	flush(t, s)
	if _, shown, _ := f.state(); fmt.Sprint(shown) != "[first]" || !strings.Contains(log.String(), "deadline exceeded") {
		t.Errorf("no answer in time: shown %q, want it not sent again; log:\n%s", shown, log)
	}
}
