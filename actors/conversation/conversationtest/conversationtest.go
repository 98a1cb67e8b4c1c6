// Package conversationtest offers typed helpers for tests of
// conversations, so that a test says which event it expects rather than
// polling for it: a Watcher collects a conversation's events (as an actor
// watching it, or fed directly by a run under test), and Expect awaits the
// next event of a type, in the way tailscale's eventbustest does.
//
// It imports nothing of package conversation, so that the package's own
// tests can use it. A Watcher is safe for concurrent use; Expect works
// inside a testing/synctest bubble (its deadline is the bubble's clock).
package conversationtest

import (
	"fmt"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Wait is how long Expect waits for an event.
const Wait = 10 * time.Second

// Watcher collects events, in the order they come.
type Watcher struct {
	// PID is the watcher as an actor (nil for one made by New).
	PID    *actor.PID
	events chan any
}

// New makes a Watcher fed by Put.
func New() *Watcher { return &Watcher{events: make(chan any, 4096)} }

// Spawn makes a Watcher as an actor of root: what it receives, but for the
// actor's own lifecycle messages, is an event. It stops with the test.
func Spawn(t testing.TB, root *actor.RootContext) *Watcher {
	w := New()
	w.PID = root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch c.Message().(type) {
		case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
		default:
			w.Put(c.Message())
		}
	}))
	t.Cleanup(func() { root.Stop(w.PID) })
	return w
}

// Put adds an event. It panics when 4096 events are unread: a test that
// reads none is broken, and must not hang its sender.
func (w *Watcher) Put(m any) {
	select {
	case w.events <- m:
	default:
		panic(fmt.Sprintf("conversationtest: too many unread events (the last %T)", m))
	}
}

// Expect returns the next event of type T, skipping the events of other
// types before it; the test fails when none comes within Wait.
func Expect[T any](t testing.TB, w *Watcher) T {
	t.Helper()
	deadline := time.NewTimer(Wait)
	defer deadline.Stop()
	for {
		select {
		case m := <-w.events:
			if v, ok := m.(T); ok {
				return v
			}
		case <-deadline.C:
			var zero T
			t.Fatalf("no %T within %v", zero, Wait)
			return zero
		}
	}
}

// Next returns the next event, whatever its type; the test fails when
// none comes within Wait.
func Next(t testing.TB, w *Watcher) any {
	t.Helper()
	return Expect[any](t, w)
}

// Drain returns the events received so far, without waiting.
func (w *Watcher) Drain() []any {
	var out []any
	for {
		select {
		case m := <-w.events:
			out = append(out, m)
		default:
			return out
		}
	}
}
