package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"deckhand/config"
)

// Bosun's agent.toml as its seed (section 6.1) gives it.
const bosunAgentTOML = `[storage]
path = "./agent.db"

[workspace]
root = "./workspace"

[llm]
provider = "anthropic"
model = "claude-sonnet-4-20250514"
max_context_tokens = 8000
max_response_tokens = 1200

[policy]
allow_exec = false
allow_network = true

[policy.fs]
read_roots = ["./workspace"]
write_roots = ["./workspace"]

[policy.net_http]
allow_domains = ["api.github.com"]

[secrets]
keys = ["ANTHROPIC_API_KEY", "GITHUB_TOKEN"]

# MCP servers (M1)
[[mcp_servers]]
name = "filesystem"
command = "mcp-filesystem"
args = ["--root", "./workspace"]

[[mcp_servers]]
name = "github"
command = "mcp-github"
args = []
`

// deckhand import bosun agent.toml maps Bosun's keys onto Deckhand's: the
// model, the workspace and roots (relative paths made absolute against
// agent.toml's folder), the allowed domains, the model's key and the other
// secrets, and the servers; what does not map is named with why; a setting
// the config already has is kept; --dry-run changes nothing.
func TestImportBosun(t *testing.T) {
	dir := t.TempDir()
	agent := filepath.Join(dir, "agent.toml")
	if err := os.WriteFile(agent, []byte(bosunAgentTOML), 0o600); err != nil {
		t.Fatal(err)
	}
	cfgPath := writeConfig(t, "# mine\n[model]\nbase_url = \"http://127.0.0.1:9/v1\"\n")
	before, _ := os.ReadFile(cfgPath)

	r := deckhand(t, nil, "", "--config", cfgPath, "import", "bosun", agent, "--dry-run")
	if r.code != exitOK || !strings.Contains(r.stdout, "Dry run") {
		t.Fatalf("dry run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if after, _ := os.ReadFile(cfgPath); string(after) != string(before) {
		t.Fatalf("--dry-run changed the config:\n%s", after)
	}

	r = deckhand(t, nil, "", "--config", cfgPath, "import", "bosun", agent)
	if r.code != exitOK {
		t.Fatalf("import: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"not mapped  policy.allow_network", "not mapped  storage.path",
		"added       filesystem", "added       github",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatalf("the config after import does not load: %v", err)
	}
	ws := filepath.Join(dir, "workspace")
	m, p := cfg.Model, cfg.Policy
	if m.Provider != "anthropic" || m.Name != "claude-sonnet-4-20250514" || m.MaxContextTokens != 8000 || m.MaxOutputTokens != 1200 ||
		m.APIKeyEnv != "ANTHROPIC_API_KEY" || m.BaseURL != "http://127.0.0.1:9/v1" {
		t.Errorf("model = %+v", m)
	}
	if p.Workspace != ws || !slices.Equal(p.FS.ReadRoots, []string{ws}) || !slices.Equal(p.FS.WriteRoots, []string{ws}) ||
		!slices.Equal(p.Net.AllowDomains, []string{"api.github.com"}) || !slices.Equal(p.Secrets.Keys, []string{"GITHUB_TOKEN"}) || p.AllowExec {
		t.Errorf("policy = %+v", p)
	}
	fs := cfg.MCP.Servers["filesystem"]
	if fs.Command != "mcp-filesystem" || !slices.Equal(fs.Args, []string{"--root", ws}) {
		t.Errorf("filesystem = %+v", fs)
	}
	if _, ok := cfg.MCP.Servers["github"]; !ok {
		t.Errorf("github was not added: %v", cfg.MCP.Servers)
	}
	if after, _ := os.ReadFile(cfgPath); !strings.HasPrefix(string(after), "# mine\n") {
		t.Errorf("the config's comment is gone:\n%s", after)
	}

	// Again: everything is set now, so everything is kept, and the servers'
	// names are taken.
	r = deckhand(t, nil, "", "--config", cfgPath, "import", "bosun", agent)
	if r.code != exitOK || !strings.Contains(r.stdout, "kept the config's own model.name") ||
		!strings.Contains(r.stdout, `alias "filesystem" is already in the config`) {
		t.Errorf("second import: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// Not Bosun's, or broken: named.
	other := filepath.Join(dir, "other.toml")
	os.WriteFile(other, []byte("[something]\nx = 1\n"), 0o600)
	r = deckhand(t, nil, "", "--config", cfgPath, "import", other)
	if r.code == exitOK || !strings.Contains(r.stderr, "other.toml: not a Bosun agent.toml") {
		t.Errorf("a TOML file that is not Bosun's: exit %d\n%s", r.code, r.stderr)
	}
	os.WriteFile(other, []byte("[llm\n"), 0o600)
	r = deckhand(t, nil, "", "--config", cfgPath, "import", "bosun", other)
	if r.code == exitOK || !strings.Contains(r.stderr, "other.toml") {
		t.Errorf("a broken agent.toml: exit %d\n%s", r.code, r.stderr)
	}
}
