package llm

// The Anthropic Messages API (POST /v1/messages, streamed) as a second wire
// format behind the same Request, Delta and Stream: the request is mapped
// here, and the named SSE events are turned into the same deltas the
// chat-completions chunks give, so that nothing above this package knows
// which provider answered.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"

	"deckhand/transport/errbody"
)

// Providers: the wire formats a Client speaks.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
)

const (
	// AnthropicBaseURL is the Anthropic API's root.
	AnthropicBaseURL = "https://api.anthropic.com/v1"
	// AnthropicVersion is sent as the anthropic-version header.
	AnthropicVersion = "2023-06-01"
	// AnthropicMaxTokens is max_tokens, which the API requires, when the
	// request sets none (model.max_output_tokens). Every current Claude
	// model allows at least this much.
	AnthropicMaxTokens = 8192
)

// IsAnthropicURL reports whether baseURL is Anthropic's own API.
func IsAnthropicURL(baseURL string) bool {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	return err == nil && strings.EqualFold(u.Hostname(), "api.anthropic.com")
}

// AnthropicEndpoint is the URL of an endpoint of the Messages API
// ("messages", "models") under baseURL. The base may leave out /v1, as
// Anthropic's SDKs and ANTHROPIC_BASE_URL do (https://api.anthropic.com,
// https://proxy.example/anthropic), or carry it, as Deckhand's default does
// (https://api.anthropic.com/v1), with or without a trailing slash: /v1 is
// in the URL exactly once. A base that is already a whole endpoint's URL
// (…/v1/messages, pasted) stands for its root.
func AnthropicEndpoint(baseURL, endpoint string) string {
	base := strings.TrimSpace(baseURL)
	u, err := url.Parse(base)
	if err != nil {
		return strings.TrimRight(base, "/") + "/v1/" + endpoint
	}
	p := strings.TrimRight(u.EscapedPath(), "/")
	for _, e := range []string{"/v1/messages", "/v1/models"} {
		if strings.HasSuffix(p, e) {
			p = strings.TrimSuffix(p, e) + "/v1"
		}
	}
	if !strings.HasSuffix(p, "/v1") {
		p += "/v1"
	}
	p += "/" + endpoint
	if u.Path, err = url.PathUnescape(p); err != nil {
		return strings.TrimRight(base, "/") + "/v1/" + endpoint
	}
	u.RawPath = p
	return u.String()
}

// ephemeral is the prompt-cache breakpoint Anthropic offers: the prefix up
// to and including the marked block is cached for five minutes.
// Each use is its own value: nothing shared between requests can change.
func ephemeral() *anthropicCache { return &anthropicCache{Type: "ephemeral"} }

type anthropicCache struct {
	Type string `json:"type"`
}

type anthropicRequest struct {
	Model       string             `json:"model"`
	MaxTokens   int                `json:"max_tokens"`
	System      []anthropicBlock   `json:"system,omitempty"`
	Messages    []anthropicMessage `json:"messages"`
	Tools       []anthropicTool    `json:"tools,omitempty"`
	Temperature *float64           `json:"temperature,omitempty"`
	Stream      bool               `json:"stream"`
}

type anthropicMessage struct {
	Role    string           `json:"role"`
	Content []anthropicBlock `json:"content"`
}

// anthropicBlock is one content block: text, image, tool_use or
// tool_result, by Type.
type anthropicBlock struct {
	Type         string           `json:"type"`
	Text         string           `json:"text,omitempty"`
	Source       *anthropicSource `json:"source,omitempty"`
	ID           string           `json:"id,omitempty"`
	Name         string           `json:"name,omitempty"`
	Input        json.RawMessage  `json:"input,omitempty"`
	ToolUseID    string           `json:"tool_use_id,omitempty"`
	Content      string           `json:"content,omitempty"`
	CacheControl *anthropicCache  `json:"cache_control,omitempty"`
}

type anthropicSource struct {
	Type      string `json:"type"` // base64 or url
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

type anthropicTool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl *anthropicCache `json:"cache_control,omitempty"`
}

