package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"deckhand/store"
)

// runLogs prints a session's or a run's events as a timeline.
func runLogs(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("logs", flag.ContinueOnError)
	session := fs.String("session", "", "")
	run := fs.String("run", "", "")
	servers := fs.Bool("servers", false, "")
	asJSON := fs.Bool("json", false, "")
	follow := fs.Bool("follow", false, "")
	fs.BoolVar(follow, "f", false, "")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if n := btoi(*session != "") + btoi(*run != "") + btoi(*servers); len(rest) > 0 || n != 1 {
		return usagef("usage: deckhand logs (--session ID | --run ID | --servers) [--json] [--follow]")
	}
	db, err := e.openLog(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	if !*follow {
		e.closeDeadRuns(ctx, db)
	}
	filter := store.Filter{Servers: *servers}
	if *servers {
		// What servers did outside any session: the connections sandboxed
		// servers asked Deckhand's egress proxy for.
	} else if *run != "" {
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
		if gone, err := processGone(ctx, db, filter); ctx.Err() != nil {
			return nil // Ctrl+C: following ends there
		} else if err != nil {
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

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
