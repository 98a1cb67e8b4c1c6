package servers

import (
	"testing"
	"testing/synctest"
	"time"
)

// A call's clock runs out once its time has run unheld: holds nest (it
// runs on when the last is released), a release counts once, and the
// time held is what fire is told; stopped, it never fires.
func TestCallClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		fired := make(chan time.Duration, 2)
		k := startClock(2*time.Second, func(held time.Duration) { fired <- held })
		time.Sleep(time.Second)
		a := k.hold()
		time.Sleep(time.Second)
		b := k.hold()
		time.Sleep(3 * time.Second)
		a()
		a() // once
		if got := k.remaining(); got != time.Second {
			t.Errorf("held by b: %v left, want 1s", got)
		}
		time.Sleep(time.Second)
		b()
		held := <-fired
		if at := time.Since(start); at != 7*time.Second || held != 5*time.Second {
			t.Errorf("fired at %v, held %v; want at 7s, held 5s", at, held)
		}

		stopped := startClock(time.Second, func(time.Duration) { fired <- 0 })
		release := stopped.hold()
		stopped.stop()
		release()
		time.Sleep(time.Hour)
		if len(fired) != 0 {
			t.Error("a stopped clock fired")
		}
	})
}