// anthropicBody maps a Request to a Messages request. System messages
// become the top-level system blocks; a tool message becomes a tool_result
// block in a user message, and consecutive messages of one role are joined
// into one (so several tool results are one user message, results first);
// an assistant's tool calls are tool_use blocks. Blank text blocks, which
// the API refuses, are left out. Prompt caching: the last tool and the last
// system block carry cache_control, so the tools and the system prompt are
// cached together (the tools come first in the cached prefix, then the
// system prompt), and so does the last block of the last message, so that
// each round of a tool loop reads the conversation so far from the cache.
func anthropicBody(model string, req *Request) ([]byte, error) {
	ar := anthropicRequest{Model: model, MaxTokens: req.MaxTokens, Stream: true, Messages: []anthropicMessage{}}
	if ar.MaxTokens <= 0 {
		ar.MaxTokens = AnthropicMaxTokens
	}
	if t := req.Temperature; t != nil {
		v := min(*t, 1) // Anthropic's range is 0 to 1
		ar.Temperature = &v
	}
	for _, m := range req.Messages {
		if m.Role == RoleSystem {
			if strings.TrimSpace(m.Content) != "" {
				ar.System = append(ar.System, anthropicBlock{Type: "text", Text: m.Content})
			}
			continue
		}
		role, blocks := anthropicBlocks(m)
		if len(blocks) == 0 {
			continue
		}
		if n := len(ar.Messages); n > 0 && ar.Messages[n-1].Role == role {
			ar.Messages[n-1].Content = append(ar.Messages[n-1].Content, blocks...)
			continue
		}
		ar.Messages = append(ar.Messages, anthropicMessage{Role: role, Content: blocks})
	}
	for _, t := range req.Tools {
		schema := t.Parameters
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		ar.Tools = append(ar.Tools, anthropicTool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	if n := len(ar.Tools); n > 0 {
		ar.Tools[n-1].CacheControl = ephemeral()
	}
	if n := len(ar.System); n > 0 {
		ar.System[n-1].CacheControl = ephemeral()
	}
	if n := len(ar.Messages); n > 0 {
		last := ar.Messages[n-1].Content
		last[len(last)-1].CacheControl = ephemeral()
	}
	return json.Marshal(ar)
}

// anthropicBlocks is one message's role and content blocks.
func anthropicBlocks(m Message) (role string, blocks []anthropicBlock) {
	text := func(s string) {
		if strings.TrimSpace(s) != "" {
			blocks = append(blocks, anthropicBlock{Type: "text", Text: s})
		}
	}
	switch m.Role {
	case RoleTool:
		return RoleUser, []anthropicBlock{{Type: "tool_result", ToolUseID: m.ToolCallID, Content: m.Content}}
	case RoleAssistant:
		text(m.Content)
		for _, c := range m.ToolCalls {
			blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: toolInput(c.Arguments)})
		}
		return RoleAssistant, blocks
	}
	text(m.Content)
	for _, p := range m.Parts {
		switch {
		case p.Type == PartText:
			text(p.Text)
		case p.Type == PartImage && p.ImageURL != nil:
			if src := imageSource(p.ImageURL.URL); src != nil {
				blocks = append(blocks, anthropicBlock{Type: "image", Source: src})
			}
		}
	}
	return RoleUser, blocks
}

// toolInput is a call's arguments as the object tool_use needs: the
// model's own text when it is a JSON object, else {} (a call cut off at
// max_tokens; the conversation has told the model it was invalid).
func toolInput(args string) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) == nil && obj != nil {
		return json.RawMessage(args)
	}
	return json.RawMessage(`{}`)
}

// imageSource is an image part's source: base64 for a data: URL, url for
// http(s); nil for anything else.
func imageSource(u string) *anthropicSource {
	if rest, ok := strings.CutPrefix(u, "data:"); ok {
		meta, data, ok := strings.Cut(rest, ",")
		mediaType, enc, _ := strings.Cut(meta, ";")
		if !ok || enc != "base64" || mediaType == "" {
			return nil
		}
		return &anthropicSource{Type: "base64", MediaType: mediaType, Data: data}
	}
	if strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") {
		return &anthropicSource{Type: "url", URL: u}
	}
	return nil
}

