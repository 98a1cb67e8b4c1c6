// Package export writes a chat out of the log as a document a person can
// keep or share: Markdown, or JSON for programs. It holds what the person
// saw (the version of each message shown, as replay reads it): each
// message, each answer with the model that wrote it, each tool call with its
// arguments and result (the model's, and those a tool's view made, marked
// so, where the chat shows them), and the tokens and cost; and it says so when the
// session's record was changed outside Deckhand (its chain is broken), or
// events or other versions of messages were left out.
//
// Its functions are pure (what they write depends on the Chat alone) and
// safe anywhere.
package export

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"deckhand/replay"
	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/tools"
)

// Chat is one session, read for export.
type Chat struct {
	ID, Title, Model string
	Created, Updated time.Time
	Usage            store.Usage
	// Broken says how the session's chain is broken ("": intact).
	Broken string
	// Left is how many events were left out as not Deckhand's.
	Left int
	Runs []replay.Run
	// Views are the calls tools' views made (MCP Apps): no run's, and
	// written where the chat shows them (viewsAt).
	Views []replay.ViewCall
}

// Read reads a session's events (and its chain's breaks, from
// store.DB.VerifySession) for export.
func Read(s store.Session, events []store.Event, breaks []store.Break) Chat {
	r := replay.Read(events)
	c := Chat{ID: s.ID, Title: s.Title, Model: s.Model, Created: s.Created, Updated: s.Updated, Usage: s.Usage, Left: r.Left, Runs: r.Runs, Views: r.Views}
	if len(breaks) > 0 {
		c.Broken = store.Tampered(breaks)
	}
	return c
}

// Formats.
const (
	Markdown = "markdown"
	JSON     = "json"
)

// ErrFormat is the error for a format Write does not know.
var ErrFormat = fmt.Errorf("unknown format: want %q or %q", Markdown, JSON)

// Write writes c in format.
func Write(w io.Writer, c Chat, format string) error {
	switch format {
	case Markdown, "md":
		return WriteMarkdown(w, c)
	case JSON:
		return WriteJSON(w, c)
	}
	return fmt.Errorf("%q: %w", format, ErrFormat)
}

// OtherVersions counts the versions of the chat's messages other than
// those shown (Edit and Retry keep the old ones): an export holds the
// versions shown, and says how many it leaves out.
func (c Chat) OtherVersions() int {
	n := 0
	for _, r := range c.Runs {
		n += max(len(r.Versions)-1, 0)
	}
	return n
}

// versionsLeft says n other versions.
func versionsLeft(n int) string {
	if n == 1 {
		return "1 other version of a message is"
	}
	return fmt.Sprintf("%d other versions of messages are", n)
}

// modelOf is the model of a run, the session's when its log did not say.
func (c Chat) modelOf(r replay.Run) string {
	if r.Model != "" {
		return r.Model
	}
	return c.Model
}

