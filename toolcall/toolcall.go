// Package toolcall holds the decisions about one tool call the model asked
// for, before and after it runs: which tool it names, whether its arguments
// fit the tool's schema, what a person is asked about it, and what the model
// is told of its result. Each is a plain function; the conversation actor
// strings them together.
//
// The model's argument bytes are never re-encoded: what was validated and
// shown is what the server receives, byte for byte (integers beyond 2^53,
// "<", "&" and all).
//
// Every function is pure and safe anywhere; the gate's own decision
// (policy, pins, grants and rules) is approval.Decide.
package toolcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/approval"
	"deckhand/policy"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// Resolve finds the tool a call names (wire or display name) in the catalog
// the model was offered. When there is none, refusal is what the model is
// told: why, when the catalog left the tool out (LeftOut); else how to find
// the right name (lazy: with tool_search), and the closest names. (The
// tools the catalog has but keeps from the model, a router knows:
// servers.Router.Withheld.)
func Resolve(cat *tools.Catalog, name string, lazy bool) (t tools.Tool, refusal string, ok bool) {
	if t, ok := cat.Lookup(name); ok {
		return t, "", true
	}
	if w, ok := LeftOut(cat, name); ok {
		return tools.Tool{}, w.Refusal(), false
	}
	refusal = fmt.Sprintf("Error: there is no tool named %q. Use one of the tools in this request's tools field, by its exact name.", name)
	if lazy {
		refusal = fmt.Sprintf("Error: there is no tool named %q. Call tool_search to find the tool you need, then call it by the name it gives.", name)
	}
	if s := cat.Suggest(strings.Replace(name, "__", ".", 1), 3); len(s) > 0 {
		refusal += " Similar tools: " + strings.Join(s, ", ") + "."
	}
	return tools.Tool{}, refusal, false
}

// Arguments checks the model's arguments against the tool's input schema
// and returns the bytes to send: exactly the model's (empty means {}). The
// check decodes a copy with json.Number, so that no number is rounded on
// the way. refusal is what the model is told when the check fails.
func Arguments(v *tools.Validator, t tools.Tool, raw string) (args json.RawMessage, refusal string, ok bool) {
	if strings.TrimSpace(raw) == "" {
		raw = "{}"
	}
	if err := v.Validate(t, []byte(raw)); err != nil {
		return nil, fmt.Sprintf("Error: the call was not made: %v. Fix the arguments and call again.", err), false
	}
	return json.RawMessage(raw), "", true
}

// Request is what the gate, and a person, are shown of a resolved call.
func Request(id string, t tools.Tool, args json.RawMessage) approval.Request {
	r := approval.Request{
		ID: id, Server: t.Server, Tool: t.Name, Display: t.Display,
		Title: t.Def.Title, Description: t.Def.Description, Annotations: t.Def.Annotations,
		Trusted: t.Trusted, ReadOnly: t.ReadOnly, Arguments: args, Warnings: t.Warnings(),
	}
	if r.Title == "" && t.Def.Annotations != nil {
		r.Title = t.Def.Annotations.Title
	}
	return r
}

// Unresolved is the request shown for a call that names no known tool (it
// is refused before the gate, and logged under the name the model used).
func Unresolved(id, name string, args json.RawMessage) approval.Request {
	return approval.Request{ID: id, Display: name, Arguments: args}
}

// Output is what the model is told of a call's result: the rendered
// content capped at limit bytes, marked when the tool failed; or a short
// error when no result came (so that every call id is answered).
func Output(res *sdk.CallToolResult, err error, limit int) (text string, isError bool) {
	text, isError, _ = OutputCut(res, err, limit)
	return text, isError
}

// OutputCut is Output, and what the cap cut of the rendered result (the
// zero Cut when nothing was): the fact a card tells a person by.
func OutputCut(res *sdk.CallToolResult, err error, limit int) (text string, isError bool, cut tools.Cut) {
	if err != nil {
		return "Error: the tool call failed: " + err.Error(), true, cut
	}
	if res == nil {
		return "Error: the tool call failed: the server sent no result", true, cut
	}
	text, cut = tools.CapCut(tools.RenderResult(res), limit)
	if res.IsError {
		return "The tool reported an error:\n" + text, true, cut
	}
	return text, false, cut
}

// ResultShare is the part of the context budget one result may take.
const ResultShare = 0.25

