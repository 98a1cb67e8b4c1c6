package main

import (
	"context"
	"flag"
	"fmt"

	"deckhand/actors/servers"
	"deckhand/terminal"
)

func mcpList(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp list", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	maxWait := fs.Duration("wait", shortWait, "")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usagef("mcp list takes no arguments")
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	sys, list, err := e.connect(ctx, cfg, *maxWait)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	if *asJSON {
		out := make([]statusJSON, len(list))
		for i, s := range list {
			out[i] = toStatusJSON(s)
		}
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
		return serversDown(e, list)
	}
	if len(list) == 0 {
		fmt.Fprintf(e.stdout, "No MCP servers configured in %s.\n\n%s", cfg.Path, addServerHint)
		return nil
	}
	terminal.PrintStatuses(e.stdout, list)
	return serversDown(e, list)
}

// serversDown names on stderr each server that could not be connected
// (failed, or lost and reconnecting) and makes the exit code 1, as the
// README's exit codes say; a disabled, idle or still-connecting server is
// not down.
func serversDown(e *env, list []servers.ServerStatus) error {
	var down []string
	for _, s := range list {
		if s.State == servers.StateFailed || s.State == servers.StateReconnecting {
			down = append(down, s.Alias)
			fmt.Fprintf(e.stderr, "deckhand: server %s is down: %s\n", s.Alias, terminal.StateText(s))
		}
	}
	if len(down) > 0 {
		return &silentError{code: exitFailure}
	}
	return nil
}
