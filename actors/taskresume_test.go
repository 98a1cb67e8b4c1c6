package actors

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/config"
	"deckhand/replay"
	"deckhand/store"
	"deckhand/testutil"
	"deckhand/testutil/taskpeer"
)

// A task outlives Deckhand: the model calls s.research, a real server (a
// stdio process, or one over streamable HTTP) makes a task of it, and
// Deckhand stops (the log closed at once, as in a crash, then the system)
// while the task runs. A new system reopens the session from the log, with
// the server (a new process, or the HTTP server's next session) in mode:
// the task that finished meanwhile has its result on the call, in a notice
// and in the log, and the model is not asked again; a task the server
// forgot is said to have expired. The next question gives the model the
// result.
func TestTaskOutlivesRestart(t *testing.T) {
	tests := []struct {
		name   string
		mode   string
		polls  int
		notice string
		output string // the call's result logged; "" for none
	}{
		{name: "finished meanwhile", mode: taskpeer.Complete, polls: -1,
			notice: "The task of s.research (task-1) finished while Deckhand was closed: report on task-1", output: "report on task-1"},
		{name: "forgotten", mode: taskpeer.Forget,
			notice: "The task of s.research (task-1) expired"},
	}
	for _, transport := range []string{config.TransportStdio, config.TransportStreamable} {
		for _, tt := range tests {
			t.Run(transport+"/"+tt.name, func(t *testing.T) {
				taskOutlivesRestart(t, transport, tt.mode, tt.polls, tt.notice, tt.output)
			})
		}
	}
}

// taskServers is the server before the restart (a task that never ends) and
// after it (the peer in mode, with polls), over transport.
func taskServers(t *testing.T, transport, mode string, polls int) (before, after func() config.Server) {
	if transport == config.TransportStdio {
		return func() config.Server { return testutil.StdioServer(t, "-tasks", "never") },
			func() config.Server {
				return testutil.StdioServer(t, "-tasks", mode, "-tasks-polls", strconv.Itoa(polls))
			}
	}
	// One HTTP server throughout, whose peer changes with the restart:
	// the task is the same (task-1), its session is not.
	var handler atomic.Pointer[http.Handler]
	never := (&taskpeer.Peer{Mode: taskpeer.Never}).Handler()
	handler.Store(&never)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*handler.Load()).ServeHTTP(w, r) }))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	entry := config.Server{URL: srv.URL + "/mcp", Transport: config.TransportStreamable}
	return func() config.Server { return entry }, func() config.Server {
		next := (&taskpeer.Peer{Mode: mode, Polls: polls}).Handler()
		handler.Store(&next)
		return entry
	}
}

