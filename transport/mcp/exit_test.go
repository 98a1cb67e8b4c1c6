package mcp

import (
	"path/filepath"
	"testing"
	"time"

	"deckhand/testutil"
)

// When Deckhand itself is ending (Options.Exiting closed), a server gets
// ExitGrace to end after its input closes, and then its whole process
// group is killed: Close returns at once rather than after two
// TerminateGraces (2 s, SIGTERM, 2 s), and nothing it started is left.
func TestCloseWhenExiting(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	exiting := make(chan struct{})
	// TerminateGrace is long, so that a Close that waited for it would
	// take 40 s at least: the bound below needs no fine timing.
	c := dial(t, stdioServer(t, "-linger", "-spawn", "-pidfile", pidfile), Options{Exiting: exiting, TerminateGrace: 20 * time.Second})
	pids := testutil.ReadPIDs(t, pidfile, 2)
	close(exiting)
	start := time.Now()
	c.Close()
	// ExitGrace is 100 ms; the bound leaves a loaded machine ample room and
	// is still half the first TerminateGrace alone.
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Close() while exiting took %v, want about ExitGrace (%v)", d, ExitGrace)
	}
	for _, pid := range pids {
		if !testutil.ProcessGone(pid) {
			t.Errorf("process %d still running after Close", pid)
		}
	}
}

// While Deckhand keeps running (a server removed or restarted), Close stays
// graceful: the server is given TerminateGrace after its input closes,
// then SIGTERM and TerminateGrace again, before it is killed.
func TestCloseGracefulWhileRunning(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	const grace = 300 * time.Millisecond
	c := dial(t, stdioServer(t, "-linger", "-spawn", "-pidfile", pidfile), Options{TerminateGrace: grace, Exiting: make(chan struct{})})
	pids := testutil.ReadPIDs(t, pidfile, 2)
	start := time.Now()
	c.Close()
	if d := time.Since(start); d < 2*grace {
		t.Errorf("Close() took %v, want at least two TerminateGraces (%v): the server was not given its time", d, 2*grace)
	}
	for _, pid := range pids {
		if !testutil.ProcessGone(pid) {
			t.Errorf("process %d still running after Close", pid)
		}
	}
}
