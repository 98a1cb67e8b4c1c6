package main

import (
	"context"
	"flag"
	"fmt"

	"deckhand/clean"
	"deckhand/tools"
	"deckhand/transport/mcp"
)

// mcpTask asks a server about one of its tasks (tasks/get), or cancels it
// (tasks/cancel): a task left running by `mcp call --no-wait`, or one a
// chat started.
func mcpTask(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp task", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 3 || (rest[0] != "get" && rest[0] != "cancel") {
		return usagef("usage: deckhand mcp task (get | cancel) ALIAS TASK_ID")
	}
	verb, alias, id := rest[0], rest[1], rest[2]
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	sys, list, err := e.connect(ctx, cfg, 0, alias)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	conn := sys.ServerConn(alias)
	if conn == nil {
		state := "not connected"
		if len(list) == 1 {
			state = string(list[0].State)
		}
		return fmt.Errorf("server %s: %s", alias, state)
	}
	var t *mcp.Task
	if verb == "get" {
		t, err = conn.GetTask(ctx, id)
	} else {
		t, err = conn.CancelTask(ctx, id)
		if err == nil && t == nil {
			t = &mcp.Task{ID: id, Status: mcp.TaskCancelled}
		}
	}
	if err != nil {
		return err
	}
	if err := printTask(e, t, *asJSON); err != nil || *asJSON || verb != "get" || !t.Status.Terminal() || t.Status == mcp.TaskCancelled {
		return err
	}
	// An ended task: its result too.
	res, err := conn.AwaitTask(ctx, t, nil)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, tools.RenderResult(res))
	return nil
}

// printTask prints a task: its id, status and message, or as JSON.
func printTask(e *env, t *mcp.Task, asJSON bool) error {
	if asJSON {
		return writeJSON(e.stdout, map[string]any{"task": t.ID, "status": t.Status, "message": t.Message, "poll_interval_ms": t.PollInterval.Milliseconds()})
	}
	fmt.Fprintf(e.stdout, "task %s: %s", clean.Line(t.ID), t.Status)
	if t.Message != "" {
		fmt.Fprintf(e.stdout, ": %s", t.Message)
	}
	fmt.Fprintln(e.stdout)
	return nil
}
