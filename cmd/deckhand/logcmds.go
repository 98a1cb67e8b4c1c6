package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"deckhand/store"
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
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", s.ID, s.Updated.Local().Format("2006-01-02 15:04"), s.Runs, s.LastRun, tokens(s.Usage), cost(s.Usage), shorten(s.Title, 50))
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

// runLogs prints a session's or a run's events as a timeline.
func runLogs(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("logs", flag.ContinueOnError)
	session := fs.String("session", "", "")
	run := fs.String("run", "", "")
	asJSON := fs.Bool("json", false, "")
	follow := fs.Bool("follow", false, "")
	fs.BoolVar(follow, "f", false, "")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(rest) > 0 || (*session == "") == (*run == "") {
		return usagef("usage: deckhand logs (--session ID | --run ID) [--json] [--follow]")
	}
	db, err := e.openLog(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	if !*follow {
		e.closeDeadRuns(ctx, db)
	}
	filter := store.Filter{}
	if *run != "" {
		r, err := db.Run(ctx, *run)
		if err != nil {
			return err
		}
		filter.RunID = r.ID
	} else {
		s, err := db.Session(ctx, *session)
		if err != nil {
			return err
		}
		filter.SessionID = s.ID
		if !*asJSON {
			fmt.Fprintf(e.stdout, "Session %s: %q, %d runs, %s tokens, %s\n", s.ID, s.Title, s.Runs, tokens(s.Usage), cost(s.Usage))
		}
	}
	p := &timeline{w: e.stdout, json: *asJSON, showRun: filter.SessionID != ""}
	for {
		events, err := db.Events(ctx, filter)
		if err != nil {
			return err
		}
		for _, ev := range events {
			p.print(ev)
		}
		if len(events) > 0 {
			last := events[len(events)-1]
			filter.After = &last
			if filter.RunID != "" && runEnded(last.Kind) {
				return nil
			}
		}
		if !*follow {
			return nil
		}
		if gone, err := processGone(ctx, db, filter); err != nil {
			return err
		} else if gone != "" {
			// What it wrote just before it died, then nothing more comes.
			rest, err := db.Events(ctx, filter)
			if err != nil {
				return err
			}
			for _, ev := range rest {
				p.print(ev)
			}
			if !*asJSON {
				fmt.Fprintf(e.stdout, "(%s)\n", gone)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// processGone says why following filter can stop: the run followed (or the
// session's latest run) was interrupted, its process gone. "" means keep
// following.
func processGone(ctx context.Context, db *store.DB, filter store.Filter) (string, error) {
	status := ""
	if filter.RunID != "" {
		r, err := db.Run(ctx, filter.RunID)
		if err != nil {
			return "", err
		}
		status = r.Status
	} else {
		s, err := db.Session(ctx, filter.SessionID)
		if err != nil {
			return "", err
		}
		status = s.LastRun
	}
	if status != store.RunInterrupted {
		return "", nil
	}
	return "interrupted: the Deckhand running it is gone", nil
}

func runEnded(kind string) bool {
	switch kind {
	case store.KindRunSucceeded, store.KindRunFailed, store.KindRunStopped, store.KindRunInterrupted:
		return true
	}
	return false
}

// timeline prints events, a line each, or as JSON lines.
type timeline struct {
	w       io.Writer
	json    bool
	showRun bool
	lastRun string
}

func (t *timeline) print(ev store.Event) {
	if t.json {
		line, _ := json.Marshal(struct {
			Seq     int64           `json:"seq"`
			ID      string          `json:"id"`
			Session string          `json:"session"`
			Run     string          `json:"run,omitempty"`
			Time    time.Time       `json:"time"`
			Kind    string          `json:"kind"`
			Data    json.RawMessage `json:"data"`
		}{ev.Seq, ev.ID, ev.SessionID, ev.RunID, ev.Time, ev.Kind, ev.Data})
		fmt.Fprintln(t.w, string(line))
		return
	}
	if t.showRun && ev.RunID != "" && ev.RunID != t.lastRun {
		fmt.Fprintf(t.w, "\nrun %s\n", ev.RunID)
		t.lastRun = ev.RunID
	}
	fmt.Fprintf(t.w, "%s  %-18s %s\n", ev.Time.Local().Format("15:04:05.000"), ev.Kind, strings.ReplaceAll(store.Summary(ev), "\n", " "))
}

// runApprovals lists or revokes "always allow" grants.
func runApprovals(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("approvals", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 || (rest[0] != "list" && rest[0] != "revoke") || (rest[0] == "revoke") != (len(rest) == 2) || len(rest) > 2 {
		return usagef("usage: deckhand approvals list [--json] | deckhand approvals revoke ID")
	}
	db, err := e.openLog(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	if rest[0] == "revoke" {
		g, err := db.RevokeGrant(ctx, rest[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "Revoked: %s is asked again from now on.\n", g.Tool)
		return nil
	}
	grants, err := db.Grants(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		type grantJSON struct {
			ID        string    `json:"id"`
			Tool      string    `json:"tool"`
			Scope     string    `json:"scope"`
			By        string    `json:"granted_by"`
			At        time.Time `json:"granted_at"`
			SessionID string    `json:"session,omitempty"`
		}
		out := []grantJSON{}
		for _, g := range grants {
			out = append(out, grantJSON{g.ID, g.Tool, g.Scope, g.By, g.Time, g.SessionID})
		}
		return writeJSON(e.stdout, out)
	}
	if len(grants) == 0 {
		fmt.Fprintln(e.stdout, "No \"always allow\" grants.")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTOOL\tSCOPE\tGRANTED BY\tWHEN")
	for _, g := range grants {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", g.ID, g.Tool, g.Scope, g.By, g.Time.Local().Format("2006-01-02 15:04"))
	}
	tw.Flush()
	return nil
}
