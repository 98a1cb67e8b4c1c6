package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"deckhand/clean"
)

// mcpReview shows a quarantined tool's whole definition and its flags and,
// once the person says so, offers it to the model from now on: the review
// is kept in the log (a changed definition is quarantined again).
func mcpReview(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp review", flag.ContinueOnError)
	yes := fs.Bool("yes", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("usage: deckhand mcp review [--yes] ALIAS.TOOL")
	}
	db, err := e.openLog(ctx)
	if err != nil {
		return fmt.Errorf("the review is kept in the log, which cannot be opened: %w", err)
	}
	defer db.Close()
	e.logDB = db
	if _, _, ok := strings.Cut(rest[0], "."); !ok {
		return usagef("want ALIAS.TOOL, got %q", rest[0])
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	// Every server: a flag may come from another's tools (a name it
	// shadows, an alias it imitates), and the review is of what the model
	// would be offered beside them.
	sys, _, _, err := e.catalog(ctx, "", defaultWait(cfg))
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	all, err := sys.AllTools(ctx)
	if err != nil {
		return err
	}
	t, ok := all.Lookup(rest[0])
	if !ok {
		return unknownTool(all, rest[0])
	}
	printTool(e.stdout, t, cfg.MCP.Servers[t.Server].Trusted)
	q, err := sys.Quarantined(ctx)
	if err != nil {
		return err
	}
	held := false
	for _, x := range q {
		held = held || x.Display == t.Display
	}
	if !held {
		fmt.Fprintf(e.stdout, "\n%s is not quarantined: it is offered to the model as it is.\n", t.Display)
		return nil
	}
	if !*yes {
		if !e.isTerminal(e.stdin) {
			return usagef("%s is quarantined; to offer it to the model, run this again in a terminal, or with --yes", t.Display)
		}
		fmt.Fprintf(e.stdout, "\nOffer %s to the model from now on? [y/N] ", t.Display)
		line, err := bufio.NewReader(e.stdin).ReadString('\n')
		if err != nil && line == "" {
			return errors.New("no answer: the tool stays quarantined")
		}
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			fmt.Fprintf(e.stdout, "%s stays quarantined.\n", t.Display)
			return nil
		}
	}
	if err := sys.ReviewTool(ctx, t.Display); err != nil {
		return err
	}
	if err := sys.SyncLog(ctx); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s is offered to the model from now on (until its definition changes).\n", clean.Line(t.Display))
	return nil
}
