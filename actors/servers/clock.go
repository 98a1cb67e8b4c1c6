package servers

import (
	"sync"
	"time"
)

// callClock is a call's timeout that stops while the call waits for the
// person: from the moment its server asks a question during the call
// until the question is answered, declined or dropped (hold), the time is
// the person's, not the server's. A question's own deadline
// (approval_timeout) bounds each hold, and a call has at most
// MaxQuestionsPerCall of them. Safe for concurrent use.
type callClock struct {
	mu      sync.Mutex
	left    time.Duration // the timeout's rest: at since while running, now while held
	since   time.Time     // when it last ran on
	holds   int           // questions open
	heldAt  time.Time     // when the first of them was asked
	held    time.Duration // time held, over the call's life
	timer   *time.Timer
	stopped bool
	fire    func(held time.Duration)
}

// startClock starts a clock of d that calls fire (with the time it was
// held) once d has run out, unless stop comes first.
func startClock(d time.Duration, fire func(held time.Duration)) *callClock {
	k := &callClock{left: d, since: time.Now(), fire: fire}
	k.mu.Lock()
	k.timer = time.AfterFunc(d, k.expire)
	k.mu.Unlock()
	return k
}

// expire fires the clock, unless it is held or stopped, or its time came
// back meanwhile (a hold and its release between the timer's firing and
// this).
func (k *callClock) expire() {
	k.mu.Lock()
	if k.stopped || k.holds > 0 || time.Since(k.since) < k.left {
		k.mu.Unlock()
		return
	}
	k.stopped = true
	held := k.held
	k.mu.Unlock()
	k.fire(held)
}

// hold stops the clock until release is called (once; later calls do
// nothing). Holds nest: the clock runs on when the last is released.
func (k *callClock) hold() (release func()) {
	k.mu.Lock()
	if k.holds == 0 && !k.stopped {
		k.timer.Stop()
		now := time.Now()
		k.left -= now.Sub(k.since)
		k.heldAt = now
	}
	k.holds++
	k.mu.Unlock()
	var once sync.Once
	return func() { once.Do(k.release) }
}

func (k *callClock) release() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.holds--
	if k.holds > 0 || k.stopped {
		return
	}
	now := time.Now()
	k.held += now.Sub(k.heldAt)
	k.since = now
	k.timer = time.AfterFunc(max(k.left, 0), k.expire)
}

// remaining is the time the call has left, as the clock stands now.
func (k *callClock) remaining() time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.holds > 0 {
		return k.left
	}
	return k.left - time.Since(k.since)
}

// stop stops the clock for good (a fire already under way goes on).
func (k *callClock) stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.stopped = true
	k.timer.Stop()
}
