package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"deckhand/actors"
	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/terminal"
	"deckhand/tools"
)

func mcpTools(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp tools", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	maxWait := fs.Duration("wait", shortWait, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return usagef("mcp tools takes at most one alias")
	}
	// The log holds the pinned definitions: which tools are new, changed
	// or gone. Without it the list is still shown.
	if db, err := e.openLog(ctx); err != nil {
		fmt.Fprintf(e.stderr, "(%v: new, changed and gone tools are not marked)\n", err)
	} else {
		defer db.Close()
		e.logDB = db
	}
	sys, cat, list, err := e.catalog(ctx, "", *maxWait, rest...)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	disabled := map[string]bool{} // by display name
	states, err := sys.Pins(ctx)
	if err != nil {
		return err
	}
	// Quarantined tools are not in the catalog either: listed, marked,
	// with how to release them.
	quarantined, err := sys.Quarantined(ctx)
	if err != nil {
		return err
	}
	held := map[string]bool{}
	for _, t := range quarantined {
		if o := only(rest); o == "" || t.Server == o {
			held[t.Display] = true
			states = append(states, sys.PinStates([]tools.Tool{t})...)
		}
	}
	// Tools the config disables (disabled_tools) are not in the catalog;
	// they are listed too, marked.
	for _, s := range list {
		listing, err := sys.ServerListing(ctx, s.Alias)
		if err != nil {
			return err
		}
		for _, t := range listing.Tools {
			if listing.Disabled[t.Name] && !held[t.Display] {
				states = append(states, actors.PinState{Tool: t})
				disabled[t.Display] = true
			}
		}
	}
	slices.SortStableFunc(states, func(a, b actors.PinState) int { return strings.Compare(a.Tool.Display, b.Tool.Display) })
	if *asJSON {
		out := []listedToolJSON{}
		for _, st := range states {
			j := toToolJSON(st.Tool, false)
			j.New, j.Changed = st.New, st.Changed
			out = append(out, listedToolJSON{toolJSON: j, Disabled: disabled[st.Tool.Display], Quarantined: held[st.Tool.Display]})
		}
		return writeJSON(e.stdout, out)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, st := range states {
		mark := ""
		switch {
		case disabled[st.Tool.Display]:
			mark = "[disabled] "
		case held[st.Tool.Display]:
			mark = "[QUARANTINED] "
		case st.Changed:
			mark = "[CHANGED] "
		case st.New:
			mark = "[new] "
		}
		fmt.Fprintf(tw, "%s\t%s%s\n", st.Tool.Display, mark, terminal.Shorten(terminal.FirstLine(st.Tool.Def.Description), 100))
	}
	tw.Flush()
	for _, r := range cat.Rejected() {
		fmt.Fprintf(e.stderr, "%s: tool %s left out: %s\n", r.Server, r.Name, r.Reason)
	}
	printQuarantined(e.stderr, quarantinedIn(quarantined, held))
	for _, g := range sys.Gone(only(rest)) {
		fmt.Fprintf(e.stderr, "%s: gone from its server's listing since %s\n", g.Tool, g.Since.Local().Format("2006-01-02 15:04"))
	}
	if cat.Len() == 0 && len(list) == 0 {
		fmt.Fprintf(e.stdout, "No MCP servers configured.\n\n%s", addServerHint)
	}
	return nil
}

// listedToolJSON is a tool of `mcp tools --json`: disabled ones (by the
// config's disabled_tools) are listed too, and say so.
type listedToolJSON struct {
	toolJSON
	Disabled    bool `json:"disabled,omitempty"`
	Quarantined bool `json:"quarantined,omitempty"` // high-risk flags, not released: not offered to the model
}

func quarantinedIn(list []tools.Tool, keep map[string]bool) []tools.Tool {
	var out []tools.Tool
	for _, t := range list {
		if keep[t.Display] {
			out = append(out, t)
		}
	}
	return out
}

// printQuarantined says which tools are kept from the model until the
// person releases them, why, and how to release each.
func printQuarantined(w io.Writer, list []tools.Tool) {
	if len(list) == 0 {
		return
	}
	fmt.Fprintf(w, "Quarantined, not offered to the model until you release them (run `deckhand mcp review ALIAS.TOOL`, or press Offer it to the model on the tool's page in the window's servers panel):\n")
	for _, t := range list {
		why := ""
		for _, f := range t.Flags {
			if f.High() {
				why = f.Text
				break
			}
		}
		fmt.Fprintf(w, "  %s: %s\n", t.Display, terminal.Shorten(clean.Line(why), 160))
	}
}

// catalog connects the configured servers (or only those named), waits at
// most maxWait, and returns the tools of those ready, saying on stderr which
// servers are down or still connecting, with note after the reason. An idle
// on-demand server is not down: its tools are those of its last
// connection. On success the caller must stopSystem.
func (e *env) catalog(ctx context.Context, note string, maxWait time.Duration, only ...string) (*actors.System, *tools.Catalog, []servers.ServerStatus, error) {
	cfg, err := e.loadConfig()
	if err != nil {
		return nil, nil, nil, err
	}
	sys, list, err := e.connect(ctx, cfg, maxWait, only...)
	if err != nil {
		return nil, nil, nil, err
	}
	cat, err := sys.Catalog(ctx)
	if err != nil {
		e.stopSystem(sys)
		return nil, nil, nil, err
	}
	for _, s := range list {
		if s.State != servers.StateReady && s.State != servers.StateIdle {
			fmt.Fprintf(e.stderr, "%s: %s%s\n", s.Alias, terminal.StateText(s), note)
		}
	}
	return sys, cat, list, nil
}

// only is the one alias a command was given, or "" for all.
func only(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return ""
}
