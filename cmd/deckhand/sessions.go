package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"deckhand/config"
	"deckhand/export"
	"deckhand/store"
	"deckhand/terminal"
)

// runSessions lists past sessions; "sessions export ID" writes one out.
func runSessions(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "export" {
		return runSessionsExport(ctx, e, args[1:])
	}
	fs := flag.NewFlagSet("sessions", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	limit := fs.Int("limit", 50, "")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usagef("sessions takes no arguments (or: sessions export ID --format markdown|json [-o FILE])")
	}
	db, err := e.openLog(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	e.closeDeadRuns(ctx, db)
	list, err := db.Sessions(ctx, *limit)
	if err != nil {
		return err
	}
	if *asJSON {
		type sessionJSON struct {
			ID           string    `json:"id"`
			Title        string    `json:"title"`
			Model        string    `json:"model"`
			Created      time.Time `json:"created"`
			LastActivity time.Time `json:"last_activity"`
			Runs         int       `json:"runs"`
			InputTokens  int       `json:"input_tokens"`
			OutputTokens int       `json:"output_tokens"`
			CostUSD      float64   `json:"cost_usd"`
			Estimated    bool      `json:"estimated"`
			LastRun      string    `json:"last_run"`
			Pinned       bool      `json:"pinned"`
		}
		out := []sessionJSON{}
		for _, s := range list {
			out = append(out, sessionJSON{s.ID, s.Title, s.Model, s.Created, s.Updated, s.Runs, s.Usage.InputTokens, s.Usage.OutputTokens, s.Usage.CostUSD, s.Usage.Estimated, s.LastRun, s.Pinned})
		}
		return writeJSON(e.stdout, out)
	}
	if len(list) == 0 {
		fmt.Fprintf(e.stdout, "No sessions yet in %s. Start one with: deckhand chat\n", db.Path())
		return nil
	}
	// The model on this computer costs nothing, as the window's status
	// line says: the log does not say where a session's model ran, so a
	// session of the configured model counts as there when it is (a
	// config that cannot be read: none does).
	var local config.Model
	if cfg, err := e.loadConfig(); err == nil && cfg.Model.OnThisComputer() {
		local = cfg.Model
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	unpriced := false
	fmt.Fprintln(tw, "ID\tLAST ACTIVITY\tRUNS\tLAST RUN\tTOKENS IN/OUT\tCOST\tTITLE")
	for _, s := range list {
		title := terminal.Shorten(s.Title, 50)
		if s.Pinned {
			title = pinMark + title // listed first, as in the window's sidebar
		}
		c := sessionCost(s.Usage, s.Model, local)
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", s.ID, s.Updated.Local().Format("2006-01-02 15:04"), s.Runs, s.LastRun, tokens(s.Usage), c, title)
		unpriced = unpriced || c == costUnknown
	}
	tw.Flush()
	if unpriced {
		fmt.Fprintln(e.stdout, "\nCost unknown: no price was set for the model (model.price or model.prices in the config, or Settings ▸ Advanced in the window); a model on this computer costs nothing.")
	}
	return nil
}

// pinMark marks a pinned chat's title, as the sidebar does.
const pinMark = "📌 "

func tokens(u store.Usage) string {
	mark := ""
	if u.Estimated {
		mark = "~"
	}
	return fmt.Sprintf("%s%s/%s%s", mark, store.Count(u.InputTokens), mark, store.Count(u.OutputTokens))
}

// cost is a session's or run's cost: "-" before any token, "unknown"
// for tokens spent with no price known for the model (the window's status
// line says "cost unknown" too; a run of a model on this computer costs
// nothing and reads the same, the log not knowing where its model ran).
func cost(u store.Usage) string {
	switch {
	case u.CostUSD > 0:
		return fmt.Sprintf("$%.4f", u.CostUSD)
	case u.InputTokens+u.OutputTokens == 0:
		return "-"
	}
	return costUnknown
}

// sessionCost is cost, but for tokens of model when it is local's (the
// model configured on this computer; zero when none is), which cost
// nothing.
func sessionCost(u store.Usage, model string, local config.Model) string {
	c := cost(u)
	if c == costUnknown && local.Name != "" && model == local.Name {
		return costLocal
	}
	return c
}

// costUnknown is cost's word for tokens spent at no known price;
// costLocal, the sessions list's for those of the model configured on this
// computer, which cost nothing.
const (
	costUnknown = "unknown"
	costLocal   = "$0 (local)"
)

// runSessionsExport writes a session out as Markdown or JSON: its messages,
// answers, tool calls with their arguments and results, the model and the
// cost; a session whose chain is broken says so in it.
func runSessionsExport(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("sessions export", flag.ContinueOnError)
	format := fs.String("format", export.Markdown, "")
	out := fs.String("o", "", "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("sessions export takes one session ID: deckhand sessions export ID --format markdown|json [-o FILE]")
	}
	if *format != export.Markdown && *format != export.JSON && *format != "md" {
		return usagef("sessions export: --format %q: want markdown or json", *format)
	}
	db, err := e.openLog(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	chat, err := export.Load(ctx, db, rest[0])
	if err != nil {
		return err
	}
	if *out == "" || *out == "-" {
		return export.Write(e.stdout, chat, *format)
	}
	var buf bytes.Buffer
	if err := export.Write(&buf, chat, *format); err != nil {
		return err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("writing the export: %w", err)
	}
	if chat.Broken != "" {
		fmt.Fprintf(e.stderr, "warning: %s\n", chat.Broken)
	}
	return nil
}
