package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"deckhand/terminal"
)

// mcpPins lists how each tool compares with its pinned definition, or
// accepts a tool's changed definition.
func mcpPins(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp pins", flag.ContinueOnError)
	maxWait := fs.Duration("wait", shortWait, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	accept := len(rest) == 2 && rest[0] == "accept"
	if len(rest) > 1 && !accept {
		return usagef("usage: deckhand mcp pins [ALIAS] | deckhand mcp pins accept ALIAS.TOOL")
	}
	var only []string
	switch {
	case accept:
		alias, _, ok := strings.Cut(rest[1], ".")
		if !ok {
			return usagef("want ALIAS.TOOL, got %q", rest[1])
		}
		only = []string{alias}
	case len(rest) == 1:
		only = rest
	}
	db, err := e.openLog(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	e.logDB = db
	sys, _, _, err := e.catalog(ctx, "", *maxWait, only...)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	if accept {
		if err := sys.AcceptPin(ctx, rest[1]); err != nil {
			return err
		}
		if err := sys.SyncLog(ctx); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "Pinned the current definition of %s: its rules and grants count again.\n", rest[1])
		return nil
	}
	states, err := sys.Pins(ctx)
	if err != nil {
		return err
	}
	changed := 0
	for _, st := range states {
		if !st.Changed {
			added := ""
			if st.New {
				added = ", new: added on " + st.Since.Local().Format("2006-01-02 15:04") + " to a server already known"
			}
			fmt.Fprintf(e.stdout, "%s  pinned%s\n", st.Tool.Display, added)
			continue
		}
		changed++
		fmt.Fprintf(e.stdout, "%s  CHANGED since it was pinned:\n%s\n", st.Tool.Display, terminal.Indent(st.Change, "    "))
	}
	alias := ""
	if len(rest) == 1 {
		alias = rest[0]
	}
	for _, g := range sys.Gone(alias) {
		fmt.Fprintf(e.stdout, "%s  gone: not in its server's listing since %s\n", g.Tool, g.Since.Local().Format("2006-01-02 15:04"))
	}
	if changed > 0 {
		fmt.Fprintf(e.stdout, "\n%d changed: each is asked again before it runs; deckhand mcp pins accept ALIAS.TOOL accepts a change.\n", changed)
	}
	return nil
}
