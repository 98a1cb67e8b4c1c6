package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"deckhand/terminal"
)

// runOverview is what plain `deckhand` does without a display: show the
// config and the servers, and how to add one.
func runOverview(ctx context.Context, e *env) error {
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Deckhand %s\nConfig: %s", version, cfg.Path)
	if _, err := os.Stat(cfg.Path); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprint(e.stdout, " (not created yet: using defaults)")
	}
	fmt.Fprint(e.stdout, "\n\n")
	if len(cfg.MCP.Servers) == 0 {
		fmt.Fprintf(e.stdout, "No MCP servers configured.\n\n%s", addServerHint)
		return nil
	}
	sys, list, err := e.connect(ctx, cfg, shortWait)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	terminal.PrintStatuses(e.stdout, list)
	fmt.Fprint(e.stdout, "\nTry: deckhand mcp tools · deckhand mcp call ALIAS.TOOL '{...}' · deckhand doctor\n")
	return nil
}
