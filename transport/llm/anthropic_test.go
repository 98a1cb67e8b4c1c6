package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"deckhand/testutil"
)

// TestAnthropicTranscripts replays the recorded Anthropic Messages streams
// in testdata/anthropic (SSE in) and compares the deltas the reader makes
// of them, joined by the accumulator, with the golden results (go test
// -update rewrites them).
func TestAnthropicTranscripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/anthropic/*.txtar")
	if len(files) == 0 {
		t.Fatal("no transcripts")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			script := testutil.LoadScript(t, file)
			srv := testutil.NewModelServer(t, script.Responses...)
			c := &Client{Provider: ProviderAnthropic, BaseURL: srv.URL, Model: "claude-sonnet-4-5", APIKey: "sk-ant-test-key-1234", Timeout: 10 * time.Second}
			var got []*outcome
			for range script.Responses {
				got = append(got, run(t.Context(), c))
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			enc.Encode(got)
			want := buf.String()
			if *update {
				script.UpdateWant(t, want)
				return
			}
			if diff := cmp.Diff(script.Want, want); diff != "" {
				t.Errorf("%s (-want +got):\n%s", file, diff)
			}
			for i, h := range srv.Headers() {
				if h.Get("x-api-key") != "sk-ant-test-key-1234" || h.Get("anthropic-version") != AnthropicVersion || h.Get("Authorization") != "" {
					t.Errorf("request %d headers: %v", i+1, h)
				}
			}
		})
	}
}

// The conversation's history as the Messages API takes it: the system
// prompt at the top, tool calls as tool_use blocks, consecutive tool
// results as one user message of tool_result blocks (with the next user
// text after them), images as base64 image blocks, cache breakpoints on
// the last tool, the last system block and the last message.
func TestAnthropicRequestBody(t *testing.T) {
	srv := testutil.NewModelServer(t, testutil.ModelResponse{Body: "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"})
	temp := 1.5
	c := &Client{Provider: ProviderAnthropic, BaseURL: srv.URL + "/", Model: "claude-haiku-4-5", APIKey: "sk-ant-abc"}
	s, err := c.Stream(t.Context(), &Request{
		Messages: []Message{
			{Role: RoleSystem, Content: "be brief"},
			{Role: RoleUser, Content: "what is in these?", Parts: []ContentPart{ImagePart("image/png", []byte{0x89, 'P', 'N', 'G'}), {Type: PartImage, ImageURL: &ImageURL{URL: "https://example.com/a.jpg"}}}},
			{Role: RoleAssistant, Content: "Reading both.", ToolCalls: []ToolCall{{ID: "toolu_1", Name: "fs__read", Arguments: `{"p":1}`}, {ID: "toolu_2", Name: "fs__read", Arguments: `{"p":`}}},
			{Role: RoleTool, ToolCallID: "toolu_1", Content: "data"},
			{Role: RoleTool, ToolCallID: "toolu_2", Content: "invalid arguments"},
			{Role: RoleUser, Content: "and now?"},
			{Role: RoleAssistant, Content: " "}, // blank: left out
			{Role: RoleUser, Content: "well?"},
		},
		Tools: []Tool{
			{Name: "fs__read", Description: "Read", Parameters: json.RawMessage(`{"type":"object","properties":{"p":{"type":"integer"}}}`)},
			{Name: "fs__list"},
		},
		Temperature: &temp,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var got map[string]any
	json.Unmarshal(srv.Requests()[0], &got)
	eph := map[string]any{"type": "ephemeral"}
	want := map[string]any{
		"model":       "claude-haiku-4-5",
		"stream":      true,
		"max_tokens":  float64(AnthropicMaxTokens),
		"temperature": 1.0,
		"system":      []any{map[string]any{"type": "text", "text": "be brief", "cache_control": eph}},
		"messages": []any{
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "what is in these?"},
				map[string]any{"type": "image", "source": map[string]any{"type": "base64", "media_type": "image/png", "data": "iVBORw=="}},
				map[string]any{"type": "image", "source": map[string]any{"type": "url", "url": "https://example.com/a.jpg"}},
			}},
			map[string]any{"role": "assistant", "content": []any{
				map[string]any{"type": "text", "text": "Reading both."},
				map[string]any{"type": "tool_use", "id": "toolu_1", "name": "fs__read", "input": map[string]any{"p": float64(1)}},
				map[string]any{"type": "tool_use", "id": "toolu_2", "name": "fs__read", "input": map[string]any{}},
			}},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": "data"},
				map[string]any{"type": "tool_result", "tool_use_id": "toolu_2", "content": "invalid arguments"},
				map[string]any{"type": "text", "text": "and now?"},
				map[string]any{"type": "text", "text": "well?", "cache_control": eph},
			}},
		},
		"tools": []any{
			map[string]any{"name": "fs__read", "description": "Read", "input_schema": map[string]any{"type": "object", "properties": map[string]any{"p": map[string]any{"type": "integer"}}}},
			map[string]any{"name": "fs__list", "input_schema": map[string]any{"type": "object", "properties": map[string]any{}}, "cache_control": eph},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request body (-want +got):\n%s", diff)
	}
	h := srv.Headers()[0]
	if h.Get("x-api-key") != "sk-ant-abc" || h.Get("anthropic-version") != "2023-06-01" || h.Get("Authorization") != "" {
		t.Errorf("headers: %v", h)
	}
	if p := srv.Requests(); len(p) != 1 {
		t.Fatalf("%d requests", len(p))
	}
}

// max_output_tokens goes as max_tokens.
func TestAnthropicMaxTokens(t *testing.T) {
	body, err := anthropicBody("m", &Request{MaxTokens: 321, Messages: []Message{{Role: RoleUser, Content: "hi"}}})
	if err != nil || !bytes.Contains(body, []byte(`"max_tokens":321`)) || bytes.Contains(body, []byte(`"system"`)) || bytes.Contains(body, []byte(`"tools"`)) {
		t.Errorf("body %s, %v", body, err)
	}
}

func TestAnthropicKeyNotInErrors(t *testing.T) {
	const key = "sk-ant-api03-0123456789abcdef"
	srv := testutil.NewModelServer(t, testutil.ModelResponse{Status: 401, Body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key ` + key + `"}}`})
	c := &Client{Provider: ProviderAnthropic, BaseURL: srv.URL, Model: "m", APIKey: key}
	_, err := c.Stream(t.Context(), &Request{})
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "/v1/messages: invalid x-api-key [redacted] (authentication_error)") {
		t.Errorf("Stream() = %v, want a 401 without the key", err)
	}
	// An error event in the stream, too.
	srv.Add(testutil.ModelResponse{Body: "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"bad key " + key + "\"}}\n\n"})
	o := run(t.Context(), c)
	if o.Error == "" || strings.Contains(o.Error, key) {
		t.Errorf("stream error %q", o.Error)
	}
}

// Nothing listening: the same plain words as the OpenAI path.
func TestAnthropicUnreachable(t *testing.T) {
	c := &Client{Provider: ProviderAnthropic, BaseURL: "http://127.0.0.1:1/v1", Model: "m", APIKey: "k"}
	_, err := c.Stream(t.Context(), &Request{})
	var ue *UnreachableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "nothing is listening there") {
		t.Errorf("Stream() = %v, want an UnreachableError", err)
	}
}

func TestIsAnthropicURL(t *testing.T) {
	for u, want := range map[string]bool{
		"https://api.anthropic.com/v1": true, "https://API.anthropic.com": true, " https://api.anthropic.com/v1/ ": true,
		"https://api.openai.com/v1": false, "http://127.0.0.1:8080/v1": false, "https://api.anthropic.com.evil.example/v1": false, "": false,
	} {
		if got := IsAnthropicURL(u); got != want {
			t.Errorf("IsAnthropicURL(%q) = %v", u, got)
		}
	}
}

// FuzzAnthropicStream feeds arbitrary bodies through the Anthropic event
// reader and the accumulator: nothing may panic, the text kept is what the
// deltas said, every call has a unique id, and usage is never negative.
func FuzzAnthropicStream(f *testing.F) {
	files, _ := filepath.Glob("testdata/anthropic/*.txtar")
	for _, file := range files {
		for _, r := range testutil.LoadScript(f, file).Responses {
			f.Add([]byte(r.Body), false)
		}
	}
	f.Add([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":-3,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\"}}\n\n"), false)
	f.Add([]byte(`{"type":"message","content":[{"type":"tool_use","id":"a","name":"n","input":null}],"usage":{"input_tokens":-4}}`), true)
	f.Fuzz(func(t *testing.T, body []byte, whole bool) {
		s := &Stream{
			client:    &Client{Provider: ProviderAnthropic},
			body:      io.NopCloser(bytes.NewReader(body)),
			ctx:       context.Background(),
			cancel:    func(error) {},
			whole:     whole,
			anthropic: &anthropicState{},
		}
		s.watchdog = time.NewTimer(time.Hour)
		s.events = newEventReader(bytes.NewReader(body))
		var acc Accumulator
		var text strings.Builder
		for range 10000 {
			d, err := s.Next()
			if err != nil {
				break
			}
			text.WriteString(d.Text)
			if u := d.Usage; u != nil && (u.PromptTokens < 0 || u.CompletionTokens < 0 || u.CacheReadTokens < 0 || u.CacheWriteTokens < 0 || u.TotalTokens != u.PromptTokens+u.CompletionTokens) {
				t.Fatalf("usage %+v", *u)
			}
			acc.Add(d)
		}
		turn, _ := acc.Turn()
		if turn.Text != text.String() {
			t.Fatalf("accumulated text %q, deltas said %q", turn.Text, text.String())
		}
		ids := map[string]bool{}
		for _, c := range turn.ToolCalls {
			if c.ID == "" || ids[c.ID] {
				t.Fatalf("tool call id %q empty or repeated", c.ID)
			}
			ids[c.ID] = true
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Anthropic's list of models is asked with its own headers.
func TestListModelsAnthropic(t *testing.T) {
	var got *http.Request
	old := http.DefaultClient.Transport
	http.DefaultClient.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = r
		return &http.Response{StatusCode: 200, Header: http.Header{}, Request: r,
			Body: io.NopCloser(strings.NewReader(`{"data":[{"type":"model","id":"claude-haiku-4-5","display_name":"Claude Haiku 4.5"},{"type":"model","id":"claude-sonnet-4-5"}],"has_more":false}`))}, nil
	})
	t.Cleanup(func() { http.DefaultClient.Transport = old })
	models, err := ListModels(t.Context(), AnthropicBaseURL, "sk-ant-k")
	if err != nil || strings.Join(models, ",") != "claude-haiku-4-5,claude-sonnet-4-5" {
		t.Fatalf("ListModels = %v, %v", models, err)
	}
	if got.URL.String() != "https://api.anthropic.com/v1/models?limit=1000" || got.Header.Get("x-api-key") != "sk-ant-k" ||
		got.Header.Get("anthropic-version") != AnthropicVersion || got.Header.Get("Authorization") != "" {
		t.Errorf("request %s %v", got.URL, got.Header)
	}
}
