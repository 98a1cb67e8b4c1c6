package llm

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// pathRecorder is a model server that records the path (and query) of
// each request, answering a Messages stream, a chat-completions stream or
// a list of models by the path's end.
type pathRecorder struct {
	*httptest.Server
	mu    sync.Mutex
	paths []string
	heads []http.Header
}

func newPathRecorder(t *testing.T) *pathRecorder {
	r := &pathRecorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		p := req.URL.Path
		if req.URL.RawQuery != "" {
			p += "?" + req.URL.RawQuery
		}
		r.paths = append(r.paths, p)
		r.heads = append(r.heads, req.Header.Clone())
		r.mu.Unlock()
		switch {
		case strings.HasSuffix(req.URL.Path, "/models"):
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"data":[{"type":"model","id":"claude-haiku-4-5"}],"has_more":false}`)
		case strings.HasSuffix(req.URL.Path, "/messages"):
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n"+
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"+
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n"+
				"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
		case strings.HasSuffix(req.URL.Path, "/chat/completions"):
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"}}]}\n\ndata: [DONE]\n\n")
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(r.Close)
	return r
}

// take returns and forgets the recorded paths and headers.
func (r *pathRecorder) take() ([]string, []http.Header) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, h := r.paths, r.heads
	r.paths, r.heads = nil, nil
	return p, h
}

// streamText streams one answer and returns its text.
func streamText(t *testing.T, c *Client) string {
	t.Helper()
	s, err := c.Stream(t.Context(), &Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
	if err != nil {
		t.Fatalf("%s: %v", c.BaseURL, err)
	}
	defer s.Close()
	var text strings.Builder
	for {
		d, err := s.Next()
		if errors.Is(err, io.EOF) {
			return text.String()
		}
		if err != nil {
			t.Fatalf("%s: %v", c.BaseURL, err)
		}
		text.WriteString(d.Text)
	}
}

// Anthropic's base URL with or without /v1 (and a proxy's path, and a
// trailing slash): the request goes to …/v1/messages, /v1 once, and the
// list of models to …/v1/models.
func TestAnthropicBaseURLForms(t *testing.T) {
	srv := newPathRecorder(t)
	for _, c := range []struct{ base, prefix string }{
		{"", ""},
		{"/", ""},
		{"/v1", ""},
		{"/v1/", ""},
		{"/v1//", ""},
		{"/anthropic", "/anthropic"},
		{"/anthropic/", "/anthropic"},
		{"/anthropic/v1", "/anthropic"},
		{"/anthropic/v1/", "/anthropic"},
		{"/v1/messages", ""}, // a whole endpoint pasted as the base
	} {
		base := srv.URL + c.base
		cl := &Client{Provider: ProviderAnthropic, BaseURL: base, Model: "claude-haiku-4-5", APIKey: "sk-ant-k"}
		if got := streamText(t, cl); got != "ok" {
			t.Errorf("%s: answer %q", base, got)
		}
		models, err := ListModelsFor(t.Context(), ProviderAnthropic, base, "sk-ant-k")
		if err != nil || strings.Join(models, ",") != "claude-haiku-4-5" {
			t.Errorf("%s: models %v, %v", base, models, err)
		}
		paths, heads := srv.take()
		want := []string{c.prefix + "/v1/messages", c.prefix + "/v1/models?limit=1000"}
		if strings.Join(paths, " ") != strings.Join(want, " ") {
			t.Errorf("%s: requests %q, want %q", base, paths, want)
		}
		for i, h := range heads {
			if h.Get("x-api-key") != "sk-ant-k" || h.Get("anthropic-version") != AnthropicVersion || h.Get("Authorization") != "" {
				t.Errorf("%s: request %d headers %v", base, i+1, h)
			}
		}
	}
}

// The OpenAI-compatible path is as it was: BaseURL/chat/completions and
// BaseURL/models, whatever the base's path, /v1 never added.
func TestOpenAIBaseURLUnchanged(t *testing.T) {
	srv := newPathRecorder(t)
	for _, c := range []struct{ base, want string }{
		{"/v1", "/v1"},
		{"/v1/", "/v1"},
		{"", ""},
		{"/api/openai/v1", "/api/openai/v1"},
	} {
		base := srv.URL + c.base
		cl := &Client{BaseURL: base, Model: "m", APIKey: "sk-k"}
		if got := streamText(t, cl); got != "ok" {
			t.Errorf("%s: answer %q", base, got)
		}
		if _, err := ListModels(t.Context(), base, "sk-k"); err != nil {
			t.Errorf("%s: %v", base, err)
		}
		if _, err := ListModelsFor(t.Context(), ProviderOpenAI, base, "sk-k"); err != nil {
			t.Errorf("%s: %v", base, err)
		}
		paths, heads := srv.take()
		want := []string{c.want + "/chat/completions", c.want + "/models", c.want + "/models"}
		if strings.Join(paths, " ") != strings.Join(want, " ") {
			t.Errorf("%s: requests %q, want %q", base, paths, want)
		}
		for i, h := range heads {
			if h.Get("Authorization") != "Bearer sk-k" || h.Get("x-api-key") != "" {
				t.Errorf("%s: request %d headers %v", base, i+1, h)
			}
		}
	}
}

func TestAnthropicEndpoint(t *testing.T) {
	for _, c := range []struct{ base, endpoint, want string }{
		{"https://api.anthropic.com", "messages", "https://api.anthropic.com/v1/messages"},
		{"https://api.anthropic.com/", "messages", "https://api.anthropic.com/v1/messages"},
		{"https://api.anthropic.com/v1", "messages", "https://api.anthropic.com/v1/messages"},
		{" https://api.anthropic.com/v1/ ", "messages", "https://api.anthropic.com/v1/messages"},
		{AnthropicBaseURL, "models", "https://api.anthropic.com/v1/models"},
		{"https://api.anthropic.com/v1/messages", "models", "https://api.anthropic.com/v1/models"},
		{"https://proxy.example/anthropic", "messages", "https://proxy.example/anthropic/v1/messages"},
		{"https://proxy.example/anthropic/v1", "messages", "https://proxy.example/anthropic/v1/messages"},
		{"https://proxy.example/anthropic/v1/", "models", "https://proxy.example/anthropic/v1/models"},
		{"https://proxy.example/a%2Fb", "messages", "https://proxy.example/a%2Fb/v1/messages"},
		{"https://proxy.example/p?team=x", "messages", "https://proxy.example/p/v1/messages?team=x"},
		{"http://127.0.0.1:8080/v10", "messages", "http://127.0.0.1:8080/v10/v1/messages"},
	} {
		if got := AnthropicEndpoint(c.base, c.endpoint); got != c.want {
			t.Errorf("AnthropicEndpoint(%q, %q) = %q, want %q", c.base, c.endpoint, got, c.want)
		}
	}
}

// Anthropic's own API without /v1, asked for its models by ListModels
// (which knows it by its host).
func TestListModelsAnthropicWithoutV1(t *testing.T) {
	var got *http.Request
	old := http.DefaultClient.Transport
	http.DefaultClient.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = r
		return &http.Response{StatusCode: 200, Header: http.Header{}, Request: r,
			Body: io.NopCloser(strings.NewReader(`{"data":[{"type":"model","id":"claude-haiku-4-5"}],"has_more":false}`))}, nil
	})
	t.Cleanup(func() { http.DefaultClient.Transport = old })
	for _, base := range []string{"https://api.anthropic.com", "https://api.anthropic.com/"} {
		if _, err := ListModels(t.Context(), base, "sk-ant-k"); err != nil {
			t.Fatal(err)
		}
		if got.URL.String() != "https://api.anthropic.com/v1/models?limit=1000" || got.Header.Get("x-api-key") != "sk-ant-k" {
			t.Errorf("%s: request %s %v", base, got.URL, got.Header)
		}
	}
}
