package main

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"deckhand/testutil"
	"deckhand/testutil/taskpeer"
)

// mcp call follows a task to its end (its status on stderr), --no-wait
// prints its id, and mcp task get and cancel reach it, against
// testutil/taskpeer in its modes.
func TestMCPCallTasks(t *testing.T) {
	bin := stdioServerBin(t)
	tests := []struct {
		name      string
		mode      string
		flags     string // more arguments of the server's
		args      []string
		code      int
		stdout    string // a substring of stdout
		stderr    []string
		notStderr string
	}{
		{name: "waits for the result", mode: "complete", args: []string{"mcp", "call", "t.research", `{"topic":"go"}`},
			code: exitOK, stdout: "report on task-1", stderr: []string{"progress: task working: started", "progress: task completed: done"}},
		{name: "failed task", mode: "fail", args: []string{"mcp", "call", "t.research", `{}`},
			code: exitFailure, stderr: []string{"research failed: it broke"}},
		{name: "no wait", mode: "never", args: []string{"mcp", "call", "--no-wait", "t.research", `{}`},
			code: exitOK, stdout: "task task-1: working: started", notStderr: "step"},
		{name: "task get", mode: "never", args: []string{"mcp", "task", "get", "t", "task-7"},
			code: exitOK, stdout: "task task-7: working: step 1"},
		{name: "task get of an ended task prints its result", mode: "complete", flags: `, "-tasks-polls", "-1"`, args: []string{"mcp", "task", "get", "t", "task-3"},
			code: exitOK, stdout: "task task-3: completed: done\nreport on task-3\n"},
		{name: "task cancel", mode: "never", args: []string{"mcp", "task", "cancel", "t", "task-7"},
			code: exitOK, stdout: "task task-7: cancelled"},
		{name: "unknown task", mode: "forget", args: []string{"mcp", "task", "get", "t", "nope"},
			code: exitFailure, stderr: []string{"the server no longer knows the task"}},
		{name: "status no spec knows", mode: "bad-status", args: []string{"mcp", "call", "t.research", `{}`},
			code: exitFailure, stderr: []string{`status "exploded"`}},
		{name: "never ends: the timeout", mode: "never", args: []string{"mcp", "call", "--timeout", "1500ms", "t.research", `{}`},
			code: exitFailure, stderr: []string{"deadline exceeded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := writeConfig(t, fmt.Sprintf("[mcp.servers.t]\ncommand = %q\nargs = [\"-tasks\", %q%s]\n", bin, tt.mode, tt.flags))
			r := deckhand(t, nil, "", append([]string{"--config", cfg}, tt.args...)...)
			if r.code != tt.code || !strings.Contains(r.stdout, tt.stdout) {
				t.Errorf("deckhand %s = exit %d, stdout %q; want exit %d and %q\nstderr: %s", strings.Join(tt.args, " "), r.code, r.stdout, tt.code, tt.stdout, r.stderr)
			}
			for _, w := range tt.stderr {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr = %q, want %q in it", r.stderr, w)
				}
			}
			if tt.notStderr != "" && strings.Contains(r.stderr, tt.notStderr) {
				t.Errorf("stderr = %q, want no %q", r.stderr, tt.notStderr)
			}
		})
	}
}

