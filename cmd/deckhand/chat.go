package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"golang.org/x/term"

	"deckhand/agent"
	"deckhand/clean"
	"deckhand/conversation"
	"deckhand/servers"
	"deckhand/store"
	"deckhand/store/writer"
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

const chatHelp = `Type a message and press Enter. While the model works you can type the next one (it waits its turn).
Approvals: [y]es once · [s]ession (this tool, until you quit) · [a]lways · [N]o (the default)

  :mcp list                   servers and their state
  :mcp tools [ALIAS]          tools, as alias.tool
  :mcp tool ALIAS.TOOL        one tool's whole definition
  :mcp connect URL [ALIAS]    add a server for this session (also: :mcp connect -- COMMAND ARGS...)
  :mcp disconnect ALIAS       remove a server
  :resources [ALIAS]          servers' resources and resource templates
  :attach [ALIAS:]URI         attach a resource to your next message (kept up to date until sent, where the server offers it)
  :prompts [ALIAS]            servers' prompts, as typed: /ALIAS.PROMPT ARG=VALUE … sends one
  :stop                       stop the current answer and its tool calls (Ctrl+C does too)
  :help                       this
  :quit                       leave (Ctrl+D, or Ctrl+C when nothing runs)
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
	switch *mode {
	case "ask", "auto", "deny":
	default:
		return usagef("--approve must be ask, auto or deny, not %q", *mode)
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
	}
	// A broken server delays nobody: servers get a short grace (most local
	// ones are ready within it), then the conversation offers the tools of
	// those ready (and the last tools of on-demand ones), and those still
	// connecting join from the next request on.
	sys := e.startChat(cfg)
	defer e.stopSystem(sys)
	wctx, cancel := context.WithTimeout(ctx, max(*grace, 0))
	list, err := sys.ServerStatuses(wctx, *grace > 0)
	cancel()
	if err != nil {
		return err
	}

	interactive := e.isTerminal(e.stdin)
	oneShot := *prompt != ""
	t := &terminal{
		e: e, sys: sys, mode: *mode, interactive: interactive, oneShot: oneShot,
		color: e.isTerminal(e.stdout) && os.Getenv("NO_COLOR") == "",
		done:  make(chan struct{}),
	}
	if oneShot {
		t.info = e.stderr // keep stdout for the answer
	} else {
		t.info = e.stdout
	}
	t.connecting = connectingOf(list)
	self := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return t }))
	defer sys.Root.Stop(self)
	sys.Root.Send(sys.Servers, &servers.WatchServers{PID: self})
	if sys.Store != nil {
		sys.Root.Send(sys.Store, &writer.WatchLog{Watcher: self})
	}
	opts.Watchers = []*actor.PID{self}
	conv, id, err := sys.StartConversation(ctx, opts)
	if err != nil {
		return err
	}
	sys.Root.Send(self, &chatReady{conv: conv, id: id})
	restore := e.handleInterrupt(func() bool {
		sys.Root.Send(self, &interrupted{})
		return true
	})
	defer restore()

	if oneShot {
		if line := connectingLine(list); line != "" {
			fmt.Fprintln(t.info, t.paint(dim, line))
		}
		sys.Root.Send(self, &inputLine{text: *prompt}) // counted in sent by input
		select {
		case <-t.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		return kept(e, sys, t.result)
	}

	ready := 0
	for _, s := range list {
		if s.State == servers.StateReady || s.State == servers.StateIdle {
			ready++
		}
	}
	fmt.Fprintf(e.stdout, "Deckhand %s · model %s at %s · %d of %d servers ready · :help for commands\n", version, cfg.Model.Name, cfg.Model.BaseURL, ready, len(list))
	if line := connectingLine(list); line != "" {
		fmt.Fprintln(e.stdout, t.paint(dim, line))
	}
	if recap != "" {
		fmt.Fprint(e.stdout, recap)
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(e.stdin)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	sys.Root.Send(self, &showPrompt{})
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				sys.Root.Send(self, &inputClosed{})
				lines = nil
				continue
			}
			sys.Root.Send(self, &inputLine{text: line})
		case <-t.done:
			return kept(e, sys, t.result)
		case <-ctx.Done():
			return kept(e, sys, nil)
		}
	}
}

// kept makes sure what the chat recorded is on disk before it ends; when
// it cannot be (a full disk), it says so, and the chat fails: it is not
// reported as kept.
func kept(e *env, sys *agent.System, result error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := e.noLog
	if err == nil {
		err = sys.SyncLog(ctx)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "deckhand: this conversation was NOT kept in the log: %s\n", clean.Text(err.Error()))
		return &silentError{code: exitFailure}
	}
	return result
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
	fmt.Fprintf(&b, "Resuming %q (%d runs, last active %s)\n", s.Title, s.Runs, s.Updated.Local().Format("2006-01-02 15:04"))
	// The last exchange, so the person knows where they are.
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == "user" {
			fmt.Fprintf(&b, "  you: %s\n", shorten(firstLine(history[i].Content), 100))
			for _, m := range history[i+1:] {
				if m.Role == "assistant" && m.Content != "" {
					fmt.Fprintf(&b, "  model: %s\n", shorten(firstLine(m.Content), 100))
				}
			}
			break
		}
	}
	return opts, b.String(), nil
}
