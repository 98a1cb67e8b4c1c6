package llm

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// A refused request says which address was asked (without the secrets an
// address may carry), what the status likely means, and what to change
// in Settings; the server's own message is quoted, cut.
func TestRefusedSaysWhereAndWhatToFix(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		path     string // the base URL's path
		wantFix  Fix
		want     []string
		dontWant []string
		keyFrom  string // Client.KeyFrom
		apiKey   string // Client.APIKey
	}{
		{
			name: "a wrong path: Go's 404 page", status: 404, body: "404 page not found\n", path: "/v1",
			wantFix: FixAddress,
			want:    []string{"404 Not Found from POST http://127.0.0.1:PORT/v1/chat/completions", "/v1 missing or one too many", "Model URL in Settings"},
		},
		{
			name: "a wrong path: an HTML page", status: 404, body: "<html><head><title>Nothing here</title></head><body>" + strings.Repeat("x", 5000) + "</body></html>", path: "/api",
			wantFix: FixAddress,
			want:    []string{"from POST http://127.0.0.1:PORT/api/chat/completions: Nothing here.", "not the root of an OpenAI-compatible or Anthropic API"},
		},
		{
			name: "a model the server does not know (Ollama)", status: 404, body: `{"error":{"message":"model \"no-such-model\" not found, try pulling it first"}}`, path: "/v1",
			wantFix: FixModel,
			want:    []string{`model "no-such-model" not found, try pulling it first`, `does not know the model "no-such-model": pick one it lists in Settings`},
		},
		{
			name: "a method not allowed", status: 405, body: "", path: "",
			wantFix: FixAddress,
			want:    []string{"405 Method Not Allowed from POST http://127.0.0.1:PORT/chat/completions", "Model URL in Settings"},
		},
		{
			name: "no key", status: 401, body: `{"error":{"message":"Missing bearer authentication in header"}}`, path: "/v1",
			wantFix: FixKey,
			want:    []string{"401 Unauthorized from POST http://127.0.0.1:PORT/v1/chat/completions: Missing bearer authentication in header", "give one in Settings"},
		},
		{
			// The person has no key yet: add one, not "check or replace it"
			// (new-user pass 13, F5).
			name: "no key, looked for", status: 401, body: `{"error":{"message":"Incorrect API key provided"}}`, path: "/v1",
			keyFrom:  "no key for http://127.0.0.1:PORT/v1",
			wantFix:  FixKey,
			want:     []string{"Deckhand sent no key for http://127.0.0.1:PORT/v1: add one in Settings"},
			dontWant: []string{"check or replace"},
		},
		{
			name: "a key refused", status: 401, body: `{"error":{"message":"Incorrect API key provided"}}`, path: "/v1",
			keyFrom: "the key in $MODEL_KEY", apiKey: "sk-some-key-0123456789",
			wantFix:  FixKey,
			want:     []string{"Deckhand sent the key in $MODEL_KEY: check or replace it in Settings"},
			dontWant: []string{"add one"},
		},
		{
			name: "a server error", status: 500, body: `{"error":{"message":"CUDA out of memory"}}`, path: "/v1",
			wantFix: FixNone,
			want:    []string{"500 Internal Server Error from POST http://127.0.0.1:PORT/v1/chat/completions: CUDA out of memory"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			}))
			t.Cleanup(srv.Close)
			u, _ := url.Parse(srv.URL)
			port := u.Port()
			// Secrets a person may have pasted into the address.
			base := "http://someone:hunter2@127.0.0.1:" + port + tt.path
			c := &Client{BaseURL: base, Model: "no-such-model", APIKey: tt.apiKey, KeyFrom: strings.ReplaceAll(tt.keyFrom, "PORT", port)}
			_, err := c.Stream(t.Context(), &Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}})
			if err == nil {
				t.Fatal("Stream() succeeded, want a refusal")
			}
			if got := FixFor(err); got != tt.wantFix {
				t.Errorf("FixFor(%v) = %q, want %q", err, got, tt.wantFix)
			}
			msg := strings.ReplaceAll(err.Error(), port, "PORT")
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("Stream() = %q, want it to contain %q", msg, w)
				}
			}
			for _, w := range tt.dontWant {
				if strings.Contains(msg, w) {
					t.Errorf("Stream() = %q, want no %q", msg, w)
				}
			}
			for _, secret := range []string{"hunter2", "someone"} {
				if strings.Contains(msg, secret) {
					t.Errorf("Stream() = %q, want no %q", msg, secret)
				}
			}
			if len(msg) > 1000 {
				t.Errorf("Stream() is %d bytes long, want the body cut", len(msg))
			}
		})
	}
}

func TestShownLeavesSecretsOut(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"user and password", "https://someone:hunter2@api.example.com/v1/chat/completions", "https://api.example.com/v1/chat/completions"},
		{"a key in the query", "https://api.example.com/v1/chat/completions?api-key=sk-123&api-version=1#frag", "https://api.example.com/v1/chat/completions"},
		{"plain", "http://127.0.0.1:11434/v1/chat/completions", "http://127.0.0.1:11434/v1/chat/completions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Shown(tt.in); got != tt.want {
				t.Errorf("Shown(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
