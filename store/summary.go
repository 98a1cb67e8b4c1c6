package store

import (
	"fmt"
	"strings"
)

// Summary is an event in one line, for timelines: what happened, to which
// tool, with the start of any text.
func Summary(e Event) string {
	d, _ := e.Decode()
	usage := func(in, out int, estimated bool) string {
		mark := ""
		if estimated {
			mark = "~"
		}
		return fmt.Sprintf("%s%d in / %s%d out", mark, in, mark, out)
	}
	switch e.Kind {
	case KindSessionCreated:
		return "model " + d.Model
	case KindRunStarted:
		return quote(d.Text)
	case KindPromptBuilt:
		s := fmt.Sprintf("%d %s, %d %s, ~%d tokens", d.Messages, plural(d.Messages, "message", "messages"), d.Tools, plural(d.Tools, "tool", "tools"), d.EstimatedTokens)
		if d.Dropped > 0 {
			s += fmt.Sprintf(" (%d older messages left out)", d.Dropped)
		}
		return s
	case KindAssistantDelta:
		return quote(d.Text)
	case KindAssistantMessage:
		s := quote(d.Text)
		var names []string
		for _, c := range d.ToolCalls {
			names = append(names, c.Name)
		}
		if len(names) > 0 {
			if d.Text != "" {
				s += " "
			}
			s += "calls " + strings.Join(names, ", ")
		}
		if d.Incomplete {
			s += " (cut off)"
		}
		return s + " [" + usage(d.Usage.InputTokens, d.Usage.OutputTokens, d.Estimated) + "]"
	case KindToolRequested, KindToolInvoked:
		return d.Tool + " " + shorten(string(d.Arguments), 100)
	case KindToolTask:
		return d.Tool + " task " + shorten(d.Task, 100) + ": " + shorten(d.Status, 40)
	case KindApprovalAsked:
		return d.Tool + ": asked"
	case KindApprovalGranted:
		return fmt.Sprintf("%s: allowed (%s, %s)", d.Tool, d.Scope, d.By)
	case KindApprovalDenied:
		return fmt.Sprintf("%s: denied (%s)", d.Tool, d.By)
	case KindCapabilityGranted, KindCapabilityDenied:
		if d.Capability == "" { // before schema 5, a refused call
			return d.Tool + ": " + quote(d.Output)
		}
		verdict := "allowed"
		if e.Kind == KindCapabilityDenied {
			verdict = "DENIED"
		}
		who := d.Tool
		if who == "" {
			who = "server " + d.Server // the egress proxy's, outside any call
		}
		return fmt.Sprintf("%s: %s %s %s (%s)", who, d.Capability, d.Target, verdict, d.Rule)
	case KindToolSucceeded, KindToolFailed:
		s := d.Tool
		if d.ElapsedMS > 0 {
			s += fmt.Sprintf(" (%dms)", d.ElapsedMS)
		}
		return s + ": " + quote(d.Output)
	case KindRunSucceeded, KindRunFailed, KindRunStopped:
		s := fmt.Sprintf("%d %s, %s, $%.4f", d.Requests, plural(d.Requests, "request", "requests"), usage(d.InputTokens, d.OutputTokens, d.Estimated), d.CostUSD)
		if d.Error != "" {
			s = d.Error + "; " + s
		}
		return s
	case KindRunInterrupted:
		return "Deckhand stopped while the run was in progress"
	case KindNotice:
		return d.Text
	case KindToolsLoaded:
		return strings.Join(d.Loaded, ", ") + " (" + d.By + ")"
	case KindToolsUnloaded:
		return strings.Join(d.Unloaded, ", ") + " (" + d.Reason + ")"
	case KindContextCompacted:
		return fmt.Sprintf("%d %s summarised, %s tokens to %s", d.Turns, plural(d.Turns, "turn", "turns"), Count(d.TokensBefore), Count(d.TokensAfter))
	case KindRunRemoved:
		return quote(d.Text) + " taken out of the conversation"
	case KindToolReviewed:
		return d.Tool + " released from quarantine: offered to the model from now on"
	case KindRunChosen:
		return "this version of the message chosen"
	case KindElicitationAsked:
		if d.Mode == "url" {
			return fmt.Sprintf("%s asks to open a page on %s: %s", d.Server, d.Host, quote(d.Message))
		}
		return fmt.Sprintf("%s asks %s (fields: %s)", d.Server, quote(d.Message), strings.Join(d.Fields, ", "))
	case KindElicitationAnswered:
		s := d.Action
		if len(d.Fields) > 0 {
			s += " (fields: " + strings.Join(d.Fields, ", ") + ")"
		}
		// The log keeps the reason as text (approval.Answered's, or why
		// no one answered), written by every version of Deckhand. The log
		// package sits below the gate and must not import approval (and
		// with it policy, config and the sandbox) to read one word back.
		if d.Reason != "" && d.Reason != "answered" {
			s += ": " + d.Reason
		}
		return s
	}
	return shorten(string(e.Data), 120)
}

func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	return fmt.Sprintf("%q", shorten(s, 100))
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
