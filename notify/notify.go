// Package notify sends desktop notifications over the session bus, as the
// freedesktop notification specification has them: with actions (buttons
// such as "Allow once", and "default", a click on the notification's
// body), withdrawn by the sender when they no longer apply.
//
// Fyne's own notifications have no actions and cannot be withdrawn, so an
// approval asked in a notification could be neither answered from it nor
// taken back once answered in the window.
//
// A Notifier is safe for concurrent use. Its callbacks run on one
// goroutine of its own, in the order the bus delivered the signals; they
// must not block.
package notify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"

	"deckhand/clean"
)

const (
	busName   = "org.freedesktop.Notifications"
	busPath   = "/org/freedesktop/Notifications"
	iface     = "org.freedesktop.Notifications"
	appName   = "Deckhand"
	maxBody   = 400 // characters of body text: a notification is a glance
	maxTitle  = 80
	maxAction = 40
)

// DefaultAction is the key of the action a click on the notification's
// body invokes.
const DefaultAction = "default"

// Urgency is the notification's urgency hint.
type Urgency byte

const (
	Low Urgency = iota
	Normal
	Critical
)

// Action is a button a notification offers.
type Action struct {
	Key   string // what ActionInvoked reports
	Label string // what the person reads
}

// Notification is what to show.
type Notification struct {
	Title   string
	Body    string // plain text: markup in it is shown as written
	Actions []Action
	Urgency Urgency
	// Expire is how long it stays; 0 leaves it to the server, negative
	// keeps it until it is withdrawn or dismissed.
	Expire time.Duration
	// OnAction is called with the key of the action the person chose.
	OnAction func(key string)
	// OnClosed is called once when it went away for any reason (expired,
	// dismissed, withdrawn, an action was chosen).
	OnClosed func()
}

// Notifier talks to the session's notification server.
type Notifier struct {
	conn    *dbus.Conn
	obj     dbus.BusObject
	caps    []string
	signals chan *dbus.Signal

	mu      sync.Mutex
	live    map[uint32]*Notification
	closed  bool
	stopped chan struct{}
}

// Connect opens a private connection to the session bus and asks the
// notification server what it supports. It fails when there is no session
// bus or nothing on it shows notifications.
func Connect() (*Notifier, error) {
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return nil, fmt.Errorf("notifications: no session bus: %w", err)
	}
	if err := conn.Auth(nil); err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifications: session bus: %w", err)
	}
	if err := conn.Hello(); err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifications: session bus: %w", err)
	}
	return newNotifier(conn)
}

func newNotifier(conn *dbus.Conn) (*Notifier, error) {
	n := &Notifier{
		conn:    conn,
		obj:     conn.Object(busName, busPath),
		live:    map[uint32]*Notification{},
		signals: make(chan *dbus.Signal, 64),
		stopped: make(chan struct{}),
	}
	if err := n.call("GetCapabilities").Store(&n.caps); err != nil {
		conn.Close()
		return nil, fmt.Errorf("notifications: no notification server on the session bus: %w", err)
	}
	for _, member := range []string{"ActionInvoked", "NotificationClosed"} {
		if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(busPath),
			dbus.WithMatchInterface(iface), dbus.WithMatchMember(member)); err != nil {
			conn.Close()
			return nil, fmt.Errorf("notifications: listening for %s: %w", member, err)
		}
	}
	conn.Signal(n.signals)
	go n.dispatch()
	return n, nil
}

// Actions reports whether the server shows actions. Without them a
// notification can only tell the person where to answer.
func (n *Notifier) Actions() bool { return slices.Contains(n.caps, "actions") }

// ErrNotShown wraps the error of a Send that certainly showed nothing:
// no notification server owns its name on the bus (none started yet, or
// the one there is restarting), or the connection to the bus is gone.
// Sending it again, on a new connection once a server is there, shows it
// once. Any other error (a server that did not answer in time) may have
// shown it: sent again, it could show twice, once with no way to
// withdraw it.
var ErrNotShown = errors.New("not shown")

// notShown reports whether err says the call never reached a
// notification server.
func notShown(err error) bool {
	if errors.Is(err, dbus.ErrClosed) {
		return true
	}
	var name string
	var de dbus.Error
	var dp *dbus.Error
	switch {
	case errors.As(err, &de):
		name = de.Name
	case errors.As(err, &dp) && dp != nil:
		name = dp.Name
	}
	switch name {
	case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
		"org.freedesktop.DBus.Error.Disconnected":
		return true
	}
	// The bus started a server for the call (activation) and that
	// failed: the server it started never got the call.
	return strings.HasPrefix(name, "org.freedesktop.DBus.Error.Spawn.")
}

