package terminal

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors"
	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/actors/writer"
	"deckhand/approval"
	"deckhand/clean"
	"deckhand/tools"
	"deckhand/transcript"
)

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

// chat is the user actor of `deckhand chat`: it prints the
// conversation's events as they come and turns typed lines into messages,
// commands and approval answers. All printing happens here, on the actor's
// goroutine, so that lines never interleave.
type chat struct {
	sys *actors.System
	// resultFile is where a cut result is kept whole (store.KeepResult),
	// "" with no log.
	resultFile     func(conv, run, call string) string
	conv           *actor.PID
	convID         string
	approve        Approve
	interactive    bool
	oneShot        bool
	color          bool
	stdout, stderr io.Writer
	info           io.Writer // where tool activity and notices go: stdout, or stderr for -p

	// connecting are the servers that were still connecting when the chat
	// began; each is announced once it is ready or has failed. True: its
	// tools were offered from its last connection meanwhile.
	connecting map[string]bool

	progress ProgressGate // when each call's progress was last printed

	pending  []*conversation.ApprovalRequested
	running  bool
	sent     int // messages sent whose run has not finished
	commands int // :mcp commands still working
	closing  bool
	midLine  bool // streamed text has not ended with a newline
	result   error
	done     chan struct{}

	// waiting is the run that waits to ask the model again after a
	// refusal (a retry's Notice), until the try goes: an empty line
	// (Enter) sends it now (conversation.RetryNow).
	waiting    string
	waitingTry int // the try it waits for, which Enter asks for

	// resources are attached to the next message (:attach; resources.go);
	// held are lines typed while one is being read, taken in turn after.
	resources []*chatResource
	attaching int
	held      []string

	elicit elicitState // servers' questions (elicit.go)

	// logFailing: the log cannot be written (a full disk); nothing said
	// meanwhile is kept until it can.
	logFailing bool

	catalog *tools.Catalog // the tools as they are, for their views (appview.go)
}

func (t *chat) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *chatReady:
		t.conv, t.convID = m.conv, m.id
		if t.sys != nil {
			c.Send(t.sys.Registry, &servers.WatchCatalog{PID: c.Self()})
		}
	case *servers.CatalogChanged:
		t.catalog = m.Catalog
	case *inputLine:
		t.input(c, m.text)
	case *inputClosed:
		t.closing = true
		t.maybeQuit()
	case *interrupted:
		if t.running {
			c.Send(t.conv, &conversation.StopRun{})
			return
		}
		t.quit(nil)
	case *showPrompt:
		t.prompt()
	case *printOut:
		t.commands--
		t.endLine()
		fmt.Fprint(t.info, clean.Text(m.text))
		if !t.maybeQuit() {
			t.prompt()
		}

	case *conversation.RunStarted:
		t.running = true
	case *conversation.RunQueued:
		t.note(fmt.Sprintf("(queued: %q runs after the current answer)", Shorten(m.Text, 40)))
	case *conversation.AssistantDelta:
		if m.Reasoning != "" && !t.oneShot {
			fmt.Fprint(t.stdout, t.paint(dim, m.Reasoning))
			t.midLine = !strings.HasSuffix(m.Reasoning, "\n")
		}
		if m.Text != "" {
			fmt.Fprint(t.stdout, clean.Text(m.Text))
			t.midLine = !strings.HasSuffix(m.Text, "\n")
		}
	case *conversation.AssistantMessage:
		t.endLine()
	case *conversation.ToolCallStarted:
		t.endLine()
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, fmt.Sprintf("  ⚙ %s %s", m.Tool, Shorten(string(m.Arguments), 200))))
	case *conversation.ToolCallProgress:
		if t.progress.Due(m.Run + "/" + m.Call) {
			fmt.Fprintf(t.info, "%s\n", t.paint(dim, "    … "+progressLine(m)))
		}
	case *conversation.ToolCallFinished:
		delete(t.progress, m.Run+"/"+m.Call)
		t.printResult(m)
	case *conversation.ApprovalRequested:
		t.approval(m)
	case *conversation.ApprovalClosed:
		for i, p := range t.pending {
			if p.ID == m.ID {
				t.pending = append(t.pending[:i], t.pending[i+1:]...)
				if !m.Reason.IsAnswered() {
					t.note(fmt.Sprintf("(approval for %s closed: %s; denied)", p.Request.Display, m.Reason))
				}
				if i == 0 && len(t.pending) > 0 {
					t.askNext()
				}
				break
			}
		}
	case *conversation.Notice:
		t.endLine()
		text := "! " + m.Text
		if m.Retry && t.interactive && !t.oneShot {
			t.waiting, t.waitingTry = m.Run, m.Try
			text += " (Enter: try now)"
		}
		fmt.Fprintf(t.info, "%s\n", t.paint(yellow, text))
	case *conversation.RetryStarted:
		if m.Run == t.waiting {
			t.waiting = ""
		}
	case *conversation.RunFinished:
		t.waiting = ""
		t.runFinished(m)
	case *writer.LogFailed:
		if !t.logFailing {
			t.endLine()
			fmt.Fprintf(t.stderr, "%s\n", t.paint(red, fmt.Sprintf("! the log cannot be written (%s): this conversation is NOT being kept; %d rows wait in memory and are written if room frees up before you quit", clean.Line(m.Err.Error()), m.Unsaved)))
		}
		t.logFailing = true
	case *writer.LogTampered:
		t.endLine()
		fmt.Fprintf(t.stderr, "%s\n", t.paint(red, "! warning: "+clean.Line(m.Text())))
	case *writer.LogRecovered:
		t.logFailing = false
		t.note("(the log is written again: the conversation is kept)")
	case *conversation.ConversationFailed:
		t.endLine()
		kept := fmt.Sprintf("What was recorded is kept: deckhand chat --resume %s", t.convID)
		if t.logFailing {
			kept = "The log cannot be written, so it is not kept."
		}
		fmt.Fprintf(t.info, "%s\n", t.paint(red, fmt.Sprintf("error: %v. %s", m.Err, kept)))
		t.quit(m.Err)
	case *servers.ServerStatus:
		t.serverChanged(m)
	case *servers.ElicitationRequested, *servers.ElicitationClosed:
		t.elicitEvent(c, m) // a server's question (elicit.go)
	default:
		t.resourceEvent(c, m) // :attach and prompts (resources.go)
	}
}

