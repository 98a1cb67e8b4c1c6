package servers

import "time"

// workers runs blocking work (tool calls) on goroutines that are kept for a
// while after use. A call goes through the SDK's deep JSON and middleware
// path; on a fresh goroutine its stack would be grown (copied) on every call,
// which cost about a fifth of a round trip in BenchmarkCallTool. There is no
// limit: a slow call never waits for another.
type workers struct {
	jobs chan func()
	idle time.Duration
}

func newWorkers(idle time.Duration) *workers {
	return &workers{jobs: make(chan func()), idle: idle}
}

// run starts f on an idle worker, or on a new one when none is idle.
func (w *workers) run(f func()) {
	select {
	case w.jobs <- f:
	default:
		go w.loop(f)
	}
}

func (w *workers) loop(f func()) {
	t := time.NewTimer(w.idle)
	defer t.Stop()
	for {
		f()
		t.Reset(w.idle)
		select {
		case f = <-w.jobs:
		case <-t.C:
			return
		}
	}
}
