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
	verify := fs.Bool("verify", false, "")
	if rest, err := parseFlags(fs, args); err != nil {
		return err
	} else if n := btoi(*session != "") + btoi(*run != "") + btoi(*servers) + btoi(*verify); len(rest) > 0 || n != 1 {
		return usagef("usage: deckhand logs (--session ID | --run ID | --servers) [--json] [--follow] | deckhand logs --verify [--json]")
	}
	db, err := e.openLog(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	if *verify {
		return verifyLog(ctx, e, db, *asJSON)
	}
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
			fmt.Fprintf(e.stdout, "Session %s: %q, %d %s, %s tokens, %s\n", s.ID, s.Title, s.Runs, plural(s.Runs, "run", "runs"), tokens(s.Usage), cost(s.Usage))
		}
		// What is shown (or exported, with --json) from a tampered
		// record says so, on stderr: the JSON lines stay as they are.
		breaks, err := db.VerifySession(ctx, s.ID)
		if err != nil {
			return err
		}
		if len(breaks) > 0 {
			defer fmt.Fprintf(e.stderr, "warning: %s\n", store.Tampered(breaks))
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

// verifyLog checks the whole log's chains and signatures (deckhand logs
// --verify), printing where each breaks; a break is an error (exit 1).
func verifyLog(ctx context.Context, e *env, db *store.DB, asJSON bool) error {
	rep, err := db.Verify(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		type breakJSON struct {
			Session string `json:"session"`
			Seq     int64  `json:"seq,omitempty"`
			Event   string `json:"event,omitempty"`
			Kind    string `json:"kind,omitempty"`
			What    string `json:"what"`
		}
		type foreignJSON struct {
			Table string `json:"table"`
			Tool  string `json:"tool"`
		}
		out := struct {
			Path     string        `json:"path"`
			Intact   bool          `json:"intact"`
			Chains   int           `json:"chains"`
			Events   int           `json:"events"`
			OtherKey bool          `json:"other_key"`
			Breaks   []breakJSON   `json:"breaks"`
			Foreign  []foreignJSON `json:"foreign"`
		}{Path: db.Path(), Intact: rep.Intact(), Chains: rep.Chains, Events: rep.Events, OtherKey: rep.OtherKey, Breaks: []breakJSON{}, Foreign: []foreignJSON{}}
		for _, b := range rep.Breaks {
			out.Breaks = append(out.Breaks, breakJSON{b.Chain, b.Seq, b.EventID, b.Kind, b.What})
		}
		for _, f := range rep.Foreign {
			out.Foreign = append(out.Foreign, foreignJSON{f.Table, f.Tool})
		}
		if err := writeJSON(e.stdout, out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "%s: %d %s in %d %s\n", db.Path(), rep.Events, plural(rep.Events, "event", "events"), rep.Chains, plural(rep.Chains, "chain", "chains"))
		if rep.OtherKey {
			fmt.Fprintln(e.stdout, "  ! signed with another key than this install's (moved from another machine, or the key was lost): nothing in it can be checked")
		}
		for _, b := range rep.Breaks {
			fmt.Fprintf(e.stdout, "  ! %s\n", b)
		}
		for _, f := range rep.Foreign {
			fmt.Fprintf(e.stdout, "  ! %s: not written by Deckhand, ignored\n", f)
		}
		if rep.Intact() {
			fmt.Fprintln(e.stdout, "Intact: every event is where Deckhand wrote it, as it wrote it, and every grant and pin is Deckhand's.")
		}
	}
	if !rep.Intact() {
		return &silentError{code: exitFailure}
	}
	return nil
}
