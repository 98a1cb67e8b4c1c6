package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/config"
)

// deckhand init asks as it goes and writes a config that loads: the model
// picked by number from the server's own list, the workspace, the shell
// choice and a first server; a wrong answer is asked again with why; an
// existing config is refused without --force and kept as .bak with it; an
// input that ends before a needed answer fails naming the question.
func TestInit(t *testing.T) {
	models := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"object":"list","data":[{"id":"qwen3:8b"},{"id":"llama3.2:3b"}]}`))
	}))
	t.Cleanup(models.Close)
	path := filepath.Join(t.TempDir(), "deckhand", "config.toml")
	answers := strings.Join([]string{
		"7",                // not a choice: asked again
		"1",                // on this machine
		"ftp://nowhere",    // not an http address: asked again
		models.URL + "/v1", // its address
		"2",                // the second model listed
		"~/Work",           // the workspace
		"y",                // shell commands
		"npx -y @modelcontextprotocol/server-memory",
		"mem",
	}, "\n") + "\n"
	r := deckhand(t, nil, answers, "--config", path, "init")
	if r.code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{`"7": answer 1, 2, 3 or 4`, `"ftp://nowhere" is not an http:// or https:// address`, "2) llama3.2:3b", "Wrote " + path} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatalf("the written config does not load: %v", err)
	}
	if cfg.Model.BaseURL != models.URL+"/v1" || cfg.Model.Name != "llama3.2:3b" || !cfg.Policy.AllowExec || cfg.Policy.Workspace == "" {
		t.Errorf("model %+v, policy %+v", cfg.Model, cfg.Policy)
	}
	if s, ok := cfg.MCP.Servers["mem"]; !ok || s.Command != "npx" || strings.Join(s.Args, " ") != "-y @modelcontextprotocol/server-memory" {
		t.Errorf("servers = %+v", cfg.MCP.Servers)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}

	r = deckhand(t, nil, answers, "--config", path, "init")
	if r.code != exitUsage || !strings.Contains(r.stderr, "already exists") {
		t.Errorf("init over a config: exit %d\n%s", r.code, r.stderr)
	}
	before, _ := os.ReadFile(path)
	r = deckhand(t, nil, "3\n\nclaude-haiku-4-5\n\n\n\n", "--config", path, "init", "--force")
	if r.code != exitOK {
		t.Fatalf("init --force: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if bak, _ := os.ReadFile(path + ".bak"); string(bak) != string(before) {
		t.Errorf("the old config was not kept as .bak")
	}
	if cfg, err := config.Load(path); err != nil || cfg.Model.Provider != "anthropic" || cfg.Model.APIKeyEnv != "ANTHROPIC_API_KEY" || len(cfg.MCP.Servers) != 0 {
		t.Errorf("after --force: %v %+v", err, cfg)
	}

	other := filepath.Join(t.TempDir(), "c.toml")
	r = deckhand(t, nil, "4\n", "--config", other, "init")
	if r.code == exitOK || !strings.Contains(r.stderr, "Its address") {
		t.Errorf("input ended before the address: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(other); err == nil {
		t.Errorf("a config was written although init failed")
	}
}
