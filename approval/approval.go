// Package approval owns the gate every tool call passes, and what a person
// is shown and can answer there.
//
// Decide is the gate as one pure decision: the capability policy's
// refusals first, then the tool's pin (a definition changed since it was
// pinned is asked again), then the person's grants and the config's
// auto_approve rules; it gives Allow, Refuse (with a typed error, ErrPolicy
// or ErrHidden) or Ask (with the Request to show). Check is its first step
// alone (the policy's refusals, and what the call may touch), for a caller
// that checks a call before its turn at the gate comes. Asking is the
// caller's job: a conversation's run sends the Request to whoever answers
// and blocks until the answer, and no answer within the timeout is a deny (Reason, Denial and the
// sentinel errors say why, for errors.Is). The package also holds the
// answers a person can give, the "always" grants (Always, beside the gate
// that reads them; the log's writer only loads and saves them), and the
// texts that describe a tool's claims and a change to its definition.
//
// Concurrency: Decide, Check, Diff, Claims and the error types are
// pure and safe anywhere. A Grants value belongs to one conversation (its
// actor between runs, the run in progress during one). Always is shared by
// every conversation: no one owns it, it is an immutable book swapped
// whole on each change.
package approval

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Request is one tool call awaiting a decision, with what a person needs to
// decide: which server and tool, what it says it does, its annotations
// (hints, unless the server is trusted), and the full arguments.
type Request struct {
	ID          string // the model's tool call id
	Server      string // alias; "local" for local.exec
	Tool        string // the server's name for it
	Display     string // alias.tool
	Title       string
	Description string
	Annotations *sdk.ToolAnnotations
	Trusted     bool
	ReadOnly    bool            // marked read-only in config, or by a trusted server
	Arguments   json.RawMessage // as the model sent them
	// Warnings say what in the tool's definition looks like an attempt to
	// steer the model or fool the person (tools.Tool.Flags).
	Warnings []string
	// Change, when set, says what changed in the tool's definition since
	// it was pinned: no rule or grant covers the call until the person
	// accepts the new definition by allowing it.
	Change string
	// Command is a shell command (local.exec), shown as it is.
	Command string
	// Access says what the call may touch, as the policy decided it
	// ("reads /home/me/Deckhand/a.txt (within /home/me/Deckhand)").
	Access []string
	// OnceOnly: no rule or grant covers the call, and the only yes is
	// "allow once" (shell commands: each is asked).
	OnceOnly bool
	// Origin says who makes the call when the model does not: "the view
	// of server.tool" (an MCP App's view). "" for the model.
	Origin string
}

// Answer is what a person can answer.
type Answer int

const (
	Deny         Answer = iota // the default, and what a timeout means
	AllowOnce                  // this call only
	AllowSession               // this tool, until the conversation ends
	AllowAlways                // this tool, from now on
)

func (a Answer) String() string {
	return [...]string{"deny", "allow once", "allow for this session", "always allow"}[a]
}

// Allowed reports whether the answer lets the call run.
func (a Answer) Allowed() bool { return a != Deny }

// Verdict is the gate's word on a call.
type Verdict int

const (
	Ask    Verdict = iota // a person must answer
	Allow                 // a grant or rule allows it
	Refuse                // it must not run, and no one is asked
)

func (v Verdict) String() string {
	switch v {
	case Ask:
		return "ask"
	case Allow:
		return "allow"
	case Refuse:
		return "refuse"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Scope is what an answer allows, as the log records it: "once",
// "session", "always", or "" for a deny.
func (a Answer) Scope() string {
	switch a {
	case AllowOnce:
		return "once"
	case AllowSession:
		return "session"
	case AllowAlways:
		return "always"
	}
	return ""
}

// Rules are the config's auto_approve entries: "alias.tool" or "alias.*"
// (or "local.exec") to true; a tool's own rule beats its server's, and false
// means ask.
type Rules map[string]bool

// Grants are tools a person allowed for a conversation, by display name.
type Grants map[string]bool

// ParseAnswer reads a terminal answer: y/yes (once), s/session, a/always,
// anything else (including nothing) is a deny.
func ParseAnswer(s string) Answer {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes", "o", "once":
		return AllowOnce
	case "s", "session":
		return AllowSession
	case "a", "always":
		return AllowAlways
	}
	return Deny
}

// Claims says what the server claims about the tool. Claims of an
// untrusted server are hints, and say so.
func Claims(req Request) string {
	ann := req.Annotations
	if ann == nil {
		return ""
	}
	var hints []string
	if ann.ReadOnlyHint {
		hints = append(hints, "read-only")
	} else {
		if ann.DestructiveHint == nil || *ann.DestructiveHint {
			hints = append(hints, "may change or delete things")
		}
		if ann.IdempotentHint {
			hints = append(hints, "idempotent")
		}
	}
	if ann.OpenWorldHint == nil || *ann.OpenWorldHint {
		hints = append(hints, "reaches outside this machine")
	}
	if len(hints) == 0 {
		return ""
	}
	text := "The server says: " + strings.Join(hints, ", ") + "."
	if !req.Trusted {
		text += " (A hint from an untrusted server.)"
	}
	return text
}
