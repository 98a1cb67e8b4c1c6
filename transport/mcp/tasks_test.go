package mcp

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/testutil"
	"deckhand/testutil/taskpeer"
	"deckhand/tools"
)

// dialPeer connects to a taskpeer over in-memory transports, inside the
// caller's bubble.
func dialPeer(t *testing.T, peer *taskpeer.Peer, opts Options) *Conn {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	sc, err := st.Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() { peer.Serve(context.Background(), sc); close(served) }()
	opts.Transport = ct
	c, err := Dial(t.Context(), "peer", config.Server{}, opts)
	if err != nil {
		t.Fatalf("Dial(taskpeer) = %v", err)
	}
	t.Cleanup(func() { c.Close(); sc.Close(); <-served })
	return c
}

// progressLog keeps the progress messages a call reports.
type progressLog struct {
	mu   sync.Mutex
	msgs []string
}

func (p *progressLog) add(pr Progress) {
	p.mu.Lock()
	p.msgs = append(p.msgs, pr.Message)
	p.mu.Unlock()
}

func (p *progressLog) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.msgs...)
}

// spacing is the time between each two of times.
func spacing(times []time.Time) []time.Duration {
	var d []time.Duration
	for i := 1; i < len(times); i++ {
		d = append(d, times[i].Sub(times[i-1]))
	}
	return d
}

func TestAwaitTask(t *testing.T) {
	tests := []struct {
		name    string
		mode    string
		timeout time.Duration // the call's; 0: none
		stop    time.Duration // cancel the call (Stop) after this long; 0: never
		want    string        // the result's text
		isError bool
		wantErr string // or the error, a substring
		// progress: the messages reported, when checked
		progress []string
		spacing  time.Duration // between two tasks/get
		gets     int           // how many tasks/get, when checked
		cancels  []string
	}{
		{name: "completes", mode: taskpeer.Complete, want: "report on task-1",
			progress: []string{"task working: started", "task working: step 1 of 2", "task working: step 2 of 2", "task completed: done"},
			spacing:  time.Second, gets: 3},
		{name: "fails", mode: taskpeer.Fail, want: "research failed: it broke", isError: true,
			progress: []string{"task working: started", "task working: step 1 of 2", "task working: step 2 of 2", "task failed: it broke"}},
		{name: "2026 generation, result inline", mode: taskpeer.V2, want: "report on task-1", gets: 3, spacing: time.Second},
		{name: "input required asks through elicitation", mode: taskpeer.Input, want: "report on rust"},
		{name: "2026 input required: asked, answered with tasks/update", mode: taskpeer.V2Input, want: "report on rust", gets: 4, spacing: time.Second},
		{name: "status no spec knows", mode: taskpeer.BadStatus, wantErr: `task task-1 has status "exploded", not one of working`, gets: 1},
		{name: "forgotten task", mode: taskpeer.Forget, wantErr: "tasks/get task-1: the server no longer knows the task", gets: 1},
		{name: "interval 0 is 250ms", mode: taskpeer.Interval0, timeout: 1100 * time.Millisecond, wantErr: "timed out",
			spacing: MinPollInterval, gets: 4, cancels: []string{"task-1"}},
		{name: "interval of ten hours is 30s", mode: taskpeer.Interval10, timeout: 75 * time.Second, wantErr: "timed out",
			spacing: MaxPollInterval, gets: 2, cancels: []string{"task-1"}},
		{name: "never ends: Stop cancels it", mode: taskpeer.Never, stop: 3500 * time.Millisecond, wantErr: "context canceled",
			gets: 3, spacing: time.Second, cancels: []string{"task-1"}},
		{name: "never ends: the timeout cancels it", mode: taskpeer.Never, timeout: time.Minute, wantErr: "timed out", cancels: []string{"task-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				peer := &taskpeer.Peer{Mode: tt.mode}
				c := dialPeer(t, peer, Options{OnElicit: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
					return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"topic": "rust"}}, nil
				}})
				if _, err := c.ListTools(t.Context()); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				if tt.timeout > 0 {
					ctx, cancel = context.WithTimeoutCause(ctx, tt.timeout, errors.New("research timed out"))
					defer cancel()
				}
				if tt.stop > 0 {
					time.AfterFunc(tt.stop, cancel)
				}
				var log progressLog
				var started *Task
				res, err := c.CallTask(ctx, "research", map[string]any{"topic": "go"}, log.add, func(t *Task) { started = t })
				synctest.Wait()
				if started == nil || started.ID != "task-1" {
					t.Errorf("CallTask: the task started = %+v, want task-1", started)
				}
				checkCallTask(t, res, err, tt.wantErr, tt.want, tt.isError)
				if tt.progress != nil {
					if diff := cmp.Diff(tt.progress, log.all()); diff != "" {
						t.Errorf("progress (-want +got):\n%s", diff)
					}
				}
				gets := peer.Gets()
				if tt.gets > 0 && len(gets) != tt.gets {
					t.Errorf("tasks/get came %d times, want %d", len(gets), tt.gets)
				}
				if tt.spacing > 0 {
					for i, d := range spacing(gets) {
						if d != tt.spacing {
							t.Errorf("tasks/get %d came %v after the one before, want %v", i+2, d, tt.spacing)
						}
					}
				}
				if diff := cmp.Diff(tt.cancels, peer.Cancels()); diff != "" {
					t.Errorf("tasks/cancel (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// A status message of a megabyte, escape sequences in it, reaches the
// progress cleaned and cut.
func TestAwaitTaskHugeStatus(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		peer := &taskpeer.Peer{Mode: taskpeer.HugeStatus}
		c := dialPeer(t, peer, Options{})
		if _, err := c.ListTools(t.Context()); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 1500*time.Millisecond)
		defer cancel()
		var log progressLog
		_, err := c.CallTask(ctx, "research", nil, log.add, nil)
		if err == nil {
			t.Fatal("CallTask() = nil error, want the timeout")
		}
		msgs := log.all()
		if len(msgs) != 2 {
			t.Fatalf("progress = %d messages, want 2 (started, then the huge one once)", len(msgs))
		}
		if got := msgs[1]; len(got) > maxStatusMessage+len("task working: ")+len("…") || strings.ContainsRune(got, 0x1b) {
			t.Errorf("progress message is %d bytes (escape: %v), want at most %d and clean", len(got), strings.ContainsRune(got, 0x1b), maxStatusMessage+len("task working: …"))
		}
	})
}