// connectingOf is the set of servers still on their first connection, true
// for those whose tools are offered from their last connection meanwhile.
func connectingOf(list []servers.ServerStatus) map[string]bool {
	out := map[string]bool{}
	for _, s := range list {
		if !s.Settled() {
			out[s.Alias] = s.Tools > 0
		}
	}
	return out
}

// connectingLine names the servers still on their first connection: those
// whose tools are offered from their last connection (a call to one waits
// for it), and those whose tools join when they are ready.
func connectingLine(list []servers.ServerStatus) string {
	var cached, fresh []string
	for _, s := range list {
		switch {
		case s.Settled():
		case s.Tools > 0:
			cached = append(cached, s.Alias)
		default:
			fresh = append(fresh, s.Alias)
		}
	}
	var parts []string
	if len(cached) > 0 {
		parts = append(parts, strings.Join(cached, ", ")+" (tools offered from the last connection; a call waits for its server)")
	}
	if len(fresh) > 0 {
		parts = append(parts, strings.Join(fresh, ", ")+" (their tools join when ready)")
	}
	if len(parts) == 0 {
		return ""
	}
	return "connecting: " + strings.Join(parts, "; ")
}

// serverChanged announces a server that was connecting when the chat began,
// once it is ready (its tools join from the next request) or has failed.
func (t *chat) serverChanged(s *servers.ServerStatus) {
	cached, ok := t.connecting[s.Alias]
	if !ok || !s.Settled() {
		return
	}
	delete(t.connecting, s.Alias)
	t.endLine()
	if s.State == servers.StateReady && cached {
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, fmt.Sprintf("(%s is ready: %d %s)", s.Alias, s.Tools, plural(s.Tools, "tool", "tools"))))
		return
	}
	if s.State == servers.StateReady {
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, fmt.Sprintf("(%s is ready: %d %s, offered from the next request)", s.Alias, s.Tools, plural(s.Tools, "tool", "tools"))))
		return
	}
	fmt.Fprintf(t.info, "%s\n", t.paint(yellow, fmt.Sprintf("! %s: %s", s.Alias, StateText(*s))))
}

func (t *chat) input(c actor.Context, text string) {
	if t.attaching > 0 {
		t.held = append(t.held, text)
		return
	}
	if t.elicitInput(c, text) {
		return
	}
	if len(t.pending) > 0 {
		req := t.pending[0]
		ans := approval.ParseAnswer(text)
		t.pending = t.pending[1:]
		if ans.Allowed() {
			fmt.Fprintf(t.info, "%s\n", t.paint(dim, "  → "+ans.String()))
		} else {
			fmt.Fprintf(t.info, "%s\n", t.paint(dim, "  → denied"))
		}
		t.reply(req, ans, "")
		if len(t.pending) > 0 {
			t.askNext()
		}
		return
	}
	text = strings.TrimSpace(text)
	switch {
	case text == "" && t.waiting != "":
		c.Send(t.conv, &conversation.RetryNow{Conversation: t.convID, Run: t.waiting, Try: t.waitingTry})
		t.waiting = "" // once: the try goes
		t.note("(trying again now)")
	case text == "":
		t.prompt()
	case strings.HasPrefix(text, ":"):
		t.command(c, text)
	case isPromptLine(text):
		t.promptCommand(c, text) // a server's prompt (resources.go)
	default:
		t.sent++
		c.Send(t.conv, &conversation.UserMessage{Text: text, Attachments: t.takeAttached(c)})
	}
}

