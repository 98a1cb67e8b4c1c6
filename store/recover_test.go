package store

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"deckhand/procstat"
	"deckhand/testutil"
)

// deadOwner is the owner string of a process that has exited.
func deadOwner(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return owner(cmd.Process.Pid)
}

// killedRun writes a session whose run was left running by a process that
// is gone, with two answers' usage and a third cut off mid-stream.
func killedRun(t *testing.T, db *DB, owner string) {
	t.Helper()
	t0 := time.UnixMilli(1_800_000_000_000)
	ev := func(id, kind string, data string) Event {
		t0 = t0.Add(time.Millisecond)
		return Event{ID: id, SessionID: "s1", RunID: "r1", Time: t0, Kind: kind, Data: json.RawMessage(data)}
	}
	if err := db.Write(t.Context(), &Batch{
		NewSessions: []NewSession{{ID: "s1", Time: t0, Model: "m"}},
		NewRuns:     []NewRun{{ID: "r1", SessionID: "s1", Time: t0, Model: "m", Owner: owner}},
		Events: []Event{
			ev("e1", KindRunStarted, `{"text":"go"}`),
			ev("e2", KindPromptBuilt, `{"estimated_tokens":100}`),
			ev("e3", KindAssistantMessage, `{"text":"","usage":{"input_tokens":120,"output_tokens":10}}`),
			ev("e4", KindPromptBuilt, `{"estimated_tokens":150}`),
			ev("e5", KindAssistantMessage, `{"text":"","usage":{"input_tokens":160,"output_tokens":12}}`),
			ev("e6", KindPromptBuilt, `{"estimated_tokens":200}`),
			ev("e7", KindAssistantDelta, `{"text":"12345678"}`),
		},
	}); err != nil {
		t.Fatal(err)
	}
}

func TestDeadOwnerReadsInterrupted(t *testing.T) {
	for _, tc := range []struct {
		name, owner, want string
	}{
		{"alive", Owner(), RunRunning},
		{"dead", "", RunInterrupted},
		{"exited", "exited", RunInterrupted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := open(t, filepath.Join(t.TempDir(), "log.db"))
			o := tc.owner
			if o == "exited" {
				o = deadOwner(t)
			}
			killedRun(t, db, o)
			r, err := db.Run(t.Context(), "r1")
			if err != nil || r.Status != tc.want {
				t.Errorf("Run().Status = %q, %v; want %q", r.Status, err, tc.want)
			}
			runs, _ := db.Runs(t.Context(), "s1")
			if len(runs) != 1 || runs[0].Status != tc.want {
				t.Errorf("Runs() = %+v; want one %q", runs, tc.want)
			}
			s, err := db.Session(t.Context(), "s1")
			if err != nil || s.LastRun != tc.want {
				t.Errorf("Session().LastRun = %q, %v; want %q", s.LastRun, err, tc.want)
			}
			list, _ := db.Sessions(t.Context(), 0)
			if len(list) != 1 || list[0].LastRun != tc.want {
				t.Errorf("Sessions() = %+v; want LastRun %q", list, tc.want)
			}
		})
	}
}

func TestCloseDeadRunsCountsUsage(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	killedRun(t, db, deadOwner(t))
	cost := func(model string, in, out int) float64 {
		if model != "m" {
			t.Errorf("priced model %q, want m", model)
		}
		return float64(in+out) / 1000
	}
	// Two processes opening the log at once close the run once.
	var wg sync.WaitGroup
	closed := make([]int, 4)
	for i := range closed {
		wg.Go(func() {
			n, err := db.CloseDeadRuns(t.Context(), cost)
			if err != nil {
				t.Error(err)
			}
			closed[i] = n
		})
	}
	wg.Wait()
	if total := closed[0] + closed[1] + closed[2] + closed[3]; total != 1 {
		t.Fatalf("runs closed = %v, want 1 in all", closed)
	}
	r, _ := db.Run(t.Context(), "r1")
	// 120+160 reported, 200 estimated for the request cut off; 10+12
	// reported, 2 estimated from 8 bytes streamed.
	want := Usage{InputTokens: 480, OutputTokens: 24, CostUSD: 0.504, Estimated: true}
	if r.Status != RunInterrupted || r.Usage != want {
		t.Errorf("run = %s %+v, want interrupted %+v", r.Status, r.Usage, want)
	}
	s, _ := db.Session(t.Context(), "s1")
	if s.Usage != want {
		t.Errorf("session usage = %+v, want %+v", s.Usage, want)
	}
	events, _ := db.Events(t.Context(), Filter{RunID: "r1"})
	if last := events[len(events)-1]; last.Kind != KindRunInterrupted {
		t.Errorf("last event = %s, want %s", last.Kind, KindRunInterrupted)
	}
}

func TestCloseDeadRunsLeavesLiveOnes(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "log.db"))
	killedRun(t, db, Owner())
	if n, err := db.CloseDeadRuns(t.Context(), nil); n != 0 || err != nil {
		t.Errorf("CloseDeadRuns() = %d, %v; want 0 for a run of a live process", n, err)
	}
}

func TestInterruptedUsage(t *testing.T) {
	ev := func(kind, data string) Event { return Event{Kind: kind, Data: json.RawMessage(data)} }
	for _, tc := range []struct {
		name   string
		events []Event
		want   Usage
	}{
		{"nothing", nil, Usage{}},
		{"whole answers", []Event{
			ev(KindPromptBuilt, `{"estimated_tokens":10}`),
			ev(KindAssistantDelta, `{"text":"abcd"}`),
			ev(KindAssistantMessage, `{"usage":{"input_tokens":11,"output_tokens":3}}`),
		}, Usage{InputTokens: 11, OutputTokens: 3}},
		{"sent, nothing back", []Event{ev(KindPromptBuilt, `{"estimated_tokens":10}`)}, Usage{InputTokens: 10, Estimated: true}},
		{"estimated answer", []Event{
			ev(KindAssistantMessage, `{"usage":{"input_tokens":5,"output_tokens":2},"estimated":true}`),
		}, Usage{InputTokens: 5, OutputTokens: 2, Estimated: true}},
		{"undecodable", []Event{ev(KindAssistantMessage, `{`)}, Usage{}},
	} {
		if got := InterruptedUsage(tc.events); got != tc.want {
			t.Errorf("%s: InterruptedUsage() = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// A process that was killed and not yet reaped (a zombie) is not alive.
func TestOwnerAliveZombie(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	o := owner(cmd.Process.Pid)
	if !OwnerAlive(o) {
		t.Fatalf("a running child is not alive")
	}
	cmd.Process.Kill()
	// Not reaped yet: wait until the kernel has made it a zombie.
	// (Polled: the kernel tells no one; a generous deadline, since a
	// loaded machine may take a while to run the kill.)
	testutil.Eventually(t, 30*time.Second, func() bool {
		st, _ := procstat.Read(cmd.Process.Pid)
		return st.Field(procstat.State) == "Z"
	}, "the killed child never became a zombie")
	if OwnerAlive(o) {
		t.Errorf("a killed, unreaped child is alive")
	}
	cmd.Wait()
}
