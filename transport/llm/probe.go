package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"deckhand/clean"
	"deckhand/redact"
	"deckhand/transport/errbody"
)

// Endpoint is a model server found on this machine.
type Endpoint struct {
	Name    string   // "Ollama", "llama.cpp", "LM Studio"
	BaseURL string   // ending in /v1
	Models  []string // what GET /models lists
}

// Where is the endpoint's host and port, for people: "127.0.0.1:11434".
func (e Endpoint) Where() string {
	if u, err := url.Parse(e.BaseURL); err == nil && u.Host != "" {
		return u.Host
	}
	return e.BaseURL
}

// LocalEndpoints are the usual local OpenAI-compatible servers.
var LocalEndpoints = []Endpoint{
	{Name: "Ollama", BaseURL: "http://127.0.0.1:11434/v1"},
	{Name: "llama.cpp", BaseURL: "http://127.0.0.1:8080/v1"},
	{Name: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1"},
}

// Probe asks each candidate for its models, all at once, and returns those
// that answered, in the candidates' order.
func Probe(ctx context.Context, candidates []Endpoint) []Endpoint {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	results := make([]*Endpoint, len(candidates))
	done := make(chan struct{}, len(candidates))
	for i, c := range candidates {
		go func() {
			defer func() { done <- struct{}{} }()
			models, err := ListModels(ctx, c.BaseURL, "")
			if err == nil {
				c.Models = models
				results[i] = &c
			}
		}()
	}
	for range candidates {
		<-done
	}
	var out []Endpoint
	for _, r := range results {
		if r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// ListModels asks an OpenAI-compatible server for its models (GET
// base/models). Anthropic's API answers the same question in the same
// shape, with its own headers: a base URL on api.anthropic.com is asked
// that way (ListModelsFor says so of any other, such as a proxy).
func ListModels(ctx context.Context, baseURL, apiKey string) ([]string, error) {
	return ListModelsFor(ctx, "", baseURL, apiKey)
}

// ListModelsFor is ListModels for a server of a known provider
// (ProviderOpenAI, ProviderAnthropic; "": Anthropic when the base URL is
// Anthropic's own API). Anthropic's list is at /v1/models, whether or not
// the base URL ends in /v1 (AnthropicEndpoint).
func ListModelsFor(ctx context.Context, provider, baseURL, apiKey string) ([]string, error) {
	anthropic := provider == ProviderAnthropic || provider == "" && IsAnthropicURL(baseURL)
	shown := strings.TrimRight(baseURL, "/") + "/models"
	u := shown
	if anthropic {
		shown = AnthropicEndpoint(baseURL, "models")
		u = shown
		if pu, err := url.Parse(shown); err == nil {
			q := pu.Query()
			q.Set("limit", "1000") // else the first 20
			pu.RawQuery = q.Encode()
			u = pu.String()
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	switch {
	case anthropic:
		req.Header.Set("anthropic-version", AnthropicVersion)
		if apiKey != "" {
			req.Header.Set("x-api-key", apiKey)
		}
	case apiKey != "":
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20)) // some list hundreds of models, with prices
	if resp.StatusCode != http.StatusOK {
		return nil, &ListError{URL: Shown(shown), Status: resp.StatusCode, Message: redact.New(apiKey).String(errbody.Summary(body))}
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("GET %s: %w", shown, err)
	}
	ids := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	return ChatModels(ModelNames(ids)), nil
}

// ListError is a list of models refused: the server answered status, and
// said Message (cut, without the key).
type ListError struct {
	URL     string // without credentials or query (Shown)
	Status  int
	Message string
}

func (e *ListError) Error() string {
	msg := fmt.Sprintf("GET %s: %d %s", e.URL, e.Status, statusText(e.Status))
	if e.Message != "" && !strings.EqualFold(e.Message, statusText(e.Status)) {
		msg += ": " + e.Message
	}
	if e.Status == http.StatusNotFound || e.Status == http.StatusMethodNotAllowed {
		if !strings.HasSuffix(msg, ".") {
			msg += "."
		}
		msg += " Nothing lists models at that path: the Model URL is likely wrong, with /v1 missing or one too many, " +
			"or not the root of an OpenAI-compatible or Anthropic API"
	}
	return msg
}

// NeedsKey reports whether err is a list refused for want of a key (or
// for a key it does not take): 401 or 403.
func NeedsKey(err error) bool {
	var le *ListError
	return errors.As(err, &le) && (le.Status == http.StatusUnauthorized || le.Status == http.StatusForbidden)
}

// ChatModels leaves out the models that cannot chat, by the names their
// kinds go by: embedding models (text-embedding-3-small, nomic-embed-text,
// bge-m3), rerankers, speech, images and moderation. A server's list
// says nothing of a model's kind (OpenAI's and Ollama's do not), so a
// picker offering them would offer names that fail on the first message.
func ChatModels(names []string) []string {
	out := names[:0:0]
	for _, n := range names {
		if !notChat(n) {
			out = append(out, n)
		}
	}
	return out
}

func notChat(name string) bool {
	n := strings.ToLower(name)
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:] // openrouter's "openai/text-embedding-3-small"
	}
	for _, w := range []string{"embed", "rerank", "whisper", "tts", "dall-e", "moderation", "transcribe", "gpt-image", "sora"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	for _, p := range []string{"bge-", "bge:", "all-minilm", "e5-", "gte-", "paraphrase-multilingual"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// Limits on what a model server's list of models may bring.
const (
	MaxModels       = 200 // names kept, in the server's order
	MaxModelNameLen = 200 // bytes; a longer name is left out
)

// ModelNames keeps the usable names of a server's list of models: the
// names are untrusted, so one that is empty, longer than MaxModelNameLen,
// or holds control characters, escape sequences, bidi overrides or
// newlines (anything clean.Line would change) is left out, as are
// repeats; at most MaxModels are kept.
func ModelNames(ids []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range ids {
		if len(out) == MaxModels {
			break
		}
		if id == "" || len(id) > MaxModelNameLen || clean.Line(id) != id || strings.TrimSpace(id) != id || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out
}