// deckhand chat -p against aimock and server-everything: the model calls
// simulate-research-query, a task-only tool; the run waits for the task,
// the model gets its report as the tool's result, and the log keeps the
// task's id on the call (tool.task).
func TestChatTask(t *testing.T) {
	cfg, mock := chatConfig(t, "")
	db := filepath.Join(t.TempDir(), "deckhand.db")
	r := deckhand(t, nil, "", "--config", cfg, "--db", db, "chat", "-p", "research the tides", "--approve=auto", "--wait", "30s")
	if r.code != exitOK || r.stdout != "The research task is done.\n" {
		t.Fatalf("exit %d, stdout %q\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	results := toolResultsSent(t, mock)
	if len(results) == 0 || !strings.Contains(results[len(results)-1], "# Research Report: tides") {
		t.Errorf("tool results sent = %q, want the research report", results)
	}
	r = deckhand(t, nil, "", "--config", cfg, "--db", db, "sessions", "--json")
	var sessions []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &sessions); err != nil || len(sessions) != 1 {
		t.Fatalf("sessions --json = %q, %v; want one session", r.stdout, err)
	}
	r = deckhand(t, nil, "", "--config", cfg, "--db", db, "logs", "--session", sessions[0].ID, "--json")
	var statuses []string
	for line := range strings.Lines(r.stdout) {
		var ev struct {
			Kind string `json:"kind"`
			Data struct {
				Task, Status, Tool string
			} `json:"data"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Kind == "tool.task" {
			if ev.Data.Task == "" || ev.Data.Tool != "ev.simulate-research-query" {
				t.Errorf("tool.task event = %+v, want the task's id and the tool", ev.Data)
			}
			statuses = append(statuses, ev.Data.Status)
		}
	}
	if diff := cmp.Diff([]string{"working", "completed"}, statuses); diff != "" {
		t.Errorf("tool.task statuses in the log (-want +got):\n%s\nlogs:\n%s", diff, r.stdout)
	}
}

// A server that dies mid-task: the call waits for it to come back and
// follows the same task on the new connection to its result.
func TestMCPCallTaskOutlivesReconnect(t *testing.T) {
	dir := t.TempDir()
	crash := filepath.Join(dir, "crashed")
	cfg := writeConfig(t, fmt.Sprintf("[mcp.servers.t]\ncommand = %q\nargs = [\"-tasks\", \"complete\", \"-tasks-crash\", %q]\nwrite = [%q]\n", stdioServerBin(t), crash, dir))
	r := deckhand(t, nil, "", "--config", cfg, "mcp", "call", "--timeout", "30s", "t.research", `{"topic":"go"}`)
	if r.code != exitOK || !strings.Contains(r.stdout, "report on task-1") || !strings.Contains(r.stderr, "following task task-1 again") {
		t.Errorf("mcp call across a crash = exit %d, stdout %q; want the report of task-1, followed again\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// The real binary against a task server over streamable HTTP
// (testutil/taskpeer's Handler): mcp call follows the task to its result
// or its failure, a timeout cancels it on the server, and a task started
// with --no-wait is reached by later processes over sessions of their own
// (mcp task get, mcp task cancel); the same against a sessionless server
// in the lmcp style.
func TestMCPCallTasksHTTP(t *testing.T) {
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	home := t.TempDir()
	run := func(t *testing.T, cfg string, args ...string) result {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--config", cfg}, args...)...)
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_STATE_HOME=", "XDG_CONFIG_HOME="}
		return runCmd(t, cmd)
	}
	type step struct {
		args   []string
		code   int
		stdout string // a substring of stdout
		stderr []string
	}
	tests := []struct {
		name     string
		mode     string
		plain    bool // a sessionless server, lmcp style
		steps    []step
		cancels  []string
		sessions int
	}{
		{name: "waits for the result", mode: taskpeer.Complete, sessions: 1, steps: []step{
			{args: []string{"mcp", "call", "t.research", `{"topic":"go"}`}, code: exitOK, stdout: "report on task-1",
				stderr: []string{"progress: task working: started", "progress: task completed: done"}}}},
		{name: "failed task", mode: taskpeer.Fail, sessions: 1, steps: []step{
			{args: []string{"mcp", "call", "t.research", `{}`}, code: exitFailure, stderr: []string{"research failed: it broke"}}}},
		{name: "never ends: the timeout cancels it on the server", mode: taskpeer.Never, sessions: 1, cancels: []string{"task-1"}, steps: []step{
			{args: []string{"mcp", "call", "--timeout", "1500ms", "t.research", `{}`}, code: exitFailure, stderr: []string{"deadline exceeded"}}}},
		{name: "no wait, then get and cancel from other processes", mode: taskpeer.Never, sessions: 3, cancels: []string{"task-1"}, steps: []step{
			{args: []string{"mcp", "call", "--no-wait", "t.research", `{}`}, code: exitOK, stdout: "task task-1: working: started"},
			{args: []string{"mcp", "task", "get", "t", "task-1"}, code: exitOK, stdout: "task task-1: working: step 1"},
			{args: []string{"mcp", "task", "cancel", "t", "task-1"}, code: exitOK, stdout: "task task-1: cancelled"}}},
		{name: "plain server: waits for the result", mode: taskpeer.Complete, plain: true, sessions: 1, steps: []step{
			{args: []string{"mcp", "call", "t.research", `{"topic":"go"}`}, code: exitOK, stdout: "report on task-1",
				stderr: []string{"progress: task working: started", "progress: task completed: done"}}}},
		{name: "plain server: no wait, then get and cancel", mode: taskpeer.Never, plain: true, sessions: 3, cancels: []string{"task-1"}, steps: []step{
			{args: []string{"mcp", "call", "--no-wait", "t.research", `{}`}, code: exitOK, stdout: "task task-1: working: started"},
			{args: []string{"mcp", "task", "get", "t", "task-1"}, code: exitOK, stdout: "task task-1: working: step 1"},
			{args: []string{"mcp", "task", "cancel", "t", "task-1"}, code: exitOK, stdout: "task task-1: cancelled"}}},
		{name: "plain server, 2026 generation", mode: taskpeer.V2, plain: true, sessions: 1, steps: []step{
			{args: []string{"mcp", "call", "t.research", `{"topic":"go"}`}, code: exitOK, stdout: "report on task-1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			peer := &taskpeer.Peer{Mode: tt.mode, Plain: tt.plain, Interval: 250 * time.Millisecond}
			srv := httptest.NewServer(peer.Handler())
			t.Cleanup(func() {
				srv.CloseClientConnections()
				srv.Close()
			})
			cfg := writeConfig(t, fmt.Sprintf("[mcp.servers.t]\nurl = %q\n", srv.URL+"/mcp"))
			for _, s := range tt.steps {
				r := run(t, cfg, s.args...)
				if r.code != s.code || !strings.Contains(r.stdout, s.stdout) {
					t.Errorf("deckhand %s = exit %d, stdout %q; want exit %d and %q\nstderr: %s", strings.Join(s.args, " "), r.code, r.stdout, s.code, s.stdout, r.stderr)
				}
				for _, w := range s.stderr {
					if !strings.Contains(r.stderr, w) {
						t.Errorf("deckhand %s: stderr = %q, want %q in it", strings.Join(s.args, " "), r.stderr, w)
					}
				}
			}
			if diff := cmp.Diff(tt.cancels, peer.Cancels()); diff != "" {
				t.Errorf("tasks/cancel at the server (-want +got):\n%s", diff)
			}
			if n := peer.Sessions(); n != tt.sessions {
				t.Errorf("the server saw %d sessions, want %d", n, tt.sessions)
			}
		})
	}
}

// An HTTP server that restarts mid-task (its sessions lost, its tasks
// kept): mcp call connects again and follows the same task there to its
// result.
func TestMCPCallTaskHTTPOutlivesReconnect(t *testing.T) {
	peer := &taskpeer.Peer{Mode: taskpeer.Complete, Interval: 250 * time.Millisecond, CrashOnce: filepath.Join(t.TempDir(), "restarted")}
	peer.Crash = peer.ForgetSessions
	srv := httptest.NewServer(peer.Handler())
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	cfg := writeConfig(t, fmt.Sprintf("[mcp.servers.t]\nurl = %q\n", srv.URL+"/mcp"))
	r := deckhand(t, nil, "", "--config", cfg, "mcp", "call", "--timeout", "30s", "t.research", `{"topic":"go"}`)
	if r.code != exitOK || !strings.Contains(r.stdout, "report on task-1") || !strings.Contains(r.stderr, "following task task-1 again") {
		t.Errorf("mcp call across a server restart = exit %d, stdout %q; want the report of task-1, followed again\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if n := peer.Sessions(); n != 2 {
		t.Errorf("the server saw %d sessions, want 2", n)
	}
}