// Two calls given the same task id: the second is refused rather than
// following the first's task.
func TestAwaitTaskReusedID(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		peer := &taskpeer.Peer{Mode: taskpeer.Reuse}
		c := dialPeer(t, peer, Options{})
		if _, err := c.ListTools(t.Context()); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		first := make(chan error, 1)
		go func() { _, err := c.CallTask(ctx, "research", nil, nil, nil); first <- err }()
		synctest.Wait()
		_, err := c.CallTask(t.Context(), "research", nil, nil, nil)
		if err == nil || !strings.Contains(err.Error(), "another call on this connection is already following") {
			t.Errorf("second CallTask() = %v, want the id refused", err)
		}
		cancel()
		if err := <-first; !errors.Is(err, context.Canceled) {
			t.Errorf("first CallTask() = %v, want cancelled", err)
		}
	})
}

// A tool without task support is called as before, through the SDK.
func TestStartToolPlain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := dialPeer(t, &taskpeer.Peer{Mode: taskpeer.Complete}, Options{})
		if _, err := c.ListTools(t.Context()); err != nil {
			t.Fatal(err)
		}
		res, task, err := c.StartTool(t.Context(), "quick", nil, nil)
		if err != nil || task != nil || tools.RenderResult(res) != "quick answer" {
			t.Errorf("StartTool(quick) = %v, %v, %v; want the answer, no task", res, task, err)
		}
	})
}

