package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/testutil"
	"deckhand/testutil/taskpeer"
	"deckhand/tools"
)

// serveHTTPPeer serves peer over streamable HTTP on loopback.
func serveHTTPPeer(t *testing.T, peer *taskpeer.Peer) config.Server {
	t.Helper()
	srv := httptest.NewServer(peer.Handler())
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return config.Server{URL: srv.URL + "/mcp", Transport: config.TransportStreamable}
}

// peerDialer names a way to reach a task peer, for the tests that run
// over each.
type peerDialer struct {
	name string
	dial func(*testing.T, *taskpeer.Peer, Options) *Conn
}

// dialHTTPPeer connects to peer served over streamable HTTP.
func dialHTTPPeer(t *testing.T, peer *taskpeer.Peer, opts Options) *Conn {
	return dial(t, serveHTTPPeer(t, peer), opts)
}

type answerer = func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error)

// answerTopic answers the task peer's question: the topic is rust.
func answerTopic(_ context.Context, _ *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"topic": "rust"}}, nil
}

// answerSnake answers server-everything's question: python the snake.
func answerSnake(_ context.Context, _ *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"interpretation": "snake"}}, nil
}

// counted answers as answer does, counting the questions in asked.
func counted(asked *atomic.Int32, answer answerer) answerer {
	return func(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		asked.Add(1)
		return answer(ctx, req)
	}
}

// checkCallTask checks CallTask's answer: an error that holds wantErr, or
// (wantErr "") a result that renders as want, an error result if isError.
func checkCallTask(t *testing.T, res *sdk.CallToolResult, err error, wantErr, want string, isError bool) {
	t.Helper()
	switch {
	case wantErr != "":
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("CallTask() = %v, %v; want error with %q", res, err, wantErr)
		}
	case err != nil:
		t.Errorf("CallTask() = %v", err)
	default:
		if got := tools.RenderResult(res); got != want || res.IsError != isError {
			t.Errorf("CallTask() = %q (isError %v), want %q (isError %v)", got, res.IsError, want, isError)
		}
	}
}

