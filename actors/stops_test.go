package actors

import (
	"strings"
	"testing"
	"time"

	"deckhand/actors/servers"
	"deckhand/config"
)

// TestServerStatusCountsStops: a stdio server that crashes mid-call (it
// writes to stderr and exits with status 3) is restarted, and its status
// once ready again still says so: how many times it stopped, when, with
// what exit status and stderr, and when it came back. Ready alone said
// nothing of it, and the servers panel showed a crashing server as a
// healthy one.
func TestServerStatusCountsStops(t *testing.T) {
	sys := start(t, map[string]config.Server{"s": stdio(t)})
	if st := waitState(t, sys, "s", servers.StateReady); st.Stops != 0 || !st.LastStop.At.IsZero() {
		t.Fatalf("a server that never stopped: Stops %d, LastStop %+v", st.Stops, st.LastStop)
	}
	changes := watch(t, sys)
	before := time.Now()
	for i := 1; i <= 2; i++ {
		if res := call(t, sys, "s.crash", `{}`); res.Err == nil {
			t.Fatalf("crash %d: the call did not fail", i)
		}
		next(t, changes, "s", servers.StateReconnecting)
		st := next(t, changes, "s", servers.StateReady)
		stop := st.LastStop
		if st.Stops != i {
			t.Errorf("after crash %d, Stops = %d, want %d", i, st.Stops, i)
		}
		if stop.Exit != "exit status 3" {
			t.Errorf("LastStop.Exit = %q, want exit status 3", stop.Exit)
		}
		if !strings.Contains(stop.Reason, "exit status 3") || !strings.Contains(stop.Reason, "crashing on request") {
			t.Errorf("LastStop.Reason = %q, want the exit status and stderr's line", stop.Reason)
		}
		if stop.At.Before(before) || stop.Back.Before(stop.At) {
			t.Errorf("LastStop at %v, back at %v: want the stop after %v and the return after the stop", stop.At, stop.Back, before)
		}
	}
}
