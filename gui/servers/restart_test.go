package servers

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
)

// TestRestartPart: a ready server that stopped and came back says so on
// its row, warning while the restart is recent and calmly after it has
// run fine a while (still saying it); a server that never stopped, or is
// failing now (its Reason says why), says nothing of it; the last stop's
// reason shows bounded, however long.
func TestRestartPart(t *testing.T) {
	test.NewTempApp(t)
	now := time.Now()
	stop := func(back time.Duration) servers.Stop {
		return servers.Stop{At: now.Add(-back - time.Second), Back: now.Add(-back), Exit: "exit status 3", Reason: "process x exited (exit status 3); stderr: boom"}
	}
	long := stop(time.Minute)
	long.Reason = strings.Repeat("stderr line ", 200)
	for _, tt := range []struct {
		name      string
		st        servers.ServerStatus
		state     string // the state label's
		restarted string // "": hidden
		warning   bool
	}{
		{name: "never stopped", st: servers.ServerStatus{State: servers.StateReady}, state: "ready"},
		{name: "just now", st: servers.ServerStatus{State: servers.StateReady, Stops: 1, LastStop: stop(10 * time.Second)},
			state: "ready · restarted just now", restarted: "Restarted just now after it stopped (exit status 3).", warning: true},
		{name: "minutes ago, three stops", st: servers.ServerStatus{State: servers.StateReady, Stops: 3, LastStop: stop(2*time.Minute + 30*time.Second)},
			state: "ready · restarted 2 min ago", restarted: "Restarted 2 min ago after it stopped (exit status 3). It has stopped 3 times since it was started.", warning: true},
		{name: "calm after a while", st: servers.ServerStatus{State: servers.StateReady, Stops: 1, LastStop: stop(14*time.Minute + 10*time.Second)},
			state: "ready", restarted: "Running fine for 14 min since it was restarted after it stopped (exit status 3)."},
		{name: "failing again", st: servers.ServerStatus{State: servers.StateReconnecting, Stops: 2, LastStop: servers.Stop{At: now, Exit: "exit status 3"}},
			state: "reconnecting"},
		{name: "a long reason", st: servers.ServerStatus{State: servers.StateReady, Stops: 1, LastStop: long},
			state: "ready · restarted 1 min ago", restarted: "Restarted 1 min ago after it stopped (exit status 3).", warning: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &Row{State: widget.NewLabel(string(tt.st.State))}
			obj := (&Panel{}).restartPart(tt.st, r)
			if r.State.Text != tt.state {
				t.Errorf("state = %q, want %q", r.State.Text, tt.state)
			}
			shown := obj.Visible() && r.Restarted.Visible()
			if tt.restarted == "" {
				if shown {
					t.Errorf("the row says %q, want nothing of a restart", r.Restarted.Text)
				}
				return
			}
			if !shown || r.Restarted.Text != tt.restarted {
				t.Errorf("restarted = %q (shown %v), want %q", r.Restarted.Text, shown, tt.restarted)
			}
			if got := r.Restarted.Importance == widget.WarningImportance; got != tt.warning {
				t.Errorf("warning = %v, want %v", got, tt.warning)
			}
			if n := len([]rune(r.StopReason.Text)); !r.StopReason.Visible() || n > maxStopShown+len("Last stop: ") {
				t.Errorf("the last stop's reason: %d runes (shown %v), want at most %d", n, r.StopReason.Visible(), maxStopShown)
			}
		})
	}
}