// A task over streamable HTTP is followed as over stdio: through the SDK's
// session (the same Mcp-Session-Id on every request, or the peer refuses
// it), with answers as event streams or plain JSON, a question asked on
// tasks/result's stream, the 2026-07-28 generation, and Stop cancelling a
// task that never ends.
func TestAwaitTaskHTTP(t *testing.T) {
	tests := []struct {
		name     string
		mode     string
		json     bool   // answers as application/json
		stop     bool   // cancel the call once the task is running
		want     string // the result's text
		isError  bool
		wantErr  string
		progress []string
		cancels  []string
	}{
		{name: "completes", mode: taskpeer.Complete, want: "report on task-1",
			progress: []string{"task working: started", "task working: step 1 of 2", "task working: step 2 of 2", "task completed: done"}},
		{name: "completes, JSON answers", mode: taskpeer.Complete, json: true, want: "report on task-1"},
		{name: "fails", mode: taskpeer.Fail, want: "research failed: it broke", isError: true},
		{name: "input required asks on tasks/result's stream", mode: taskpeer.Input, want: "report on rust"},
		{name: "2026 generation", mode: taskpeer.V2, want: "report on task-1"},
		{name: "2026 input required", mode: taskpeer.V2Input, want: "report on rust"},
		{name: "forgotten task", mode: taskpeer.Forget, wantErr: "the server no longer knows the task"},
		{name: "never ends: Stop cancels it", mode: taskpeer.Never, stop: true, wantErr: "context canceled", cancels: []string{"task-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			peer := &taskpeer.Peer{Mode: tt.mode, JSON: tt.json, Interval: MinPollInterval}
			c := dial(t, serveHTTPPeer(t, peer), Options{OnElicit: answerTopic})
			if c.Kind() != KindStreamable {
				t.Fatalf("Kind() = %v, want streamable", c.Kind())
			}
			if _, err := c.ListTools(t.Context()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			var log progressLog
			res, err := c.CallTask(ctx, "research", map[string]any{"topic": "go"}, func(p Progress) {
				log.add(p)
				if tt.stop && strings.Contains(p.Message, "step 1") {
					cancel()
				}
			}, nil)
			checkCallTask(t, res, err, tt.wantErr, tt.want, tt.isError)
			if tt.progress != nil {
				if diff := cmp.Diff(tt.progress, log.all()); diff != "" {
					t.Errorf("progress (-want +got):\n%s", diff)
				}
			}
			if diff := cmp.Diff(tt.cancels, peer.Cancels()); diff != "" {
				t.Errorf("tasks/cancel (-want +got):\n%s", diff)
			}
			if n := peer.Sessions(); n != 1 {
				t.Errorf("the peer saw %d sessions, want 1", n)
			}
			if c.http.tap.active() {
				t.Errorf("the tap still awaits an answer once the call is over")
			}
		})
	}
}

// A task started over one HTTP session is followed to its end over the
// next (Deckhand reconnected, or restarted with the id from its log).
func TestAwaitTaskHTTPNextSession(t *testing.T) {
	peer := &taskpeer.Peer{Mode: taskpeer.Complete, Interval: MinPollInterval}
	srv := serveHTTPPeer(t, peer)
	first := dial(t, srv, Options{})
	if _, err := first.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, task, err := first.StartTool(t.Context(), "research", map[string]any{"topic": "go"}, nil)
	if err != nil || task == nil {
		t.Fatalf("StartTool(research) = %v, %v; want a task", task, err)
	}
	first.Close()
	next := dial(t, srv, Options{})
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	res, err := next.AwaitTask(ctx, &Task{ID: task.ID}, nil)
	if err != nil || tools.RenderResult(res) != "report on "+task.ID {
		t.Fatalf("AwaitTask(%s) on the next session = %v, %v; want its report", task.ID, res, err)
	}
	if n := peer.Sessions(); n != 2 {
		t.Errorf("the peer saw %d sessions, want 2", n)
	}
}

// server-everything over streamable HTTP (and the legacy SSE transport)
// offers its task tools to a client that declares tasks:
// simulate-research-query runs to its report, asks its question mid-task
// (on tasks/result's stream) when ambiguous, and Stop cancels it on the
// server.
func TestEverythingTasksHTTP(t *testing.T) {
	p := testutil.RequirePeers(t)
	for _, transport := range []string{config.TransportStreamable, config.TransportSSE} {
		t.Run(transport, func(t *testing.T) {
			var srv config.Server
			if transport == config.TransportSSE {
				port := testutil.StartHTTPPeer(t, p.Node, p.Everything, "sse")
				srv = config.Server{URL: fmt.Sprintf("http://127.0.0.1:%d/sse", port), Transport: transport}
			} else {
				port := testutil.StartHTTPPeer(t, p.Node, p.Everything, "streamableHttp")
				srv = config.Server{URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), Transport: transport}
			}
			everythingTasks(t, srv)
		})
	}
}