func TestClampInterval(t *testing.T) {
	ms := func(f float64) *float64 { return &f }
	tests := []struct {
		name string
		in   *float64
		want time.Duration
	}{
		{"none", nil, DefaultPollInterval},
		{"zero", ms(0), MinPollInterval},
		{"negative", ms(-5), MinPollInterval},
		{"in bounds", ms(1500), 1500 * time.Millisecond},
		{"ten hours", ms(36e6), MaxPollInterval},
		{"absurd", ms(1e300), MaxPollInterval},
	}
	for _, tt := range tests {
		if got := clampInterval(tt.in); got != tt.want {
			t.Errorf("clampInterval(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// server-everything's simulate-research-query is a task-only tool: called
// through CallTask it goes through working to completed, and its ambiguous
// form asks for input mid-task, answered through elicitation.
func TestEverythingTasks(t *testing.T) {
	p := testutil.RequirePeers(t)
	tests := []struct {
		name     string
		args     map[string]any
		want     string   // in the report
		progress []string // among the progress messages
		asked    int
	}{
		{name: "plain", args: map[string]any{"topic": "tides"}, want: "# Research Report: tides",
			progress: []string{"task working: Gathering sources...", "task completed"}},
		{name: "ambiguous asks", args: map[string]any{"topic": "python", "ambiguous": true}, want: "python (snake)",
			progress: []string{"task input_required: Found multiple interpretations"}, asked: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked atomic.Int32
			c := dial(t, config.Server{Command: p.Node, Args: []string{p.Everything}}, Options{OnElicit: counted(&asked, answerSnake)})
			if _, err := c.ListTools(t.Context()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			var log progressLog
			var task *Task
			res, err := c.CallTask(ctx, "simulate-research-query", tt.args, log.add, func(t *Task) { task = t })
			if err != nil {
				t.Fatalf("CallTask(simulate-research-query) = %v", err)
			}
			if task == nil || task.ID == "" {
				t.Errorf("CallTask: no task started (%+v)", task)
			}
			if got := tools.RenderResult(res); !strings.Contains(got, tt.want) {
				t.Errorf("CallTask() = %q, want it to contain %q", got, tt.want)
			}
			msgs := strings.Join(log.all(), "\n")
			for _, w := range tt.progress {
				if !strings.Contains(msgs, w) {
					t.Errorf("progress = %q, want %q among it", msgs, w)
				}
			}
			if got := int(asked.Load()); got != tt.asked {
				t.Errorf("the server asked %d questions, want %d", got, tt.asked)
			}
		})
	}
}

// Whatever a server sends as a task, parseTask either refuses it or gives
// a task within bounds.
func FuzzParseTask(f *testing.F) {
	f.Add([]byte(`{"task":{"taskId":"t1","status":"working","pollInterval":1000}}`), false)
	f.Add([]byte(`{"resultType":"task","taskId":"t1","status":"completed","pollIntervalMs":0,"result":{"content":[]}}`), true)
	f.Add([]byte(`{"taskId":"","status":"exploded","statusMessage":"\u001b[31m"}`), false)
	f.Add([]byte(`{"taskId":"x","status":"input_required","pollIntervalMs":1e308,"inputRequests":{"a":{}}}`), true)
	f.Fuzz(func(t *testing.T, raw []byte, v2 bool) {
		task, err := parseTask(raw, "fuzz", v2)
		if err != nil {
			return
		}
		switch {
		case task.ID == "" || len(task.ID) > maxTaskID:
			t.Errorf("parseTask(%q) id = %q", raw, task.ID)
		case task.PollInterval < MinPollInterval || task.PollInterval > MaxPollInterval:
			t.Errorf("parseTask(%q) interval = %v", raw, task.PollInterval)
		case len(task.Message) > maxStatusMessage+len("…"):
			t.Errorf("parseTask(%q) message is %d bytes", raw, len(task.Message))
		}
		switch task.Status {
		case TaskWorking, TaskInputRequired, TaskCompleted, TaskFailed, TaskCancelled:
		default:
			t.Errorf("parseTask(%q) status = %q", raw, task.Status)
		}
	})
}
