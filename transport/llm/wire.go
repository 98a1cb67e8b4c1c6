// Package llm owns the model wire format: OpenAI-compatible chat completions
// with streaming. A [Client] posts a [Request] and returns a [Stream] of typed
// deltas (text, tool-call fragments, usage, finish), read from the SSE body
// with r3labs/sse; [Stream.Turn] reads it to its end, an [Accumulator]
// joining the deltas into one assistant [Turn], tool calls joined by index.
// [Client.StreamRetried] sends a request again after a refusal that may
// pass, before any answer (stream.go: one streamed answer, from the
// request to the turn). Tool results go as role "tool" messages, or, for a
// model whose chat template knows only user and assistant, as user turns
// prefixed with the tool's name (Client.ToolResults; wire.go).
//
// A Client is safe for concurrent use; a Stream and an Accumulator belong to
// one goroutine.
package llm

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Role values for [Message.Role].
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one chat message as the API takes it.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// Parts are content parts after the text (images, for a user message).
	// With none, Content goes as a plain string, as it always has; with
	// some, "content" is an array: Content as a text part, then Parts.
	Parts      []ContentPart `json:"-"`
	ToolCalls  []ToolCall    `json:"tool_calls,omitempty"`
	ToolCallID string        `json:"tool_call_id,omitempty"`
}

// Content part types.
const (
	PartText  = "text"
	PartImage = "image_url"
)

// ContentPart is one part of a message's content, as the API takes it:
// {"type":"text","text":…} or {"type":"image_url","image_url":{"url":…}}.
type ContentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *ImageURL `json:"image_url,omitempty"`
}

// ImageURL is an image part's image: an https URL or a data: URL
// ("data:image/png;base64,…").
type ImageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitempty"`
}

// ImagePart is an image part of a data: URL made of the image's bytes.
func ImagePart(mime string, data []byte) ContentPart {
	return ContentPart{Type: PartImage, ImageURL: &ImageURL{URL: "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)}}
}

// MarshalJSON sends an assistant message that only calls tools with
// "content": null, as the API documents, and a message with Parts with its
// content as an array of parts.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	switch {
	case len(m.Parts) > 0:
		parts := make([]ContentPart, 0, len(m.Parts)+1)
		if m.Content != "" {
			parts = append(parts, ContentPart{Type: PartText, Text: m.Content})
		}
		parts = append(parts, m.Parts...)
		return json.Marshal(struct {
			plain
			Content []ContentPart `json:"content"`
		}{plain: plain(m), Content: parts})
	case m.Role == RoleAssistant && m.Content == "" && len(m.ToolCalls) > 0:
		return json.Marshal(struct {
			plain
			Content *string `json:"content"`
		}{plain: plain(m)})
	}
	return json.Marshal(plain(m))
}

// UnmarshalJSON reads a message whose content is a string, null, or an
// array of parts: the text parts, joined by blank lines, become Content,
// the others Parts, in their order.
func (m *Message) UnmarshalJSON(data []byte) error {
	type plain Message
	var w struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*m = Message(w.plain)
	m.Content, m.Parts = "", nil
	raw := bytes.TrimSpace(w.Content)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil
	case raw[0] == '"':
		return json.Unmarshal(raw, &m.Content)
	case raw[0] == '[':
		var parts []ContentPart
		if err := json.Unmarshal(raw, &parts); err != nil {
			return fmt.Errorf("message content: %w", err)
		}
		var texts []string
		for _, p := range parts {
			if p.Type == PartText {
				texts = append(texts, p.Text)
				continue
			}
			m.Parts = append(m.Parts, p)
		}
		m.Content = strings.Join(texts, "\n\n")
		return nil
	}
	return fmt.Errorf("message content: want a string, null or an array, got %.20s", raw)
}

// ToolCall is a complete call the model asked for. Arguments is JSON text as
// the model wrote it, which may be invalid.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func (c ToolCall) MarshalJSON() ([]byte, error) {
	var w wireToolCall
	w.ID, w.Type, w.Function.Name, w.Function.Arguments = c.ID, "function", c.Name, c.Arguments
	return json.Marshal(w)
}

func (c *ToolCall) UnmarshalJSON(data []byte) error {
	var w wireToolCall
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	c.ID, c.Name, c.Arguments = w.ID, w.Function.Name, w.Function.Arguments
	return nil
}

// Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage // a JSON schema of type object
}

func (t Tool) MarshalJSON() ([]byte, error) {
	params := t.Parameters
	if len(params) == 0 {
		params = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return json.Marshal(struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	}{Type: "function", Function: struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	}{t.Name, t.Description, params}})
}

// Request is one chat-completions request. Model, Stream and
// stream_options are filled in by the client. The Anthropic provider maps
// the same request to its own format (anthropic.go).
type Request struct {
	Messages    []Message
	Tools       []Tool
	MaxTokens   int
	Temperature *float64
}

// openAIBody is the chat-completions request body.
func openAIBody(model string, req *Request) ([]byte, error) {
	wr := wireRequest{
		Model:       model,
		Messages:    req.Messages,
		Stream:      true,
		Tools:       req.Tools,
		MaxTokens:   req.MaxTokens,
		Temperature: req.Temperature,
	}
	wr.StreamOptions.IncludeUsage = true
	if len(req.Tools) > 0 {
		wr.ToolChoice = "auto"
	}
	return json.Marshal(wr)
}

type wireRequest struct {
	Model         string    `json:"model"`
	Messages      []Message `json:"messages"`
	Stream        bool      `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Tools       []Tool   `json:"tools,omitempty"`
	ToolChoice  string   `json:"tool_choice,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
}

// Usage is the token count of one request, as the server reports it.
// PromptTokens is every input token, cached or not (as OpenAI counts it);
// CacheReadTokens and CacheWriteTokens are the parts of it read from and
// written to the server's prompt cache (Anthropic reports them; they are
// priced apart).
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
}

// Plus is u and v added up, field by field.
func (u Usage) Plus(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
		CacheReadTokens:  u.CacheReadTokens + v.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
	}
}

// Delta is what one streamed chunk adds.
type Delta struct {
	Text         string
	Reasoning    string // reasoning_content, from servers that show it
	ToolCalls    []ToolCallFragment
	Usage        *Usage
	FinishReason string
}

// ToolCallFragment is a piece of a tool call. The first fragment of a call
// carries its id and name; arguments arrive as JSON text in pieces.
type ToolCallFragment struct {
	Index     int // -1 when the server sent none
	ID        string
	Name      string
	Arguments string
}

// chunk is one chat.completion.chunk, or a whole chat.completion from a
// server that ignored stream:true.
type chunk struct {
	Choices []struct {
		Delta   *chunkMessage `json:"delta"`
		Message *chunkMessage `json:"message"`
		// FinishReason is a string or null.
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *Usage          `json:"usage"`
	Error json.RawMessage `json:"error"`
}

type chunkMessage struct {
	Content          *string `json:"content"`
	ReasoningContent *string `json:"reasoning_content"`
	Reasoning        *string `json:"reasoning"`
	ToolCalls        []struct {
		Index    *int   `json:"index"`
		ID       string `json:"id"`
		Function struct {
			Name string `json:"name"`
			// Arguments is a JSON string, or (some servers) an object.
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// delta turns a chunk into a Delta.
func (c *chunk) delta() Delta {
	var d Delta
	d.Usage = c.Usage
	if len(c.Choices) == 0 {
		return d
	}
	ch := c.Choices[0]
	if ch.FinishReason != nil {
		d.FinishReason = *ch.FinishReason
	}
	m := ch.Delta
	if m == nil {
		m = ch.Message
	}
	if m == nil {
		return d
	}
	if m.Content != nil {
		d.Text = *m.Content
	}
	switch {
	case m.ReasoningContent != nil:
		d.Reasoning = *m.ReasoningContent
	case m.Reasoning != nil:
		d.Reasoning = *m.Reasoning
	}
	for _, tc := range m.ToolCalls {
		f := ToolCallFragment{Index: -1, ID: tc.ID, Name: tc.Function.Name, Arguments: argumentsText(tc.Function.Arguments)}
		if tc.Index != nil {
			f.Index = *tc.Index
		}
		d.ToolCalls = append(d.ToolCalls, f)
	}
	return d
}

// argumentsText is the arguments as JSON text: the string's value when they
// came as a string, the object's text when they came as an object.
func argumentsText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

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