func (t *chat) printResult(m *conversation.ToolCallFinished) {
	t.endLine()
	mark, color := "  ✓", dim
	switch {
	case m.Denied:
		mark, color = "  ✗ denied:", yellow
	case m.IsError:
		mark, color = "  ✗", red
	}
	cut := transcript.CutNote(m.Cut)
	lines := resultLines(m.Output, cut != "")
	head := fmt.Sprintf("%s %s", mark, m.Tool)
	if m.Elapsed > 0 {
		head += fmt.Sprintf(" (%v)", m.Elapsed.Round(time.Millisecond))
	}
	if cut != "" {
		head += " · cut for the model" // as the window's card says
	}
	fmt.Fprintf(t.info, "%s\n", t.paint(color, head))
	if cut != "" {
		// How much the model saw of how much, before the result.
		fmt.Fprintf(t.info, "%s\n", t.paint(yellow, Indent(cut, "    ")))
		if m.Cut.Saved && t.resultFile != nil {
			if p := t.resultFile(m.Conversation, m.Run, m.Call); p != "" {
				fmt.Fprintf(t.info, "%s\n", t.paint(yellow, Indent("The whole result: "+p, "    ")))
			}
		}
	}
	fmt.Fprintf(t.info, "%s\n", t.paint(dim, Indent(strings.Join(lines, "\n"), "    ")))
	if hint := t.viewHint(m.Tool); hint != "" {
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, Indent(hint, "    ")))
	}
}

// resultLines are the lines of a result the chat shows: the first 12,
// then how many more; of a result the limit cut (cut), the marker where
// it was cut too, which the note above it points to.
func resultLines(output string, cut bool) []string {
	const shown = 12
	lines := strings.Split(strings.TrimRight(output, "\n"), "\n")
	if len(lines) <= shown {
		return lines
	}
	more := func(n int) string { return fmt.Sprintf("… (%d more lines)", n) }
	at := -1
	if cut {
		at = slices.IndexFunc(lines, func(l string) bool {
			return strings.HasPrefix(l, "[… ") && strings.Contains(l, " cut: the output was ")
		})
	}
	if at < shown {
		return append(lines[:shown:shown], more(len(lines)-shown))
	}
	out := append(lines[:shown:shown], more(at-shown), lines[at])
	if rest := len(lines) - at - 1; rest > 0 {
		out = append(out, more(rest))
	}
	return out
}

func (t *chat) runFinished(m *conversation.RunFinished) {
	t.running = false
	t.endLine()
	switch {
	case m.Stopped:
		t.note("(stopped)")
	case m.Err != nil:
		fmt.Fprintf(t.info, "%s\n", t.paint(red, "error: "+m.Err.Error()))
	}
	if m.Usage.TotalTokens > 0 && !t.oneShot {
		fmt.Fprintf(t.info, "%s\n", t.paint(dim, fmt.Sprintf("[%d tokens in, %d out, %d %s]", m.Usage.PromptTokens, m.Usage.CompletionTokens, m.Requests, plural(m.Requests, "request", "requests"))))
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
func (t *chat) maybeQuit() bool {
	if t.closing && t.sent <= 0 && t.commands == 0 && len(t.pending) == 0 && t.attaching == 0 && len(t.held) == 0 {
		t.quit(nil)
		return true
	}
	return false
}

func (t *chat) quit(err error) {
	select {
	case <-t.done:
	default:
		t.result = err
		if err != nil && t.oneShot {
			fmt.Fprintf(t.stderr, "deckhand: %s\n", clean.Text(err.Error()))
			t.result = &ReportedError{Err: err}
		}
		close(t.done)
	}
}

func (t *chat) prompt() {
	if !t.oneShot && t.interactive && t.sent <= 0 && len(t.pending) == 0 {
		fmt.Fprint(t.stdout, t.paint(bold, "> "))
	}
}

func (t *chat) note(s string) {
	t.endLine()
	fmt.Fprintf(t.info, "%s\n", t.paint(dim, s))
}

// endLine ends streamed text that stopped mid-line.
func (t *chat) endLine() {
	if t.midLine {
		fmt.Fprintln(t.stdout)
		t.midLine = false
	}
}

const (
	dim    = "2"
	red    = "31"
	yellow = "33"
	bold   = "1"
)

// paint colours untrusted text for the terminal: the text is cleaned first
// (package clean), so that the only escape sequences printed are its own.
func (t *chat) paint(code, s string) string {
	s = clean.Text(s)
	if !t.color || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func progressLine(m *conversation.ToolCallProgress) string {
	return ProgressText(&servers.ToolProgress{Progress: m.Progress})
}
