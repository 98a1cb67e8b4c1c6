package main

import (
	"fmt"
	"strings"
	"testing"
)

// mcp call follows a task to its end (its status on stderr), --no-wait
// prints its id, and mcp task get and cancel reach it, against
// testutil/taskpeer in its modes.
func TestMCPCallTasks(t *testing.T) {
	bin := stdioServerBin(t)
	tests := []struct {
		name      string
		mode      string
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
			cfg := writeConfig(t, fmt.Sprintf("[mcp.servers.t]\ncommand = %q\nargs = [\"-tasks\", %q]\n", bin, tt.mode))
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
