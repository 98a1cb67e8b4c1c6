package main

import (
	"context"
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"deckhand/store"
	"deckhand/terminal"
)

// runSessions lists past sessions.
func runSessions(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("sessions", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	limit := fs.Int("limit", 50, "")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 {
		return usagef("sessions takes no arguments")
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
		}
		out := []sessionJSON{}
		for _, s := range list {
			out = append(out, sessionJSON{s.ID, s.Title, s.Model, s.Created, s.Updated, s.Runs, s.Usage.InputTokens, s.Usage.OutputTokens, s.Usage.CostUSD, s.Usage.Estimated, s.LastRun})
		}
		return writeJSON(e.stdout, out)
	}
	if len(list) == 0 {
		fmt.Fprintf(e.stdout, "No sessions yet in %s. Start one with: deckhand chat\n", db.Path())
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLAST ACTIVITY\tRUNS\tLAST RUN\tTOKENS IN/OUT\tCOST\tTITLE")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", s.ID, s.Updated.Local().Format("2006-01-02 15:04"), s.Runs, s.LastRun, tokens(s.Usage), cost(s.Usage), terminal.Shorten(s.Title, 50))
	}
	tw.Flush()
	return nil
}

func tokens(u store.Usage) string {
	mark := ""
	if u.Estimated {
		mark = "~"
	}
	return fmt.Sprintf("%s%s/%s%s", mark, store.Count(u.InputTokens), mark, store.Count(u.OutputTokens))
}

func cost(u store.Usage) string {
	if u.CostUSD == 0 {
		return "-"
	}
	return fmt.Sprintf("$%.4f", u.CostUSD)
}