// anthropicState is what a stream remembers between events: the usage so
// far (input in message_start, output in message_delta).
type anthropicState struct {
	usage anthropicUsage
}

type anthropicUsage struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
}

// merge takes the counts v gives; message_delta repeats some, cumulatively.
func (u *anthropicUsage) merge(v *anthropicUsage) {
	if v == nil {
		return
	}
	for _, f := range []struct{ dst, src **int }{
		{&u.InputTokens, &v.InputTokens}, {&u.OutputTokens, &v.OutputTokens},
		{&u.CacheCreationInputTokens, &v.CacheCreationInputTokens}, {&u.CacheReadInputTokens, &v.CacheReadInputTokens},
	} {
		if *f.src != nil {
			*f.dst = *f.src
		}
	}
}

// usage is the Usage this reports: input counts every input token, the
// cached ones too (Anthropic's input_tokens leaves them out).
func (u *anthropicUsage) usage() *Usage {
	n := func(p *int) int {
		if p == nil || *p < 0 {
			return 0
		}
		return min(*p, 1<<40) // no sum overflows

	}
	read, write := n(u.CacheReadInputTokens), n(u.CacheCreationInputTokens)
	out := &Usage{PromptTokens: n(u.InputTokens) + read + write, CompletionTokens: n(u.OutputTokens), CacheReadTokens: read, CacheWriteTokens: write}
	out.TotalTokens = out.PromptTokens + out.CompletionTokens
	return out
}

// anthropicEvent is one streamed event's data (its "type" repeats the SSE
// event name), or a whole message from a server that did not stream.
type anthropicEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message *struct {
		Usage *anthropicUsage `json:"usage"`
	} `json:"message"`
	ContentBlock *anthropicContent `json:"content_block"`
	Delta        *struct {
		Type        string  `json:"type"`
		Text        string  `json:"text"`
		PartialJSON string  `json:"partial_json"`
		Thinking    string  `json:"thinking"`
		StopReason  *string `json:"stop_reason"`
	} `json:"delta"`
	Usage *anthropicUsage `json:"usage"`
	Error json.RawMessage `json:"error"`
	// A whole message (type "message").
	Content    []anthropicContent `json:"content"`
	StopReason *string            `json:"stop_reason"`
}

type anthropicContent struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
}

// finishReason maps a stop_reason to the chat-completions finish_reason
// the conversation reads.
func finishReason(stop string) string {
	switch stop {
	case "end_turn", "stop_sequence":
		return "stop"
	case "tool_use":
		return "tool_calls"
	case "max_tokens", "model_context_window_exceeded":
		return "length"
	case "refusal":
		return "content_filter"
	}
	return stop // pause_turn and whatever comes next, as it is
}

// nextAnthropic reads events until one brings something: message_start and
// content_block_stop only update the state, ping is a keep-alive,
// message_stop ends the stream (io.EOF), an error event is a *StreamError.
func (s *Stream) nextAnthropic() (Delta, error) {
	if s.whole {
		s.done = true
		data, err := io.ReadAll(io.LimitReader(s.body, MaxEventSize))
		if err != nil {
			return Delta{}, s.readError(err)
		}
		d, err := s.anthropic.whole(data)
		if se, ok := err.(*StreamError); ok {
			se.Message = s.client.redact(se.Message)
		}
		return d, err
	}
	for {
		data, err := s.nextData()
		if err != nil {
			return Delta{}, err
		}
		d, more, end, err := s.anthropic.event(data)
		err = s.malformed(err)
		if end {
			s.done = true
		}
		if se, ok := err.(*StreamError); ok {
			se.Message = s.client.redact(se.Message)
		}
		if err != nil || more {
			return d, err
		}
		if end {
			return Delta{}, io.EOF
		}
	}
}