func everythingTasks(t *testing.T, srv config.Server) {
	tests := []struct {
		name  string
		args  map[string]any
		stop  bool
		want  string // in the report
		asked int32
	}{
		{name: "plain", args: map[string]any{"topic": "tides"}, want: "# Research Report: tides"},
		{name: "ambiguous asks", args: map[string]any{"topic": "python", "ambiguous": true}, want: "python (snake)", asked: 1},
		{name: "Stop cancels", args: map[string]any{"topic": "tides"}, stop: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked atomic.Int32
			c := dial(t, srv, Options{OnElicit: counted(&asked, answerSnake)})
			if _, err := c.ListTools(t.Context()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			var task *Task
			res, err := c.CallTask(ctx, "simulate-research-query", tt.args, func(p Progress) {
				if tt.stop && strings.Contains(p.Message, "Gathering sources") {
					cancel()
				}
			}, func(t *Task) { task = t })
			if task == nil || task.ID == "" {
				t.Fatalf("CallTask: no task started (%+v), err %v", task, err)
			}
			if tt.stop {
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("CallTask() = %v, %v; want cancelled", res, err)
				}
				got, err := c.GetTask(t.Context(), task.ID)
				if err != nil || got.Status != TaskCancelled {
					t.Errorf("GetTask(%s) after Stop = %+v, %v; want cancelled on the server", task.ID, got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("CallTask(simulate-research-query) = %v", err)
			}
			if got := tools.RenderResult(res); !strings.Contains(got, tt.want) {
				t.Errorf("CallTask() = %q, want it to contain %q", got, tt.want)
			}
			if got := asked.Load(); got != tt.asked {
				t.Errorf("the server asked %d questions, want %d", got, tt.asked)
			}
		})
	}
}

// A server that forgot the session (it restarted) ends the connection, and
// the request that found out returns only once it has: a caller that
// follows a task sees the connection gone, and follows the task again on
// the next one.
func TestHTTPSessionForgotten(t *testing.T) {
	peer := &taskpeer.Peer{Mode: taskpeer.Never}
	c := dial(t, serveHTTPPeer(t, peer), Options{})
	peer.ForgetSessions()
	_, err := c.GetTask(t.Context(), "task-1")
	if err == nil || c.Err() == nil {
		t.Fatalf("GetTask() = %v, connection's end %v; want an error, and the connection ended by then", err, c.Err())
	}
	if errors.Is(err, ErrTaskExpired) {
		t.Errorf("GetTask() = %v, want the session's end, not the task's", err)
	}
}

// A 2026-07-28 task created already in input_required, its questions in
// tools/call's answer: each is asked once, through OnElicit (where
// Deckhand's caps on questions are), its answer reaches that task with
// tasks/update, and the server creates one task. Over stdio (the wrapped
// connection, in memory here so that the peer can be counted) and over
// streamable HTTP, event streams or JSON, where the SDK's own tools/call
// carries the call: its multi-round-trip middleware must not take the
// task's inputRequests for a call of its own to answer and send again.
// A task that asks only for roots (which Deckhand does not give) ends the
// call saying so, one task created.
func TestTaskBornAsking(t *testing.T) {
	tests := []peerDialer{
		{name: "stdio", dial: dialPeer},
		{name: "streamable HTTP", dial: dialHTTPPeer},
		{name: "streamable HTTP, JSON answers", dial: func(t *testing.T, p *taskpeer.Peer, o Options) *Conn {
			p.JSON = true
			return dialHTTPPeer(t, p, o)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name+", roots", func(t *testing.T) {
			peer := &taskpeer.Peer{Mode: taskpeer.V2Born, AskRoots: true, Interval: MinPollInterval}
			c := tt.dial(t, peer, Options{OnElicit: answerTopic})
			if _, err := c.ListTools(t.Context()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			res, err := c.CallTask(ctx, "research", map[string]any{"topic": "go"}, nil, nil)
			if want := "task task-1 asks for input Deckhand does not give"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("CallTask(research) = %v, %v; want an error with %q", res, err, want)
			}
			if n := peer.Tasks(); n != 1 {
				t.Errorf("the server created %d tasks, want 1", n)
			}
		})
		t.Run(tt.name, func(t *testing.T) {
			peer := &taskpeer.Peer{Mode: taskpeer.V2Born, Interval: MinPollInterval}
			var asked atomic.Int32
			c := tt.dial(t, peer, Options{OnElicit: counted(&asked, answerTopic)})
			if _, err := c.ListTools(t.Context()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			var started []string
			res, err := c.CallTask(ctx, "research", map[string]any{"topic": "go"}, nil, func(t *Task) { started = append(started, t.ID+" "+string(t.Status)) })
			if err != nil {
				t.Errorf("CallTask(research) = %v", err)
			} else if got := tools.RenderResult(res); got != "report on rust" {
				t.Errorf("CallTask(research) = %q, want %q", got, "report on rust")
			}
			if diff := cmp.Diff([]string{"task-1 input_required"}, started); diff != "" {
				t.Errorf("tasks started (-want +got):\n%s", diff)
			}
			if n := asked.Load(); n != 1 {
				t.Errorf("OnElicit asked %d questions, want 1", n)
			}
			if n := peer.Tasks(); n != 1 {
				t.Errorf("the server created %d tasks, want 1", n)
			}
			if n := peer.Updates(); n != 1 {
				t.Errorf("the server got %d tasks/update, want 1", n)
			}
		})
	}
}

// A sessionless server in the lmcp style (no Mcp-Session-Id, each answer
// plain JSON on a connection it then closes: Deckhand's plain HTTP) keeps
// its tasks by id, so they are followed there as over a session: to their
// result, their failure, a 2026-07-28 task's questions answered with
// tasks/update (one task created, one question), and Stop cancelling one
// on the server.
func TestAwaitTaskPlainHTTP(t *testing.T) {
	tests := []struct {
		name    string
		mode    string
		stop    bool
		want    string
		isError bool
		wantErr string
		asked   int32
		cancels []string
	}{
		{name: "completes", mode: taskpeer.Complete, want: "report on task-1"},
		{name: "fails", mode: taskpeer.Fail, want: "research failed: it broke", isError: true},
		{name: "2026 generation", mode: taskpeer.V2, want: "report on task-1"},
		{name: "2026 input required", mode: taskpeer.V2Input, want: "report on rust", asked: 1},
		{name: "2026 task created asking", mode: taskpeer.V2Born, want: "report on rust", asked: 1},
		{name: "never ends: Stop cancels it", mode: taskpeer.Never, stop: true, wantErr: "context canceled", cancels: []string{"task-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			peer := &taskpeer.Peer{Mode: tt.mode, Plain: true, Interval: MinPollInterval}
			var asked atomic.Int32
			c := dial(t, serveHTTPPeer(t, peer), Options{OnElicit: counted(&asked, answerTopic)})
			if c.Kind() != KindJSON {
				t.Fatalf("Kind() = %v, want %v (plain)", c.Kind(), KindJSON)
			}
			if _, err := c.ListTools(t.Context()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			res, err := c.CallTask(ctx, "research", map[string]any{"topic": "go"}, func(p Progress) {
				if tt.stop && strings.Contains(p.Message, "step 1") {
					cancel()
				}
			}, nil)
			checkCallTask(t, res, err, tt.wantErr, tt.want, tt.isError)
			if n := asked.Load(); n != tt.asked {
				t.Errorf("OnElicit asked %d questions, want %d", n, tt.asked)
			}
			if n := peer.Tasks(); n != 1 {
				t.Errorf("the server created %d tasks, want 1", n)
			}
			if diff := cmp.Diff(tt.cancels, peer.Cancels()); diff != "" {
				t.Errorf("tasks/cancel (-want +got):\n%s", diff)
			}
		})
	}
}

// A 2026-07-28 server's call that needs input first (resultType
// input_required, SEP-2322, no task): its question is asked once through
// OnElicit and the call sent again with the answer and the request state,
// over stdio (Deckhand's own request, since the server offers tasks) as
// over streamable HTTP (the SDK's).
func TestCallInputRequired(t *testing.T) {
	tests := []peerDialer{
		{name: "stdio", dial: dialPeer},
		{name: "streamable HTTP", dial: dialHTTPPeer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			peer := &taskpeer.Peer{Mode: taskpeer.V2}
			var asked atomic.Int32
			c := tt.dial(t, peer, Options{OnElicit: counted(&asked, answerTopic)})
			if _, err := c.ListTools(t.Context()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			res, err := c.CallTask(ctx, "confirm", map[string]any{}, nil, nil)
			if err != nil {
				t.Errorf("CallTask(confirm) = %v", err)
			} else if got := tools.RenderResult(res); got != "confirmed rust" {
				t.Errorf("CallTask(confirm) = %q, want %q", got, "confirmed rust")
			}
			if n := asked.Load(); n != 1 {
				t.Errorf("OnElicit asked %d questions, want 1", n)
			}
			if n := peer.Confirms(); n != 2 {
				t.Errorf("the server got %d calls of confirm, want 2", n)
			}
		})
	}
}
