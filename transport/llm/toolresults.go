package llm

import (
	"regexp"
	"strings"
	"sync"
)

// Tool results' forms (Client.ToolResults, the config's model.tool_results).
const (
	// ToolResultsAuto sends tool results as role "tool" messages, and
	// switches a model whose server refuses them to ToolResultsPrefix
	// (for the rest of the process).
	ToolResultsAuto = ""
	// ToolResultsRole always sends role "tool" messages.
	ToolResultsRole = "role"
	// ToolResultsPrefix sends tool results as a user turn, each result
	// prefixed "[tool: alias.tool]": for models whose chat template knows
	// only user and assistant (mistral-nemo's and other strict templates
	// answer 400 "roles must alternate").
	ToolResultsPrefix = "prefix"
)

// prefixed remembers the models (base URL and name) whose server refused
// role "tool", for the life of the process: the next request of any
// conversation goes in the prefix form at once.
var prefixed sync.Map

func modelKey(c *Client) string { return strings.TrimRight(c.BaseURL, "/") + "\x00" + c.Model }

// usePrefix says whether c sends tool results as prefixed user turns.
func (c *Client) usePrefix() bool {
	switch c.ToolResults {
	case ToolResultsPrefix:
		return true
	case ToolResultsRole:
		return false
	}
	_, ok := prefixed.Load(modelKey(c))
	return ok
}

// roleRefusedRE matches what chat templates and servers answer to a role
// they do not know: Jinja's raise_exception of mistral's and gemma's
// templates ("Conversation roles must alternate user/assistant/..."),
// llama.cpp's and vLLM's "unknown/unsupported/invalid role", and a role
// "tool" named as not supported.
var roleRefusedRE = regexp.MustCompile(`(?i)roles must alternate|(unknown|unsupported|invalid|unexpected) (message )?role|role[^a-z]{0,4}tool[^.]{0,40}(not supported|unsupported|invalid|not allowed|unknown)|only (the )?user and assistant roles`)

// toolRoleRefused says whether an HTTP 400 answer to a request carrying
// tool results is a refusal of role "tool".
func toolRoleRefused(err *HTTPError, req *Request) bool {
	if err.Status != 400 || !roleRefusedRE.MatchString(err.Message) {
		return false
	}
	for _, m := range req.Messages {
		if m.Role == RoleTool {
			return true
		}
	}
	return false
}

// prefixToolResults is msgs with every tool result turned into text of a
// user turn, "[tool: alias.tool]" then the result, the results of one
// round (and a user message right after them, such as the output of
// commands) merged into one turn, so that user and assistant alternate.
// The assistant's calls stay as they were.
func prefixToolResults(msgs []Message) []Message {
	names := map[string]string{}
	out := make([]Message, 0, len(msgs))
	fromTools := false // the last message in out is a user turn made of tool results
	for _, m := range msgs {
		switch {
		case m.Role == RoleAssistant:
			for _, tc := range m.ToolCalls {
				names[tc.ID] = displayName(tc.Name)
			}
		case m.Role == RoleTool:
			name := names[m.ToolCallID]
			if name == "" {
				name = "unknown"
			}
			text := "[tool: " + name + "]\n" + m.Content
			if fromTools {
				last := &out[len(out)-1]
				last.Content += "\n\n" + text
				continue
			}
			out = append(out, Message{Role: RoleUser, Content: text})
			fromTools = true
			continue
		case m.Role == RoleUser && fromTools:
			last := &out[len(out)-1]
			last.Content += "\n\n" + m.Content
			last.Parts = append(last.Parts[:len(last.Parts):len(last.Parts)], m.Parts...)
			continue
		}
		out = append(out, m)
		fromTools = false
	}
	return out
}

// displayName is a wire name (alias__tool) as a person and the model read
// it (alias.tool).
func displayName(wire string) string {
	if alias, tool, ok := strings.Cut(wire, "__"); ok && alias != "" && tool != "" {
		return alias + "." + tool
	}
	return wire
}
