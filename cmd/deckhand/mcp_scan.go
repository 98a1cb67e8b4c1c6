package main

import (
	"context"
	"flag"
	"fmt"

	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/tools"
)

// scannedTool is one tool of `mcp scan --json`: its server, its name and
// the flags the approval would show.
type scannedTool struct {
	Server string       `json:"server"`
	Tool   string       `json:"tool"`
	Flags  []tools.Flag `json:"flags"`
}

// mcpScan connects every configured server and prints, per tool, the
// warnings its definition raises (those the approval shows), and which
// tools are quarantined. It exits 0 whatever it finds: a flag is for the
// person to judge.
func mcpScan(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp scan", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	maxWait := fs.Duration("wait", 0, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("usage: deckhand mcp scan [--json] [--wait D]")
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	if *maxWait == 0 {
		*maxWait = defaultWait(cfg) // every server: a scan that skips one says nothing of it
	}
	// The log holds which quarantined tools were released already.
	if db, err := e.openLog(ctx); err != nil {
		fmt.Fprintf(e.stderr, "(%v: every flagged tool is shown as quarantined)\n", err)
	} else {
		defer db.Close()
		e.logDB = db
	}
	sys, _, _, err := e.catalog(ctx, "", *maxWait)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	all, err := sys.AllTools(ctx)
	if err != nil {
		return err
	}
	q, err := sys.Quarantined(ctx)
	if err != nil {
		return err
	}
	quarantined := map[string]bool{}
	for _, t := range q {
		quarantined[t.Display] = true
	}
	if *asJSON {
		out := []scannedTool{}
		for _, t := range all.Tools() {
			flags := t.Flags
			if flags == nil {
				flags = []tools.Flag{}
			}
			out = append(out, scannedTool{Server: t.Server, Tool: t.Name, Flags: flags})
		}
		return writeJSON(e.stdout, out)
	}
	w, flagged := e.stdout, 0
	for _, t := range all.Tools() {
		if len(t.Flags) == 0 {
			continue
		}
		flagged++
		mark := ""
		if quarantined[t.Display] {
			mark = "  [quarantined: " + servers.HowToRelease(t.Display) + "]"
		}
		fmt.Fprintf(w, "%s%s\n", t.Display, mark)
		for _, f := range t.Flags {
			fmt.Fprintf(w, "  %-13s %s\n", f.Kind+":", clean.Line(f.Text))
		}
	}
	fmt.Fprintf(w, "%d of %d %s flagged, %d quarantined (not offered to the model until released).\n", flagged, all.Len(), plural(all.Len(), "tool", "tools"), len(q))
	return nil
}
