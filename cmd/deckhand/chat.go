package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"golang.org/x/term"

	"deckhand/actors"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/store"
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

const chatHelp = `Type a message and press Enter. While the model works you can type the next one (it waits its turn).
Approvals: [y]es once · [s]ession (this tool, until you quit) · [a]lways · [N]o (the default)

  :mcp list                   servers and their state
  :mcp tools [ALIAS]          tools, as alias.tool
  :mcp tool ALIAS.TOOL        one tool's whole definition
  :mcp connect URL [ALIAS]    add a server for this session (also: :mcp connect -- COMMAND ARGS...)
  :mcp disconnect ALIAS       remove a server
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
		return usagef("no model is configured in %s. Add, for example:\n\n[model]\nbase_url = \"http://127.0.0.1:11434/v1\"   # Ollama; llama.cpp is :8080, LM Studio :1234\nname = \"llama3.1\"\n# api_key_env = \"OPENAI_API_KEY\"          # for hosted APIs", cfg.Path)
	}
	db, err := e.openLog(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	e.logDB = db
	opts := actors.ConversationOptions{}
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
	sys := e.startSystem(cfg)
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
	sys.Root.Send(sys.Servers, &actors.WatchServers{PID: self})
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
		if len(t.connecting) > 0 {
			fmt.Fprintln(t.info, t.paint(dim, "connecting: "+strings.Join(slices.Sorted(maps.Keys(t.connecting)), ", ")+" (their tools join when ready)"))
		}
		sys.Root.Send(self, &inputLine{text: *prompt}) // counted in sent by input
		select {
		case <-t.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		return t.result
	}

	ready := 0
	for _, s := range list {
		if s.State == actors.StateReady || s.State == actors.StateIdle {
			ready++
		}
	}
	fmt.Fprintf(e.stdout, "Deckhand %s · model %s at %s · %d of %d servers ready · :help for commands\n", version, cfg.Model.Name, cfg.Model.BaseURL, ready, len(list))
	if len(t.connecting) > 0 {
		fmt.Fprintln(e.stdout, t.paint(dim, "connecting: "+strings.Join(slices.Sorted(maps.Keys(t.connecting)), ", ")+" (their tools join when ready)"))
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
			return t.result
		case <-ctx.Done():
			return nil
		}
	}
}

// isTerminal reports whether r is a terminal (not merely a character
// device: /dev/null is one too).
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Messages to the terminal actor.
type (
	chatReady struct {
		conv *actor.PID
		id   string
	}
	inputLine   struct{ text string }
	inputClosed struct{}
	interrupted struct{}
	showPrompt  struct{}
	printOut    struct{ text string }
)

// terminal is the user actor of `deckhand chat`: it prints the
// conversation's events as they come and turns typed lines into messages,
// commands and approval answers. All printing happens here, on the actor's
// goroutine, so that lines never interleave.
type terminal struct {
	e           *env
	sys         *actors.System
	conv        *actor.PID
	convID      string
	mode        string
	interactive bool
	oneShot     bool
	color       bool
	info        io.Writer // where tool activity and notices go

	// connecting are the servers that were still connecting when the chat
	// began; each is announced once it is ready or has failed.
	connecting map[string]bool

	pending  []*actors.ApprovalRequested
	running  bool
	sent     int // messages sent whose run has not finished
	commands int // :mcp commands still working
	closing  bool
	midLine  bool // streamed text has not ended with a newline
	result   error
	done     chan struct{}
}

func (t *terminal) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *chatReady:
		t.conv, t.convID = m.conv, m.id
	case *inputLine:
		t.input(c, m.text)
	case *inputClosed:
		t.closing = true
		t.maybeQuit()
	case *interrupted:
		if t.running {
			c.Send(t.conv, &actors.StopRun{})
			return
		}
		t.quit(nil)
	case *showPrompt:
		t.prompt()
	case *printOut:
		t.commands--
		t.endLine()
		fmt.Fprint(t.info, m.text)
		if !t.maybeQuit() {
			t.prompt()
		}

	case *actors.RunStarted:
		t.running = true
	case *actors.RunQueued:
		t.note(fmt.Sprintf("(queued: %q runs after the current answer)", shorten(m.Text, 40)))
	case *actors.AssistantDelta:
		if m.Reasoning != "" && !t.oneShot {
			fmt.Fprint(t.e.stdout, t.paint(dim, m.Reasoning))
			t.midLine = !strings.HasSuffix(m.Reasoning, "\n")
		}
		if m.Text != "" {
			fmt.Fprint(t.e.stdout, m.Text)
			t.midLine = !strings.HasSuffix(m.Text, "\n")
		}
	case *actors.AssistantMessage:
		t.endLine()
	case *actors.ToolCallStarted:
		t.endLine()
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, fmt.Sprintf("  ⚙ %s %s", m.Tool, shorten(string(m.Arguments), 200))))
	case *actors.ToolCallProgress:
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, "    … "+progressLine(m)))
	case *actors.ToolCallFinished:
		t.printResult(m)
	case *actors.ApprovalRequested:
		t.approval(c, m)
	case *actors.ApprovalClosed:
		for i, p := range t.pending {
			if p.ID == m.ID {
				t.pending = append(t.pending[:i], t.pending[i+1:]...)
				if m.Reason != "answered" {
					t.note(fmt.Sprintf("(approval for %s closed: %s; denied)", p.Request.Display, m.Reason))
				}
				if i == 0 && len(t.pending) > 0 {
					t.askNext()
				}
				break
			}
		}
	case *actors.Notice:
		t.endLine()
		fmt.Fprintf(t.info, "%s\n", t.paint(yellow, "! "+m.Text))
	case *actors.RunFinished:
		t.runFinished(m)
	case *actors.ConversationFailed:
		t.endLine()
		fmt.Fprintf(t.info, "%s\n", t.paint(red, fmt.Sprintf("error: %v. What was recorded is kept: deckhand chat --resume %s", m.Err, t.convID)))
		t.quit(m.Err)
	case *actors.ServerStatus:
		t.serverChanged(m)
	}
}

// connectingOf is the set of servers still on their first connection.
func connectingOf(list []actors.ServerStatus) map[string]bool {
	out := map[string]bool{}
	for _, s := range list {
		if !s.Settled() {
			out[s.Alias] = true
		}
	}
	return out
}

// serverChanged announces a server that was connecting when the chat began,
// once it is ready (its tools join from the next request) or has failed.
func (t *terminal) serverChanged(s *actors.ServerStatus) {
	if !t.connecting[s.Alias] || !s.Settled() {
		return
	}
	delete(t.connecting, s.Alias)
	t.endLine()
	if s.State == actors.StateReady {
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, fmt.Sprintf("(%s is ready: %d tools, offered from the next request)", s.Alias, s.Tools)))
		return
	}
	fmt.Fprintf(t.info, "%s\n", t.paint(yellow, fmt.Sprintf("! %s: %s", s.Alias, stateText(*s))))
}

func (t *terminal) input(c actor.Context, text string) {
	if len(t.pending) > 0 {
		req := t.pending[0]
		ans := approval.ParseAnswer(text)
		c.Send(t.conv, &actors.ApprovalAnswer{ID: req.ID, Answer: ans})
		t.pending = t.pending[1:]
		if ans.Allowed() {
			fmt.Fprintf(t.info, "%s\n", t.paint(dim, "  → "+ans.String()))
		} else {
			fmt.Fprintf(t.info, "%s\n", t.paint(dim, "  → denied"))
		}
		if len(t.pending) > 0 {
			t.askNext()
		}
		return
	}
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		t.prompt()
	case strings.HasPrefix(text, ":"):
		t.command(c, text)
	default:
		t.sent++
		c.Send(t.conv, &actors.UserMessage{Text: text})
	}
}

func (t *terminal) command(c actor.Context, line string) {
	fields := strings.Fields(line)
	root, self := c.ActorSystem().Root, c.Self()
	later := func(f func(ctx context.Context) string) {
		t.commands++
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			root.Send(self, &printOut{text: f(ctx)})
		}()
	}
	switch {
	case fields[0] == ":quit" || fields[0] == ":q" || fields[0] == ":exit":
		if t.running {
			c.Send(t.conv, &actors.StopRun{})
		}
		t.quit(nil)
	case fields[0] == ":help" || fields[0] == ":h":
		fmt.Fprint(t.info, chatHelp)
		t.prompt()
	case fields[0] == ":stop":
		if t.running {
			c.Send(t.conv, &actors.StopRun{})
		} else {
			t.note("(nothing to stop)")
			t.prompt()
		}
	case fields[0] == ":mcp" && len(fields) >= 2:
		later(func(ctx context.Context) string { return t.mcpCommand(ctx, fields[1], fields[2:]) })
	default:
		t.note(fmt.Sprintf("unknown command %q: :help lists them", fields[0]))
		t.prompt()
	}
}

// mcpCommand runs a :mcp command and returns what to print.
func (t *terminal) mcpCommand(ctx context.Context, sub string, args []string) string {
	var b strings.Builder
	switch sub {
	case "list":
		list, err := t.sys.ServerStatuses(ctx, false)
		if err != nil {
			return err.Error() + "\n"
		}
		if len(list) == 0 {
			return "No MCP servers. Add one with :mcp connect URL [ALIAS].\n"
		}
		printStatuses(&b, list)
	case "tools":
		cat, err := t.sys.Catalog(ctx)
		if err != nil {
			return err.Error() + "\n"
		}
		for _, tool := range cat.Tools() {
			if len(args) == 0 || tool.Server == args[0] {
				fmt.Fprintf(&b, "%-40s %s\n", tool.Display, shorten(firstLine(tool.Def.Description), 80))
			}
		}
		if b.Len() == 0 {
			return "No tools.\n"
		}
	case "tool":
		if len(args) != 1 {
			return "usage: :mcp tool ALIAS.TOOL\n"
		}
		cat, err := t.sys.Catalog(ctx)
		if err != nil {
			return err.Error() + "\n"
		}
		tool, ok := cat.Lookup(args[0])
		if !ok {
			return fmt.Sprintf("unknown tool %q\n", args[0])
		}
		fmt.Fprintf(&b, "%s (wire name %s)\n%s\n", tool.Display, tool.Wire, strings.TrimSpace(tool.Def.Description))
		printSchema(&b, "input schema", tool.Def.InputSchema)
		printSchema(&b, "output schema", tool.Def.OutputSchema)
	case "connect":
		return t.connect(ctx, args)
	case "disconnect":
		if len(args) != 1 {
			return "usage: :mcp disconnect ALIAS\n"
		}
		if err := t.sys.RemoveServer(ctx, args[0]); err != nil {
			return err.Error() + "\n"
		}
		return fmt.Sprintf("Disconnected %s.\n", args[0])
	default:
		return fmt.Sprintf("unknown :mcp command %q: :help lists them\n", sub)
	}
	return b.String()
}

// connect handles ":mcp connect URL [ALIAS]" and ":mcp connect -- COMMAND ARGS...".
func (t *terminal) connect(ctx context.Context, args []string) string {
	var srv config.Server
	alias := ""
	switch {
	case len(args) >= 2 && args[0] == "--":
		srv = config.Server{Command: args[1], Args: args[2:]}
	case len(args) == 1 || len(args) == 2:
		if u, err := url.Parse(args[0]); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return "usage: :mcp connect URL [ALIAS], or :mcp connect -- COMMAND ARGS...\n"
		}
		srv = config.Server{URL: args[0]}
		if len(args) == 2 {
			alias = args[1]
		}
	default:
		return "usage: :mcp connect URL [ALIAS], or :mcp connect -- COMMAND ARGS...\n"
	}
	if alias == "" {
		alias = config.DeriveAlias(srv)
	}
	if err := config.CheckServer(alias, srv); err != nil {
		return err.Error() + "\n"
	}
	if err := t.sys.AddServer(ctx, alias, srv); err != nil {
		return err.Error() + "\n"
	}
	for {
		list, err := t.sys.ServerStatuses(ctx, false)
		if err != nil {
			return err.Error() + "\n"
		}
		for _, s := range list {
			if s.Alias != alias || !s.Settled() {
				continue
			}
			if s.State != actors.StateReady {
				t.sys.RemoveServer(ctx, alias)
				return fmt.Sprintf("%s: %s\n", alias, stateText(s))
			}
			return fmt.Sprintf("Connected %s over %s: %d tools (for this session; deckhand mcp connect --save keeps it).\n", alias, s.Transport, s.Tools)
		}
		select {
		case <-ctx.Done():
			return fmt.Sprintf("%s: still connecting\n", alias)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (t *terminal) approval(c actor.Context, m *actors.ApprovalRequested) {
	switch {
	case t.mode == "auto":
		c.Send(t.conv, &actors.ApprovalAnswer{ID: m.ID, Answer: approval.AllowOnce, Reason: "--approve=auto"})
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, "  ✓ "+m.Request.Display+" allowed (--approve=auto)"))
	case t.mode == "deny":
		c.Send(t.conv, &actors.ApprovalAnswer{ID: m.ID, Answer: approval.Deny, Reason: "the user runs with --approve=deny"})
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, "  ✗ "+m.Request.Display+" denied (--approve=deny)"))
	case !t.interactive:
		c.Send(t.conv, &actors.ApprovalAnswer{ID: m.ID, Answer: approval.Deny, Reason: "no terminal to ask the user; run with --approve=auto to allow"})
		fmt.Fprintf(t.info, "%s\n", t.paint(yellow, "  ✗ "+m.Request.Display+" denied: no terminal to ask for approval (use --approve=auto)"))
	default:
		t.pending = append(t.pending, m)
		if len(t.pending) == 1 {
			t.askNext()
		}
	}
}

// askNext shows the first pending approval.
func (t *terminal) askNext() {
	m := t.pending[0]
	r := m.Request
	t.endLine()
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n", t.paint(bold, fmt.Sprintf("Allow %s?", r.Display)))
	if r.Title != "" {
		fmt.Fprintf(&b, "  %s\n", r.Title)
	}
	if r.Description != "" {
		fmt.Fprintf(&b, "  %s\n", shorten(firstLine(r.Description), 160))
	}
	if a := r.Annotations; a != nil {
		var hints []string
		if a.ReadOnlyHint {
			hints = append(hints, "read-only")
		}
		if a.DestructiveHint != nil && *a.DestructiveHint {
			hints = append(hints, "destructive")
		}
		if a.IdempotentHint {
			hints = append(hints, "idempotent")
		}
		if a.OpenWorldHint != nil && *a.OpenWorldHint {
			hints = append(hints, "reaches the outside world")
		}
		if len(hints) > 0 {
			label := "hints from an untrusted server"
			if r.Trusted {
				label = "the server says (trusted)"
			}
			fmt.Fprintf(&b, "  %s: %s\n", label, strings.Join(hints, ", "))
		}
	}
	fmt.Fprintf(&b, "  arguments:\n%s\n", indent(tools.PrettyJSON(r.Arguments), "    "))
	fmt.Fprintf(&b, "[y]es once / [s]ession / [a]lways / [N]o (%v left): ", time.Until(m.Deadline).Round(time.Second))
	fmt.Fprint(t.info, b.String())
}

func (t *terminal) printResult(m *actors.ToolCallFinished) {
	t.endLine()
	mark, color := "  ✓", dim
	switch {
	case m.Denied:
		mark, color = "  ✗ denied:", yellow
	case m.IsError:
		mark, color = "  ✗", red
	}
	body := m.Output
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	if len(lines) > 12 {
		lines = append(lines[:12], fmt.Sprintf("… (%d more lines)", len(lines)-12))
	}
	head := fmt.Sprintf("%s %s", mark, m.Tool)
	if m.Elapsed > 0 {
		head += fmt.Sprintf(" (%v)", m.Elapsed.Round(time.Millisecond))
	}
	fmt.Fprintf(t.info, "%s\n%s\n", t.paint(color, head), t.paint(dim, indent(strings.Join(lines, "\n"), "    ")))
}

func (t *terminal) runFinished(m *actors.RunFinished) {
	t.running = false
	t.endLine()
	switch {
	case m.Stopped:
		t.note("(stopped)")
	case m.Err != nil:
		fmt.Fprintf(t.info, "%s\n", t.paint(red, "error: "+m.Err.Error()))
	}
	if m.Usage.TotalTokens > 0 && !t.oneShot {
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, fmt.Sprintf("[%d tokens in, %d out, %d requests]", m.Usage.PromptTokens, m.Usage.CompletionTokens, m.Requests)))
	}
	t.sent--
	if t.oneShot {
		t.quit(m.Err)
		return
	}
	if t.sent > 0 || t.maybeQuit() {
		return // the next message runs now
	}
	t.prompt()
}

// maybeQuit ends a chat whose input is closed once nothing is left to do.
func (t *terminal) maybeQuit() bool {
	if t.closing && t.sent <= 0 && t.commands == 0 && len(t.pending) == 0 {
		t.quit(nil)
		return true
	}
	return false
}

func (t *terminal) quit(err error) {
	select {
	case <-t.done:
	default:
		t.result = err
		if err != nil && t.oneShot {
			t.result = &silentError{code: exitFailure}
			fmt.Fprintf(t.e.stderr, "deckhand: %v\n", err)
		}
		close(t.done)
	}
}

func (t *terminal) prompt() {
	if !t.oneShot && t.interactive && t.sent <= 0 && len(t.pending) == 0 {
		fmt.Fprint(t.e.stdout, t.paint(bold, "> "))
	}
}

func (t *terminal) note(s string) {
	t.endLine()
	fmt.Fprintf(t.info, "%s\n", t.paint(dim, s))
}

// endLine ends streamed text that stopped mid-line.
func (t *terminal) endLine() {
	if t.midLine {
		fmt.Fprintln(t.e.stdout)
		t.midLine = false
	}
}

const (
	dim    = "2"
	red    = "31"
	yellow = "33"
	bold   = "1"
)

func (t *terminal) paint(code, s string) string {
	if !t.color || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func progressLine(m *actors.ToolCallProgress) string {
	return progressText(&actors.ToolProgress{Progress: m.Progress})
}

// resumeOptions rebuilds a past session for chat --resume, and a recap of
// where it stopped.
func resumeOptions(ctx context.Context, db *store.DB, id string) (actors.ConversationOptions, string, error) {
	s, err := db.Session(ctx, id)
	if err != nil {
		return actors.ConversationOptions{}, "", err
	}
	events, err := db.Events(ctx, store.Filter{SessionID: s.ID})
	if err != nil {
		return actors.ConversationOptions{}, "", err
	}
	opts := actors.Rebuild(events)
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