// WriteMarkdown writes c as Markdown. What the person and the tools wrote
// cannot change the document's structure: the person's messages are
// quoted, tool arguments and results are fenced with more backticks than
// they hold, a title's Markdown is escaped, and an answer left with a
// code block open (cut off) has it closed.
func WriteMarkdown(w io.Writer, c Chat) error {
	var b strings.Builder
	title := c.Title
	if strings.TrimSpace(title) == "" {
		title = "Untitled chat"
	}
	fmt.Fprintf(&b, "# %s\n\n", inline(title))
	if c.Broken != "" {
		fmt.Fprintf(&b, "> **Warning:** %s.\n\n", inline(c.Broken))
	}
	if c.Left > 0 {
		fmt.Fprintf(&b, "> **Warning:** %d %s of this session %s not written by Deckhand and %s left out.\n\n", c.Left, plural(c.Left, "event", "events"), plural(c.Left, "was", "were"), plural(c.Left, "is", "are"))
	}
	fmt.Fprintf(&b, "- Session: `%s`\n", code(c.ID))
	if c.Model != "" {
		fmt.Fprintf(&b, "- Model: %s\n", inline(c.Model))
	}
	if !c.Created.IsZero() {
		fmt.Fprintf(&b, "- Started: %s\n", c.Created.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(&b, "- Tokens: %d in, %d out%s\n", c.Usage.InputTokens, c.Usage.OutputTokens, estimated(c.Usage.Estimated))
	if c.Usage.CostUSD > 0 {
		fmt.Fprintf(&b, "- Cost: $%.4f\n", c.Usage.CostUSD)
	}
	if n := c.OtherVersions(); n > 0 {
		fmt.Fprintf(&b, "- Versions: only the version of each message shown in Deckhand; %s not in this file (the log keeps them; ‹ › on a message in Deckhand shows them)\n", versionsLeft(n))
	}
	views := c.viewsAt()
	viewCallsMarkdown(&b, views.before)
	for _, r := range c.Runs {
		fmt.Fprintf(&b, "\n## You\n\n%s\n", quote(r.Text))
		// One heading for the turn's answer, however many steps (a tool
		// call, then the text) it took, as Deckhand shows one answer.
		headed := false
		at := views.runs[r.ID]
		for i, st := range r.Steps {
			viewCallsMarkdown(&b, at.steps[i])
			if n := st.Notice; n != nil {
				fmt.Fprintf(&b, "\n> *Note:* %s\n", inline(n.Text))
				continue
			}
			a := st.Answer
			if !headed {
				headed = true
				fmt.Fprintf(&b, "\n## Deckhand")
				if m := c.modelOf(r); m != "" {
					fmt.Fprintf(&b, " (%s)", inline(m))
				}
				b.WriteString("\n")
			}
			if a.Text != "" {
				b.WriteString("\n")
				b.WriteString(closeFences(strings.TrimRight(a.Text, "\n")))
				b.WriteString("\n")
			}
			if a.Partial {
				b.WriteString("\n*(cut off)*\n")
			}
			for _, call := range a.Calls {
				fmt.Fprintf(&b, "\n### Tool call `%s`: %s\n\n", code(call.Tool), heading(call))
				args := string(call.Arguments)
				if args == "" {
					args = "{}"
				}
				fmt.Fprintf(&b, "Arguments:\n\n%s\n", fenced(tools.PrettyArgs(json.RawMessage(args)), "json"))
				fmt.Fprintf(&b, "\nResult:\n\n%s\n", fenced(call.Result(), ""))
			}
		}
		viewCallsMarkdown(&b, at.steps[len(r.Steps)])
		if e := r.End; e.Status != store.RunSucceeded {
			fmt.Fprintf(&b, "\n> *Run %s*", e.Status)
			if e.Error != "" {
				fmt.Fprintf(&b, ": %s", inline(e.Error))
			}
			b.WriteString("\n")
		}
		if r.End.InputTokens+r.End.OutputTokens > 0 || r.End.CostUSD > 0 {
			fmt.Fprintf(&b, "\n*%d tokens in, %d out", r.End.InputTokens, r.End.OutputTokens)
			if r.End.CostUSD > 0 {
				fmt.Fprintf(&b, ", $%.4f", r.End.CostUSD)
			}
			b.WriteString("*\n")
		}
		viewCallsMarkdown(&b, at.after)
	}
	viewCallsMarkdown(&b, views.rest)
	_, err := io.WriteString(w, b.String())
	return err
}

// viewCallsMarkdown writes calls a tool's view made, each said to be the
// view's, not the model's (as its card in the chat says).
func viewCallsMarkdown(b *strings.Builder, calls []replay.ViewCall) {
	for _, v := range calls {
		fmt.Fprintf(b, "\n### Tool call `%s` from %s, not by the model: %s\n\n", code(v.Tool), inline(v.Origin), viewHeading(v))
		args := string(v.Arguments)
		if args == "" {
			args = "{}"
		}
		fmt.Fprintf(b, "Arguments:\n\n%s\n", fenced(tools.PrettyArgs(json.RawMessage(args)), "json"))
		fmt.Fprintf(b, "\nResult:\n\n%s\n", fenced(v.Output, ""))
	}
}

// viewPlaces are a chat's views' calls by where the chat shows them
// (package transcript's FromEvents places them alike).
type viewPlaces struct {
	before []replay.ViewCall // made before any run
	runs   map[string]runViews
	rest   []replay.ViewCall // after a run not shown (another version's): last
}

// runViews are the views' calls made during and after one run.
type runViews struct {
	// steps[i] were made before the run's step i; steps[len(Steps)] after
	// its last step, while it went on.
	steps map[int][]replay.ViewCall
	after []replay.ViewCall // made after it ended
}

// viewsAt places the chat's views' calls.
func (c Chat) viewsAt() viewPlaces {
	p := viewPlaces{runs: map[string]runViews{}}
	steps := map[string]int{}
	for _, r := range c.Runs {
		p.runs[r.ID] = runViews{steps: map[int][]replay.ViewCall{}}
		steps[r.ID] = len(r.Steps)
	}
	for _, v := range c.Views {
		rv, shown := p.runs[v.After]
		switch {
		case v.After == "":
			p.before = append(p.before, v)
		case !shown:
			p.rest = append(p.rest, v)
		case v.Step < 0:
			rv.after = append(rv.after, v)
			p.runs[v.After] = rv
		default:
			i := min(v.Step, steps[v.After])
			rv.steps[i] = append(rv.steps[i], v)
		}
	}
	return p
}

func viewOutcome(v replay.ViewCall) string {
	switch {
	case v.Denied:
		return "denied"
	case v.Refused:
		return "refused"
	case v.IsError:
		return "failed"
	}
	return "done"
}

func estimated(yes bool) string {
	if yes {
		return " (estimated)"
	}
	return ""
}

func outcome(c *replay.Call) string {
	switch {
	case c.Outcome == replay.NeverStarted:
		return "not run"
	case c.Outcome == replay.Unknown:
		return "outcome unknown"
	case c.Denied:
		return "denied"
	case c.Refused:
		return "refused"
	case c.IsError:
		return "failed"
	}
	return "done"
}

// refusedWhy is why Deckhand refused a call of a tool it keeps from the
// model (quarantined, unchecked, ...), in the person's words, as its card
// says; "" for any other call.
func refusedWhy(c *replay.Call) string {
	if !c.Refused {
		return ""
	}
	if w, ok := toolcall.WithheldIn(c.Output); ok {
		return w.Why()
	}
	return ""
}

// viewWhy is refusedWhy of a view's call.
func viewWhy(v replay.ViewCall) string {
	if w, ok := toolcall.WithheldIn(v.Output); ok && v.Refused {
		return w.Why()
	}
	return ""
}

// viewHeading is a view's call's outcome for its Markdown heading, with
// why as heading's.
func viewHeading(v replay.ViewCall) string {
	if why := viewWhy(v); why != "" {
		return viewOutcome(v) + ": " + inline(why)
	}
	return viewOutcome(v)
}

// heading is a call's outcome for its Markdown heading: with why, when
// Deckhand refused it for a reason the person can act on.
func heading(c *replay.Call) string {
	if why := refusedWhy(c); why != "" {
		return outcome(c) + ": " + inline(why)
	}
	return outcome(c)
}

// fenced puts text in a fenced block no run of backticks in it can close.
func fenced(text, lang string) string {
	f := tools.Fence(text, 3)
	return f + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + f
}

// quote is the person's words as a block quote: whatever Markdown they
// hold stays inside it.
func quote(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return closeFences(strings.Join(lines, "\n"))
}

// inline escapes what would be read as Markdown within a line (it never
// begins one: - + . and ! mean something only there, or before a [,
// and a model named gpt\-4o reads badly in the file itself).
func inline(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>()#|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// code is text for a code span of one backtick.
func code(s string) string { return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "`", "'") }

// closeFences closes a code fence text leaves open (an answer cut off in
// a code block), so that the rest of the document is not read as code.
func closeFences(text string) string {
	open := ""
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimLeft(strings.TrimPrefix(line, ">"), " ")
		run := fenceRun(l)
		switch {
		case run == "":
		case open == "":
			open = run
		case strings.HasPrefix(run, open[:1]) && len(run) >= len(open) && strings.TrimSpace(l[len(run):]) == "":
			open = ""
		}
	}
	if open == "" {
		return text
	}
	prefix := ""
	if strings.HasPrefix(text, ">") {
		prefix = "> "
	}
	return text + "\n" + prefix + open
}

// fenceRun is the run of three or more backticks or tildes a line begins
// with, or "".
func fenceRun(l string) string {
	if len(l) < 3 || (l[0] != '`' && l[0] != '~') {
		return ""
	}
	n := 0
	for n < len(l) && l[n] == l[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return l[:n]
}

// The JSON export.
type (
	chatJSON struct {
		ID           string    `json:"id"`
		Title        string    `json:"title"`
		Model        string    `json:"model"`
		Created      time.Time `json:"created"`
		LastActivity time.Time `json:"last_activity"`
		InputTokens  int       `json:"input_tokens"`
		OutputTokens int       `json:"output_tokens"`
		CostUSD      float64   `json:"cost_usd"`
		Estimated    bool      `json:"estimated"`
		ChainBroken  string    `json:"chain_broken,omitempty"`
		LeftOut      int       `json:"events_left_out,omitempty"`
		// OtherVersions: versions of messages not shown, so not here.
		OtherVersions int       `json:"other_versions_left_out,omitempty"`
		Messages      []msgJSON `json:"messages"`
	}
	msgJSON struct {
		// user, assistant, notice, or view: a tool's view's call (its
		// tool_calls' origin says which view), not the model's
		Role         string     `json:"role"`
		Text         string     `json:"text"`
		Time         time.Time  `json:"time"`
		Run          string     `json:"run"`
		Model        string     `json:"model,omitempty"`
		Partial      bool       `json:"partial,omitempty"`
		InputTokens  int        `json:"input_tokens,omitempty"`
		OutputTokens int        `json:"output_tokens,omitempty"`
		ToolCalls    []callJSON `json:"tool_calls,omitempty"`
		// On the person's message: how the run ended, and its usage.
		Status  string  `json:"status,omitempty"`
		Error   string  `json:"error,omitempty"`
		CostUSD float64 `json:"cost_usd,omitempty"`
	}
	callJSON struct {
		ID        string          `json:"id"`
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
		Outcome   string          `json:"outcome"`
		// Why: why Deckhand refused the call (Outcome "refused") of a
		// tool it keeps from the model, in the person's words.
		Why       string `json:"why,omitempty"`
		Result    string `json:"result"`
		ElapsedMS int64  `json:"elapsed_ms"`
		// Origin: who made the call when not the model ("the view of
		// server.tool").
		Origin string `json:"origin,omitempty"`
	}
)

// WriteJSON writes c as one JSON object.
func WriteJSON(w io.Writer, c Chat) error {
	out := chatJSON{ID: c.ID, Title: c.Title, Model: c.Model, Created: c.Created, LastActivity: c.Updated,
		InputTokens: c.Usage.InputTokens, OutputTokens: c.Usage.OutputTokens, CostUSD: c.Usage.CostUSD, Estimated: c.Usage.Estimated,
		ChainBroken: c.Broken, LeftOut: c.Left, OtherVersions: c.OtherVersions(), Messages: []msgJSON{}}
	views := c.viewsAt()
	viewCallsJSON := func(calls []replay.ViewCall, run string) {
		for _, v := range calls {
			out.Messages = append(out.Messages, msgJSON{Role: "view", Time: v.Time, Run: run, ToolCalls: []callJSON{
				{ID: v.ID, Tool: v.Tool, Arguments: jsonArgs(v.Arguments), Outcome: viewOutcome(v), Why: viewWhy(v), Result: v.Output, Origin: v.Origin}}})
		}
	}
	viewCallsJSON(views.before, "")
	for _, r := range c.Runs {
		at := views.runs[r.ID]
		out.Messages = append(out.Messages, msgJSON{Role: "user", Text: r.Text, Time: r.Time, Run: r.ID, Status: r.End.Status, Error: r.End.Error,
			InputTokens: r.End.InputTokens, OutputTokens: r.End.OutputTokens, CostUSD: r.End.CostUSD})
		for i, st := range r.Steps {
			viewCallsJSON(at.steps[i], r.ID)
			if n := st.Notice; n != nil {
				out.Messages = append(out.Messages, msgJSON{Role: "notice", Text: n.Text, Time: n.Time, Run: r.ID})
				continue
			}
			a := st.Answer
			m := msgJSON{Role: "assistant", Text: a.Text, Time: a.Time, Run: r.ID, Model: c.modelOf(r), Partial: a.Partial,
				InputTokens: a.InputTokens, OutputTokens: a.OutputTokens}
			for _, call := range a.Calls {
				m.ToolCalls = append(m.ToolCalls, callJSON{ID: call.ID, Tool: call.Tool, Arguments: jsonArgs(call.Arguments), Outcome: outcome(call), Why: refusedWhy(call),
					Result: call.Result(), ElapsedMS: call.Elapsed.Milliseconds()})
			}
			out.Messages = append(out.Messages, m)
		}
		viewCallsJSON(at.steps[len(r.Steps)], r.ID)
		viewCallsJSON(at.after, r.ID)
	}
	viewCallsJSON(views.rest, "")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// jsonArgs is a call's arguments as JSON: a string when they are not.
func jsonArgs(args json.RawMessage) json.RawMessage {
	if !json.Valid(args) {
		args, _ = json.Marshal(string(args))
	}
	return args
}

// Load reads session id (or a prefix of it, as store.DB.Session takes)
// from the log for export, its chain checked.
func Load(ctx context.Context, db *store.DB, id string) (Chat, error) {
	s, err := db.Session(ctx, id)
	if err != nil {
		return Chat{}, err
	}
	events, err := db.Events(ctx, store.Filter{SessionID: s.ID})
	if err != nil {
		return Chat{}, fmt.Errorf("reading the session's events: %w", err)
	}
	breaks, err := db.VerifySession(ctx, s.ID)
	if err != nil {
		return Chat{}, fmt.Errorf("checking the session's chain: %w", err)
	}
	return Read(s, events, breaks), nil
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
