package terminal

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"deckhand/actors/servers"
	"deckhand/tools"
)

// The text the chat prints that the `deckhand mcp` subcommands print too.

// PrintStatuses prints the servers as a table: alias, transport, protocol,
// tools, endpoint and state.
func PrintStatuses(w io.Writer, list []servers.ServerStatus) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ALIAS\tTRANSPORT\tPROTOCOL\tTOOLS\tENDPOINT\tSTATE")
	for _, s := range list {
		tools, proto := "-", "-"
		if s.State == servers.StateReady {
			tools = fmt.Sprint(s.Tools)
		}
		if s.ProtocolVersion != "" {
			proto = s.ProtocolVersion
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Alias, s.Transport, proto, tools, Shorten(s.Endpoint, 48), StateText(s))
	}
	tw.Flush()
}

// StateText is the state with its reason, and when the next attempt is due.
func StateText(s servers.ServerStatus) string {
	out := string(s.State)
	if s.Reason != "" {
		out += ": " + s.Reason
	}
	if !s.NextRetry.IsZero() && s.State != servers.StateReady {
		if d := time.Until(s.NextRetry); d >= time.Second {
			out += fmt.Sprintf(" (retrying in %v)", d.Round(time.Second))
		}
	}
	return out
}

// PrintSchema prints a tool's input or output schema under label, as
// indented JSON; nothing when it has none.
func PrintSchema(w io.Writer, label string, schema any) {
	if schema == nil {
		return
	}
	data, err := json.Marshal(schema)
	if err != nil || string(data) == "null" {
		return
	}
	fmt.Fprintf(w, "\n%s:\n%s\n", label, tools.PrettyJSON(data))
}

// Shorten cuts s to at most n runes, marking the cut with "…".
func Shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// FirstLine is the first line of s, without the blanks around it.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// Indent puts prefix before each line of s.
func Indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// ProgressEvery is how often a call's progress is printed at most: a server
// that floods progress gets a few lines a second, not thousands.
const ProgressEvery = 250 * time.Millisecond

// ProgressGate lets a call's progress through at most once per
// ProgressEvery. Its
// zero value is ready to use; it is not safe for concurrent use.
type ProgressGate map[string]time.Time

// Due reports whether call's progress may be printed now, and if so counts
// it as printed.
func (g *ProgressGate) Due(call string) bool {
	if *g == nil {
		*g = ProgressGate{}
	}
	if last, ok := (*g)[call]; ok && time.Since(last) < ProgressEvery {
		return false
	}
	(*g)[call] = time.Now()
	return true
}

// ProgressText is a progress notification as one line: "3/10 copying".
func ProgressText(p *servers.ToolProgress) string {
	if p.Progress.Progress == 0 && p.Progress.Total == 0 && p.Progress.Message != "" {
		return p.Progress.Message // no figure, as a task's status: the words alone
	}
	s := fmt.Sprintf("%g", p.Progress.Progress)
	if p.Progress.Total > 0 {
		s += fmt.Sprintf("/%g", p.Progress.Total)
	}
	if p.Progress.Message != "" {
		s += " " + p.Progress.Message
	}
	return s
}
