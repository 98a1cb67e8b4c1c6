package gui

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"deckhand/config"
	"deckhand/keys"
)

// TestSettingsServiceSavesItsFormat: the Service chosen decides the wire
// format saved (model.provider), the address and the model; the file,
// read again, holds them, and the settings reopened show the same
// service, address and model. (Issue 29: Anthropic at a local address
// saved no provider, and was spoken to in OpenAI's format; a config with
// provider = "anthropic" showed as Other, and OpenAI chosen from it kept
// provider = "anthropic" and the Claude model.)
func TestSettingsServiceSavesItsFormat(t *testing.T) {
	keys.MockInit()
	const local, other = "http://127.0.0.1:4302/v1", "http://127.0.0.1:4399/v1"
	tests := []struct {
		name    string
		file    string // the [model] table at the start
		shown   string // the service the settings open with
		choose  string // the service chosen, then
		url     string // the address typed under Advanced after, if any
		want    config.Model
		line    bool   // the file says provider = ...
		reshown string // the service shown on reopening
	}{
		{
			name: "Anthropic at a local address", file: `base_url = "` + local + `"` + "\nname = \"gpt-4o\"",
			shown: "Other (see Advanced)", choose: "Anthropic", url: local,
			want: config.Model{Provider: "anthropic", BaseURL: local, Name: "claude-sonnet-4-5"}, line: true, reshown: "Anthropic",
		},
		{
			name: "Anthropic's own address", file: `base_url = "` + local + `"` + "\nname = \"gpt-4o\"",
			shown: "Other (see Advanced)", choose: "Anthropic",
			want: config.Model{Provider: "anthropic", BaseURL: config.AnthropicBaseURL, Name: "claude-sonnet-4-5"}, reshown: "Anthropic",
		},
		{
			name: "OpenAI from Anthropic at a local address", file: `provider = "anthropic"` + "\n" + `base_url = "` + local + `"` + "\nname = \"claude-sonnet-4-5\"",
			shown: "Anthropic", choose: "OpenAI",
			want: config.Model{Provider: "openai", BaseURL: "https://api.openai.com/v1", Name: "gpt-4o-mini"}, reshown: "OpenAI",
		},
		{
			name: "OpenAI from a redundant provider line", file: `provider = "anthropic"` + "\n" + `base_url = "` + config.AnthropicBaseURL + `"` + "\nname = \"claude-sonnet-4-5\"",
			shown: "Anthropic", choose: "OpenAI",
			want: config.Model{Provider: "openai", BaseURL: "https://api.openai.com/v1", Name: "gpt-4o-mini"}, reshown: "OpenAI",
		},
		{
			name: "Other from Anthropic", file: `provider = "anthropic"` + "\n" + `base_url = "` + local + `"` + "\nname = \"claude-sonnet-4-5\"",
			shown: "Anthropic", choose: "Other (see Advanced)", url: other,
			want: config.Model{Provider: "openai", BaseURL: other, Name: "claude-sonnet-4-5"}, reshown: "Other (see Advanced)",
		},
		{
			name: "Ollama from Anthropic", file: `base_url = "` + config.AnthropicBaseURL + `"` + "\nname = \"claude-sonnet-4-5\"",
			shown: "Anthropic", choose: "Ollama, on this computer",
			want: config.Model{Provider: "openai", BaseURL: "http://127.0.0.1:11434/v1", Name: "claude-sonnet-4-5"}, reshown: "Ollama, on this computer",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, harnessOptions{cfg: func(c *config.Config) {
				if err := os.WriteFile(c.Path, []byte("[model]\n"+tc.file+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				loaded, err := config.LoadForUpdate(c.Path)
				if err != nil {
					t.Fatal(err)
				}
				*c = *loaded
			}})
			f := h.openSettings()
			if f.Service.Selected != tc.shown {
				t.Fatalf("the settings open with Service %q, want %q (file: %s)", f.Service.Selected, tc.shown, tc.file)
			}
			f.Service.SetSelected(tc.choose)
			if tc.url != "" {
				f.BaseURL.SetText(tc.url)
				if f.Service.Selected != tc.choose {
					t.Fatalf("typing %s under Advanced made the Service %q, want %q", tc.url, f.Service.Selected, tc.choose)
				}
			}
			h.saveSettings(f)
			data, err := os.ReadFile(h.cfg.Path)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(data), "provider"); got != tc.line {
				t.Errorf("the file has a provider line: %v, want %v:\n%s", got, tc.line, data)
			}
			saved, err := config.LoadForUpdate(h.cfg.Path)
			if err != nil {
				t.Fatal(err)
			}
			if got := saved.Model; got.Provider != tc.want.Provider || got.BaseURL != tc.want.BaseURL || got.Name != tc.want.Name {
				t.Errorf("saved model = %s %s %q, want %s %s %q:\n%s", got.Provider, got.BaseURL, got.Name, tc.want.Provider, tc.want.BaseURL, tc.want.Name, data)
			}
			f.Close()
			f = h.openSettings()
			if f.Service.Selected != tc.reshown || f.BaseURL.Text != tc.want.BaseURL || f.Model.Text != tc.want.Name {
				t.Errorf("reopened: Service %q, URL %q, model %q; want %q, %q, %q", f.Service.Selected, f.BaseURL.Text, f.Model.Text, tc.reshown, tc.want.BaseURL, tc.want.Name)
			}
		})
	}
}

// TestSettingsServiceSwitchKeepsModelApart: OpenAI's and Anthropic's
// model names are their own: choosing either puts its first model in
// Model; another service (Groq here) keeps the name (Check says whether
// it has it: emptied, it was saved as no model, new-user pass 13); and
// choosing the saved service again brings its saved model back. (Issue
// 29: gpt-4o stayed under Anthropic, Claude's under OpenAI.)
func TestSettingsServiceSwitchKeepsModelApart(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.Model.Name = "gpt-4o" }})
	f := h.openSettings()
	saved := f.Service.Selected
	for _, step := range []struct{ choose, model string }{
		{"Anthropic", "claude-sonnet-4-5"},
		{"OpenAI", "gpt-4o-mini"},
		{"Groq", "gpt-4o-mini"},
		{saved, "gpt-4o"},
	} {
		f.Service.SetSelected(step.choose)
		if f.Model.Text != step.model {
			t.Errorf("Service %s: Model %q, want %q", step.choose, f.Model.Text, step.model)
		}
	}
	if f.BaseURL.Text != h.model.URL {
		t.Errorf("back at the saved service (Other) the URL is %q, want %q", f.BaseURL.Text, h.model.URL)
	}
}

// TestSettingsCheckSpeaksTheServicesFormat: Check asks Anthropic at a
// local address for its models in Anthropic's format (anthropic-version,
// x-api-key), not OpenAI's, which it inferred from the address alone.
func TestSettingsCheckSpeaksTheServicesFormat(t *testing.T) {
	keys.MockInit()
	asked := make(chan http.Header, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case asked <- r.Header.Clone():
		default:
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":[{"id":"claude-sonnet-4-5"}]}`)
	}))
	t.Cleanup(srv.Close)
	h := newHarness(t, harnessOptions{})
	f := h.openSettings()
	f.Service.SetSelected("Anthropic")
	f.BaseURL.SetText(srv.URL + "/v1")
	h.tap(f.Window(), "Check")
	h.until("what Check found", func() bool { return strings.Contains(f.Checked.Text, "answers with 1 model") })
	if got := (<-asked).Get("anthropic-version"); got == "" {
		t.Error("Check asked Anthropic at a local address without anthropic-version: in OpenAI's format")
	}
}