// Send shows a notification and returns its id, for Withdraw. An error
// that wraps ErrNotShown showed nothing.
func (n *Notifier) Send(no Notification) (uint32, error) {
	body := clean.Text(no.Body)
	if len([]rune(body)) > maxBody {
		body = string([]rune(body)[:maxBody-1]) + "…"
	}
	if slices.Contains(n.caps, "body-markup") {
		// The body may hold a server's or a model's words: markup in it
		// would be drawn (a link to follow, a face to hide behind), so it
		// is escaped to show as written.
		body = escapeMarkup(body)
	}
	title := clean.Line(no.Title)
	if len([]rune(title)) > maxTitle {
		title = string([]rune(title)[:maxTitle-1]) + "…"
	}
	var actions []string
	if n.Actions() {
		for _, a := range no.Actions {
			label := clean.Line(a.Label)
			if len([]rune(label)) > maxAction {
				label = string([]rune(label)[:maxAction-1]) + "…"
			}
			actions = append(actions, a.Key, label)
		}
	}
	hints := map[string]dbus.Variant{
		"urgency":       dbus.MakeVariant(byte(no.Urgency)),
		"desktop-entry": dbus.MakeVariant("deckhand"),
	}
	expire := int32(-1)
	switch {
	case no.Expire < 0:
		expire = 0
	case no.Expire > 0:
		expire = int32(min(no.Expire.Milliseconds(), 1<<31-1))
	}
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return 0, fmt.Errorf("notifications: %w: closed", ErrNotShown)
	}
	n.mu.Unlock()
	var id uint32
	err := n.call("Notify", appName, uint32(0), "", title, body, actions, hints, expire).Store(&id)
	if notShown(err) {
		return 0, fmt.Errorf("notifications: %w: %w", ErrNotShown, err)
	}
	if err != nil {
		return 0, fmt.Errorf("notifications: %w", err)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return id, nil
	}
	cp := no
	n.live[id] = &cp
	return id, nil
}

// Withdraw takes a notification back: it no longer applies. Its OnClosed
// is called; withdrawing one already gone does nothing.
func (n *Notifier) Withdraw(id uint32) {
	if id == 0 {
		return
	}
	n.mu.Lock()
	_, ok := n.live[id]
	n.mu.Unlock()
	if !ok {
		return
	}
	// The server answers with NotificationClosed, which forgets it; a
	// server that does not is not waited for.
	n.call("CloseNotification", id)
}

// Close withdraws every notification still shown and closes the
// connection. Callbacks are not called after it returns.
func (n *Notifier) Close() {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	n.closed = true
	ids := make([]uint32, 0, len(n.live))
	for id := range n.live {
		ids = append(ids, id)
	}
	n.live = map[uint32]*Notification{}
	n.mu.Unlock()
	for _, id := range ids {
		n.call("CloseNotification", id)
	}
	// Closing the connection closes the signal channel (as does the bus
	// going away on its own), which ends dispatch.
	n.conn.Close()
	<-n.stopped
}

func (n *Notifier) dispatch() {
	defer close(n.stopped)
	for s := range n.signals {
		if s == nil || s.Path != busPath || len(s.Body) < 2 {
			continue
		}
		id, ok := s.Body[0].(uint32)
		if !ok {
			continue
		}
		n.mu.Lock()
		no := n.live[id]
		switch s.Name {
		case iface + ".NotificationClosed":
			delete(n.live, id)
		}
		closed := n.closed
		n.mu.Unlock()
		if no == nil || closed {
			continue
		}
		switch s.Name {
		case iface + ".ActionInvoked":
			key, _ := s.Body[1].(string)
			if no.OnAction != nil && key != "" {
				no.OnAction(key)
			}
		case iface + ".NotificationClosed":
			if no.OnClosed != nil {
				no.OnClosed()
			}
		}
	}
}

// callTimeout bounds each call: a notification server that hangs does
// not hold up whoever asked.
const callTimeout = 5 * time.Second

func (n *Notifier) call(method string, args ...any) *dbus.Call {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return n.obj.CallWithContext(ctx, iface+"."+method, 0, args...)
}

var markup = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&#39;", `"`, "&quot;")

func escapeMarkup(s string) string { return markup.Replace(s) }
