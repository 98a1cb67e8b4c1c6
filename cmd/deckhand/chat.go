package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"deckhand/actors/conversation"
	"deckhand/clean"
	"deckhand/store"
	"deckhand/terminal"
	"deckhand/tools"
)

const chatUsage = `Usage:
  deckhand chat [--approve ask|auto|deny] [--model NAME] [--resume ID] [--wait D]           a conversation in the terminal
  deckhand chat -p PROMPT [--approve ask|auto|deny] [--model NAME] [--resume ID] [--wait D] one answer, printed; exits 1 if the run fails

--resume   continue a past session (see deckhand sessions): what was said, and the
           tools allowed for it

--approve  what to do when a tool call needs approval: ask (the default; with no
           terminal to ask on, that is a deny), auto (allow every call once), deny

--wait     how long servers still starting may hold up the first request
           (default 2s; 0 waits for none); those not ready by then join
           from the next request on
`

func runChat(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("chat", flag.ContinueOnError)
	prompt := fs.String("p", "", "")
	mode := fs.String("approve", "ask", "")
	model := fs.String("model", "", "")
	resume := fs.String("resume", "", "")
	grace := fs.Duration("wait", 2*time.Second, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("chat takes no arguments (did you mean -p %q?)\n%s", strings.Join(rest, " "), chatUsage)
	}
	defer memoryUpkeep(e.log)()
	approve, err := terminal.ParseApprove(*mode)
	if err != nil {
		return usagef("%v", err)
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	if *model != "" {
		cfg.Model.Name = *model
	}
	if !cfg.Model.Configured() {
		return usagef("no model is configured in %s. Add, for example:\n\n[model]\nbase_url = \"http://127.0.0.1:11434/v1\"   # Ollama; llama.cpp is :8080, LM Studio :1234\nname = \"llama3.1\"\n# api_key_env = \"OPENAI_API_KEY\"          # for hosted APIs, or save the key in the window's Settings (kept in the keyring)", cfg.Path)
	}
	db, err := e.openLog(ctx)
	switch {
	case err != nil && *resume == "" && store.IsFull(err):
		// A full disk does not keep the person from an answer; it keeps
		// the conversation from being recorded, which is said now and
		// when the chat ends.
		fmt.Fprintf(e.stderr, "deckhand: %s: this conversation will NOT be kept\n", clean.Text(err.Error()))
		e.noLog = err
	case err != nil:
		return err
	default:
		defer db.Close()
		e.logDB = db
	}
	opts := conversation.ConversationOptions{}
	var recap string
	if *resume != "" {
		if opts, recap, err = resumeOptions(ctx, db, *resume); err != nil {
			return err
		}
		// What the model is given back from a tampered record says so.
		breaks, err := db.VerifySession(ctx, opts.ID)
		if err != nil {
			return err
		}
		if len(breaks) > 0 {
			fmt.Fprintf(e.stderr, "deckhand: warning: %s\n", clean.Line(store.Tampered(breaks)))
		}
	}
	// A broken server delays nobody: servers get a short grace (most local
	// ones are ready within it), then the conversation offers the tools of
	// those ready (and the last tools of on-demand ones), and those still
	// connecting join from the next request on.
	started := packStart()
	sys := e.startChat(cfg)
	defer e.stopSystem(sys)
	wctx, cancel := context.WithTimeout(ctx, max(*grace, 0))
	list, err := sys.ServerStatuses(wctx, *grace > 0)
	cancel()
	if err != nil {
		return err
	}
	if q, err := sys.Quarantined(ctx); err == nil {
		printQuarantined(e.stderr, q)
	}
	// The servers' listings and the catalog's builds are garbage now,
	// most of what the heap grew to (a start of 100 servers of 50 tools:
	// a live heap of 33 MB, 84 MB anonymous memory before this), and so
	// are the catalog builders' indexes and the compiled expressions that
	// flag tool definitions until a server changes: give it back now
	// rather than when Go's scavenger gets to it.
	if err := sys.Settle(ctx); err != nil {
		started()
		return err
	}
	started()
	tools.ReleaseFilters()
	giveBack()

	err = terminal.Run(ctx, terminal.Options{
		System:          sys,
		Statuses:        list,
		Conversation:    opts,
		Recap:           recap,
		Prompt:          *prompt,
		Approve:         approve,
		Stdin:           e.stdin,
		Stdout:          e.stdout,
		Stderr:          e.stderr,
		Interactive:     e.isTerminal(e.stdin),
		Color:           e.isTerminal(e.stdout) && os.Getenv("NO_COLOR") == "",
		Version:         version,
		Model:           cfg.Model.Name + " at " + cfg.Model.BaseURL,
		NoLog:           e.noLog,
		HandleInterrupt: e.handleInterrupt,
	})
	if _, ok := errors.AsType[*terminal.ReportedError](err); ok {
		return &silentError{code: exitFailure} // said already
	}
	return err
}

// isTerminal reports whether r is a terminal (not merely a character
// device: /dev/null is one too).
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// resumeOptions rebuilds a past session for chat --resume, and a recap of
// where it stopped.
func resumeOptions(ctx context.Context, db *store.DB, id string) (conversation.ConversationOptions, string, error) {
	s, err := db.Session(ctx, id)
	if err != nil {
		return conversation.ConversationOptions{}, "", err
	}
	events, err := db.Events(ctx, store.Filter{SessionID: s.ID})
	if err != nil {
		return conversation.ConversationOptions{}, "", err
	}
	opts := conversation.Rebuild(events)
	opts.ID = s.ID
	history := opts.History
	var b strings.Builder
	fmt.Fprintf(&b, "Resuming %q (%d %s, last active %s)\n", s.Title, s.Runs, plural(s.Runs, "run", "runs"), s.Updated.Local().Format("2006-01-02 15:04"))

	// The last exchange, so the person knows where they are.
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == "user" {
			fmt.Fprintf(&b, "  you: %s\n", terminal.Shorten(terminal.FirstLine(history[i].Content), 100))
			for _, m := range history[i+1:] {
				if m.Role == "assistant" && m.Content != "" {
					fmt.Fprintf(&b, "  model: %s\n", terminal.Shorten(terminal.FirstLine(m.Content), 100))
				}
			}
			break
		}
	}
	return opts, b.String(), nil
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