// event turns one event's data into a delta. more says the delta is worth
// passing on; end that the message is over.
func (st *anthropicState) event(data []byte) (d Delta, more, end bool, err error) {
	var ev anthropicEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return Delta{}, false, false, fmt.Errorf("the model server sent a malformed event (%v): %.200s", err, data)
	}
	switch ev.Type {
	case "message_start":
		if ev.Message != nil {
			st.usage.merge(ev.Message.Usage)
		}
	case "content_block_start":
		b := ev.ContentBlock
		if b == nil {
			break
		}
		switch b.Type {
		case "text":
			d.Text = b.Text
		case "thinking":
			d.Reasoning = b.Thinking
		case "tool_use":
			f := ToolCallFragment{Index: max(ev.Index, 0), ID: b.ID, Name: b.Name}
			// The start carries input {}; the arguments come in
			// input_json_delta. A server that sends them here whole is
			// believed when no delta follows (see below).
			if in := bytes.TrimSpace(b.Input); len(in) > 0 && string(in) != "{}" && string(in) != "null" {
				f.Arguments = string(in)
			}
			d.ToolCalls = []ToolCallFragment{f}
		}
		return d, true, false, nil
	case "content_block_delta":
		if ev.Delta == nil {
			break
		}
		switch ev.Delta.Type {
		case "text_delta":
			d.Text = ev.Delta.Text
		case "thinking_delta":
			d.Reasoning = ev.Delta.Thinking
		case "input_json_delta":
			d.ToolCalls = []ToolCallFragment{{Index: max(ev.Index, 0), Arguments: ev.Delta.PartialJSON}}
		default: // signature_delta, citations_delta
			return Delta{}, false, false, nil
		}
		return d, true, false, nil
	case "message_delta":
		st.usage.merge(ev.Usage)
		d.Usage = st.usage.usage()
		if ev.Delta != nil && ev.Delta.StopReason != nil {
			d.FinishReason = finishReason(*ev.Delta.StopReason)
		}
		return d, true, false, nil
	case "message_stop":
		return Delta{}, false, true, nil
	case "error":
		return Delta{}, false, true, &StreamError{Message: anthropicErrorText(data, errbody.Summary(data))}
	}
	// ping, content_block_stop, and event types yet to come.
	return Delta{}, false, false, nil
}

// whole reads a complete (not streamed) message as one delta.
func (st *anthropicState) whole(data []byte) (Delta, error) {
	var ev anthropicEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return Delta{}, fmt.Errorf("the model server sent a malformed message (%v): %.200s", err, data)
	}
	if ev.Type == "error" || (len(ev.Error) > 0 && string(ev.Error) != "null") {
		return Delta{}, &StreamError{Message: anthropicErrorText(data, errbody.Summary(data))}
	}
	var d Delta
	for i, b := range ev.Content {
		switch b.Type {
		case "text":
			d.Text += b.Text
		case "thinking":
			d.Reasoning += b.Thinking
		case "tool_use":
			args := "{}"
			if in := bytes.TrimSpace(b.Input); len(in) > 0 && string(in) != "null" {
				args = string(in)
			}
			d.ToolCalls = append(d.ToolCalls, ToolCallFragment{Index: i, ID: b.ID, Name: b.Name, Arguments: args})
		}
	}
	st.usage.merge(ev.Usage)
	d.Usage = st.usage.usage()
	if ev.StopReason != nil {
		d.FinishReason = finishReason(*ev.StopReason)
	}
	return d, nil
}

// anthropicErrorText is an Anthropic error body's message with its type,
// "Overloaded (overloaded_error)", or fallback when the body is not one.
func anthropicErrorText(body []byte, fallback string) string {
	var v struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil || (v.Error.Message == "" && v.Error.Type == "") {
		return fallback
	}
	msg := errbody.Summary([]byte(`{"message":` + mustJSON(v.Error.Message) + `}`))
	switch {
	case msg == "":
		return v.Error.Type
	case v.Error.Type == "":
		return msg
	}
	return msg + " (" + v.Error.Type + ")"
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