func taskOutlivesRestart(t *testing.T, transport, mode string, polls int, notice, output string) {
	before, after := taskServers(t, transport, mode, polls)
	path := filepath.Join(t.TempDir(), "deckhand.db")
	db, err := store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	model := testutil.NewModelServer(t, calls(testutil.ToolCallSpec{ID: "r1", Name: "s__research", Arguments: `{"topic":"go"}`}))
	c := reopenWith(t, db, model, "", conversation.ConversationOptions{}, before())
	testutil.Eventually(t, wait, func() bool {
		cat, _ := c.sys.Catalog(t.Context())
		return cat.Len() > 0
	}, "the server's tools")
	c.send("research go")
	for {
		if p := expect[*conversation.ToolCallProgress](c); p.Progress.Task != "" {
			break
		}
	}
	syncLog(t, c)
	db.Close() // Deckhand dies: nothing more reaches the log
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	c.sys.Shutdown(ctx)

	db, err = store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sessions, err := db.Sessions(t.Context(), 10)
	if err != nil || len(sessions) != 1 {
		t.Fatalf("sessions = %v, %v; want one", sessions, err)
	}
	id := sessions[0].ID
	events, err := db.Events(t.Context(), store.Filter{SessionID: id})
	if err != nil {
		t.Fatal(err)
	}
	opts := conversation.Rebuild(events)
	if len(opts.Tasks) != 1 || opts.Tasks[0].Task != "task-1" || opts.Tasks[0].Tool != "s.research" {
		t.Fatalf("Rebuild().Tasks = %+v, want task-1 of s.research", opts.Tasks)
	}
	model2 := testutil.NewModelServer(t, answer("noted"))
	r := reopenWith(t, db, model2, id, opts, after())
	if got := expect[*conversation.Notice](r); !strings.HasPrefix(got.Text, notice) {
		t.Errorf("notice = %q, want it to begin %q", got.Text, notice)
	}
	if output != "" {
		var fin *conversation.ToolCallFinished
		for _, m := range r.seen {
			if f, ok := m.(*conversation.ToolCallFinished); ok {
				fin = f
			}
		}
		if fin == nil || fin.Call != "r1" || !strings.Contains(fin.Output, output) || fin.IsError {
			t.Errorf("the call's card got %+v, want r1's result %q", fin, output)
		}
	}
	syncLog(t, r)
	events, err = db.Events(t.Context(), store.Filter{SessionID: id})
	if err != nil {
		t.Fatal(err)
	}
	call := replay.Read(events).Runs[0].Steps[0].Answer.Calls[0]
	switch {
	case output != "" && (call.Outcome != replay.Finished || !strings.Contains(call.Output, output)):
		t.Errorf("the call read back from the log = %+v, want finished with %q", call, output)
	case output == "" && (call.Outcome != replay.Unknown || call.Task != ""):
		t.Errorf("the call read back from the log = %+v, want its outcome unknown and its task expired", call)
	}
	if again := conversation.Rebuild(events); len(again.Tasks) != 0 {
		t.Errorf("reopened a second time, Rebuild().Tasks = %+v, want none", again.Tasks)
	}
	if n := len(model2.Requests()); n != 0 {
		t.Errorf("the model was asked %d times after the restart, want 0", n)
	}
	if output == "" {
		return
	}
	// The next question gives the model the task's result.
	r.send("and?")
	expect[*conversation.RunFinished](r)
	msgs, _ := r.request(0)
	got := ""
	for _, m := range msgs {
		if m["role"] == "tool" && m["tool_call_id"] == "r1" {
			got, _ = m["content"].(string)
		}
	}
	if !strings.Contains(got, output) {
		t.Errorf("the model was told of r1 %q, want %q", got, output)
	}
}

// reopen starts a new system, whose server s is the stdio server with args
// (a minute to connect, its tools auto-approved), and reopens session id in
// it with opts (Rebuild's); id "" starts a new conversation.
func reopen(t *testing.T, db *store.DB, model *testutil.ModelServer, id string, opts conversation.ConversationOptions, args ...string) *chat {
	t.Helper()
	return reopenWith(t, db, model, id, opts, testutil.StdioServer(t, args...))
}

// reopenWith is reopen with server s as srv.
func reopenWith(t *testing.T, db *store.DB, model *testutil.ModelServer, id string, opts conversation.ConversationOptions, srv config.Server) *chat {
	t.Helper()
	srv.ConnectTimeout = time.Minute
	cfg := &config.Config{Model: config.Model{BaseURL: model.URL, Name: "scripted", StreamTimeout: 10 * time.Second}}
	cfg.MCP.Servers = map[string]config.Server{"s": srv}
	autoApprove("s.*")(cfg)
	cfg.ApplyDefaults()
	sys := Start(Options{Config: cfg, Log: db})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		sys.Shutdown(ctx)
	})
	c := &chat{t: t, sys: sys, model: model, events: make(chan any, 1000)}
	c.watcher = sys.Root.Spawn(propsFunc(func(m any) {
		switch m.(type) {
		case *actor.Started, *actor.Stopping, *actor.Stopped:
		default:
			c.events <- m
		}
	}))
	opts.ID, opts.Watchers = id, []*actor.PID{c.watcher}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	conv, _, err := sys.StartConversation(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	c.conv = conv
	return c
}