// Limit is the most a tool result given to the model may hold, in bytes:
// mcp.max_output_bytes, but never more than ResultShare of the context
// budget (at about four bytes a token), so that one result cannot crowd out
// the conversation. 0 means no limit.
func Limit(maxOutputBytes, maxContextTokens int) int {
	share := int(float64(maxContextTokens) * 4 * ResultShare)
	switch {
	case maxContextTokens <= 0:
		return maxOutputBytes
	case maxOutputBytes <= 0:
		return share
	}
	return min(maxOutputBytes, share)
}

// The texts the model is told of calls that did not run.
const (
	DeniedText    = "The user denied this tool call; it was not run."
	CancelledText = "Cancelled: the user stopped the run before this call finished."
	DepthText     = "Not run: the tool-call depth limit of this run was reached."
)

// DeniedBecause is what the model is told of a call denied for a reason
// other than the person's own no (a timeout, no one to ask).
func DeniedBecause(reason string) string {
	return fmt.Sprintf("Denied (%s); the call was not run.", reason)
}

// ShellTool is the built-in tools server's shell (local.shell), which runs
// the model's scripts: offered only with policy.allow_exec.
const ShellTool = "shell"

// IsShell reports whether a call's tool name (display or wire) is the
// built-in shell.
func IsShell(name string) bool {
	return name == "local."+ShellTool || name == "local__"+ShellTool
}

// ShellOff is the policy's refusal of the built-in shell while shell
// commands are off: by shell.disabled (disabled), else for want of
// policy.allow_exec.
func ShellOff(disabled bool) policy.Decision {
	rule := "off: policy.allow_exec is false"
	if disabled {
		rule = "off: shell.disabled is set"
	}
	return policy.Decision{Capability: policy.CapExec, Target: "local." + ShellTool, Allowed: false, Rule: rule}
}

// CommandTool is the name the shell commands a model proposes go by.
const CommandTool = "local.exec"

// cmdLine matches a line proposing a shell command: "CMD: ls -la".
var cmdLine = regexp.MustCompile(`^\s*CMD:\s*(.*?)\s*$`)

// Commands returns the commands proposed on CMD: lines, in order. Lines
// inside fenced code blocks are examples, not proposals; backticks around a
// command are removed.
func Commands(text string) []string {
	var out []string
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		m := cmdLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		cmd := strings.TrimSpace(strings.Trim(m[1], "`"))
		if cmd != "" {
			out = append(out, cmd)
		}
	}
	return out
}

// HiddenCommandRefusal is what the model is told of a CMD: line holding
// a character a person would not see: which one, and where.
func HiddenCommandRefusal(what string, at int, command string) string {
	return (&approval.HiddenError{What: what, At: at, Command: command}).Error()
}

// CommandRequest is what the gate, and a person, are shown of a proposed
// shell command.
func CommandRequest(id, command, shell string) approval.Request {
	args, _ := json.Marshal(map[string]string{"command": command})
	return approval.Request{
		ID: id, Server: "local", Tool: "exec", Display: CommandTool,
		Title:       "Run a shell command",
		Description: fmt.Sprintf("The model proposed this command on a CMD: line. It runs with %s -c, confined to the workspace (it can read the system and write only there), with no network.", shell),
		Arguments:   args,
		Command:     command,
		OnceOnly:    true,
	}
}

// CommandsMessage gives the model the output of the CMD: lines it proposed.
func CommandsMessage(outputs []string) llm.Message {
	return llm.Message{Role: llm.RoleUser, Content: "[local.exec] Output of the commands you proposed:\n\n" + strings.Join(outputs, "\n\n")}
}

// ErrChanged is the answer to a call whose tool its server redefined (or
// removed) after the call was checked and shown: it is not run, and the
// model may call again under the new definition.
var ErrChanged = errors.New("the tool's definition changed after the call was checked; it was not run. Call it again if it still fits")

// Same reports whether two definitions of a tool are the same: the call
// that was checked against one may be sent under the other.
func Same(a, b *sdk.Tool) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// Diff says, for people, what changed between two definitions of a tool
// (approval.Diff).
func Diff(before, after *sdk.Tool) string { return approval.Diff(before, after) }

// PolicyRefusal is what the model is told of a call the capability policy
// refused before the gate: which capability, for what, and why.
func PolicyRefusal(capability, target, rule string) string {
	return (&approval.PolicyError{Capability: capability, Target: target, Rule: rule}).Error()
}
