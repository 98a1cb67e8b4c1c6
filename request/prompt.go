// Package request decides what a request to the model holds: the system
// prompt, which tools are offered (all, or tool_search and the ones found,
// for a large catalog), how much of the history fits the context budget, and
// what a request used when the server did not say.
package request

import (
	"encoding/json"
	"strings"

	"deckhand/tools"
	"deckhand/transport/llm"
)

// System is the short frame of every request: tools exist, how to
// use them, (when tools are lazy) how to find them and which servers have
// which, and (when enabled) the CMD: route for shell commands.
func System(shell bool, lazyIndex string) string {
	var b strings.Builder
	b.WriteString("You are Deckhand, an assistant that works on the user's computer with tools from MCP servers.\n")
	b.WriteString("- The tools you may call are in this request's tools field; a name like fs__read_file is the tool read_file of the server fs. Call one when it helps; its result comes back in the next message.\n")
	if lazyIndex != "" {
		b.WriteString("- Most tools are not in the tools field. Call tool_search with a few words (the action and what it acts on) to find one; the tools it finds can be called from your next step on. The servers and some of their tools:\n")
		b.WriteString(lazyIndex + "\n")
	}
	b.WriteString("- Every tool call needs the user's approval. If a call is denied, do not repeat it unchanged: explain, or ask what to do instead.\n")
	b.WriteString("- If a tool returns an error, read it, then correct the call or explain the problem.\n")
	if shell {
		b.WriteString("- To run a shell command, write it alone on a line that starts with CMD: (for example: CMD: ls -la). The user approves each one; it runs in the workspace folder, sandboxed (it can read the system and write only the workspace, with no network), and its output comes back to you. Prefer a tool when one fits.\n")
	}
	b.WriteString("- Be concise.")
	return b.String()
}

// ToolList turns a catalog into the request's tools field. Input schemas are
// passed as the server gave them, with "type":"object" added when missing
// (the API requires an object schema).
func ToolList(cat *tools.Catalog) []llm.Tool {
	out := make([]llm.Tool, 0, cat.Len())
	for _, t := range cat.Tools() {
		out = append(out, toolDef(t))
	}
	return out
}

// toolDef is t as a request's tools field gives it.
func toolDef(t tools.Tool) llm.Tool {
	desc := t.Def.Description
	if t.Def.Title != "" && !strings.Contains(desc, t.Def.Title) {
		desc = strings.TrimSpace(t.Def.Title + ". " + desc)
	}
	return llm.Tool{Name: t.Wire, Description: desc, Parameters: ObjectSchema(t.Def.InputSchema)}
}

// catalogTokens is ToolTokens(ToolList(cat)), one tool at a time: neither
// the list nor its JSON text is held whole.
func catalogTokens(cat *tools.Catalog) int {
	n := len("[]")
	for i, t := range cat.Tools() {
		data, _ := json.Marshal(toolDef(t))
		n += len(data)
		if i > 0 {
			n += len(",")
		}
	}
	return (n + 3) / 4
}

func ObjectSchema(schema any) json.RawMessage {
	data, err := json.Marshal(schema)
	if err != nil || string(data) == "null" {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	changed := false
	if _, ok := m["type"]; !ok {
		m["type"], changed = "object", true
	}
	if _, ok := m["properties"]; !ok {
		m["properties"], changed = map[string]any{}, true
	}
	if !changed {
		return data
	}
	data, _ = json.Marshal(m)
	return data
}

// EstimateTokens guesses a text's token count: about four bytes a token for
// English and code. Good enough to keep requests inside a budget; the
// server's usage figures are the real count.
func EstimateTokens(s string) int { return (len(s) + 3) / 4 }

func MessageTokens(m llm.Message) int {
	n := 4 + EstimateTokens(m.Content)
	for _, c := range m.ToolCalls {
		n += 8 + EstimateTokens(c.Name) + EstimateTokens(c.Arguments)
	}
	return n
}

func ToolTokens(list []llm.Tool) int {
	data, _ := json.Marshal(list)
	return EstimateTokens(string(data))
}

// Fit returns the messages that fit in budget tokens, dropping the
// oldest first in whole units, so that an assistant message that calls
// tools never loses its tool results: first whole turns (a user message and
// everything up to the next), then, inside the current turn, the oldest
// units after its question. The current question and the latest unit are
// always kept. dropped counts the messages left out.
func Fit(history []llm.Message, budget int) (kept []llm.Message, dropped int) {
	total := 0
	for _, m := range history {
		total += MessageTokens(m)
	}
	if total <= budget {
		return history, 0
	}
	units := splitUnits(history)
	// Indices of the units that start a turn.
	var turns []int
	for i, u := range units {
		if u[0].Role == llm.RoleUser {
			turns = append(turns, i)
		}
	}
	start := 0
	for t := 1; t < len(turns) && total > budget; t++ {
		for _, u := range units[turns[t-1]:turns[t]] {
			total -= unitTokens(u)
		}
		start = turns[t]
	}
	keep := make([]bool, len(units))
	for i := start; i < len(units); i++ {
		keep[i] = true
	}
	// Still too big: drop units inside the current turn, after its question,
	// but never the last one.
	for i := start + 1; i < len(units)-1 && total > budget; i++ {
		keep[i] = false
		total -= unitTokens(units[i])
	}
	for i, u := range units {
		if keep[i] {
			kept = append(kept, u...)
		} else {
			dropped += len(u)
		}
	}
	return kept, dropped
}

// splitUnits groups messages so that an assistant message with tool calls
// and the tool messages answering it form one unit.
func splitUnits(history []llm.Message) [][]llm.Message {
	var units [][]llm.Message
	for i := 0; i < len(history); i++ {
		m := history[i]
		if m.Role == llm.RoleTool && len(units) > 0 {
			last := units[len(units)-1]
			if last[0].Role == llm.RoleAssistant && len(last[0].ToolCalls) > 0 {
				units[len(units)-1] = append(last, m)
				continue
			}
		}
		units = append(units, []llm.Message{m})
	}
	return units
}

func unitTokens(u []llm.Message) int {
	n := 0
	for _, m := range u {
		n += MessageTokens(m)
	}
	return n
}

// Usage is the usage of one request: the server's figures, or an
// estimate (prompt from the request's size, completion from what came back)
// when it sent none.
func Usage(turn llm.Turn, promptEstimate int) (llm.Usage, bool) {
	if turn.Usage != nil {
		return *turn.Usage, false
	}
	out := EstimateTokens(turn.Text) + EstimateTokens(turn.Reasoning)
	for _, tc := range turn.ToolCalls {
		out += EstimateTokens(tc.Name) + EstimateTokens(tc.Arguments)
	}
	return llm.Usage{PromptTokens: promptEstimate, CompletionTokens: out, TotalTokens: promptEstimate + out}, true
}
