package main

import (
	"context"
	"flag"
	"fmt"

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
		return writeJSON(e.stdout, out)
	}
	if len(list) == 0 {
		fmt.Fprintf(e.stdout, "No MCP servers configured in %s.\n\n%s", cfg.Path, addServerHint)
		return nil
	}
	terminal.PrintStatuses(e.stdout, list)
	return nil
}
