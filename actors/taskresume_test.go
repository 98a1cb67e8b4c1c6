package actors

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/config"
	"deckhand/replay"
	"deckhand/store"
	"deckhand/testutil"
)

// A task outlives Deckhand: the model calls s.research, a real stdio server
// makes a task of it, and Deckhand stops (the log closed at once, as in a
// crash, then the system) while the task runs. A new system reopens the
// session from the log, with the server (a new process) in mode: the task
// that finished meanwhile has its result on the call, in a notice and in
// the log, and the model is not asked again; a task the server forgot is
// said to have expired. The next question gives the model the result.
func TestTaskOutlivesRestart(t *testing.T) {
	tests := []struct {
		name   string
		args   []string // the server's, after the restart
		notice string
		output string // the call's result logged; "" for none
	}{
		{name: "finished meanwhile", args: []string{"-tasks", "complete", "-tasks-polls", "-1"},
			notice: "The task of s.research (task-1) finished while Deckhand was closed: report on task-1", output: "report on task-1"},
		{name: "forgotten", args: []string{"-tasks", "forget"},
			notice: "The task of s.research (task-1) expired"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "deckhand.db")
			db, err := store.Open(t.Context(), path)
			if err != nil {
				t.Fatal(err)
			}
			model := testutil.NewModelServer(t, calls(testutil.ToolCallSpec{ID: "r1", Name: "s__research", Arguments: `{"topic":"go"}`}))
			c := slowChat(t, db, model, "-tasks", "never")
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
			r := reopen(t, db, model2, id, opts, tt.args...)
			notice := expect[*conversation.Notice](r)
			if !strings.HasPrefix(notice.Text, tt.notice) {
				t.Errorf("notice = %q, want it to begin %q", notice.Text, tt.notice)
			}
			if tt.output != "" {
				var fin *conversation.ToolCallFinished
				for _, m := range r.seen {
					if f, ok := m.(*conversation.ToolCallFinished); ok {
						fin = f
					}
				}
				if fin == nil || fin.Call != "r1" || !strings.Contains(fin.Output, tt.output) || fin.IsError {
					t.Errorf("the call's card got %+v, want r1's result %q", fin, tt.output)
				}
			}
			syncLog(t, r)
			events, err = db.Events(t.Context(), store.Filter{SessionID: id})
			if err != nil {
				t.Fatal(err)
			}
			call := replay.Read(events).Runs[0].Steps[0].Answer.Calls[0]
			switch {
			case tt.output != "" && (call.Outcome != replay.Finished || !strings.Contains(call.Output, tt.output)):
				t.Errorf("the call read back from the log = %+v, want finished with %q", call, tt.output)
			case tt.output == "" && (call.Outcome != replay.Unknown || call.Task != ""):
				t.Errorf("the call read back from the log = %+v, want its outcome unknown and its task expired", call)
			}
			if again := conversation.Rebuild(events); len(again.Tasks) != 0 {
				t.Errorf("reopened a second time, Rebuild().Tasks = %+v, want none", again.Tasks)
			}
			if n := len(model2.Requests()); n != 0 {
				t.Errorf("the model was asked %d times after the restart, want 0", n)
			}
			if tt.output == "" {
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
			if !strings.Contains(got, tt.output) {
				t.Errorf("the model was told of r1 %q, want %q", got, tt.output)
			}
		})
	}
}

// reopen starts a new system, whose server s is the stdio server with args
// (a minute to connect, its tools auto-approved), and reopens session id in
// it with opts (Rebuild's); id "" starts a new conversation.
func reopen(t *testing.T, db *store.DB, model *testutil.ModelServer, id string, opts conversation.ConversationOptions, args ...string) *chat {
	t.Helper()
	srv := testutil.StdioServer(t, args...)
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
