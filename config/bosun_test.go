package config

import (
	"path/filepath"
	"testing"
)

// ParseBosun never panics on any agent.toml nor any current config, and
// whatever it maps is a valid config: servers it adds pass validation.
func FuzzParseBosun(f *testing.F) {
	f.Add([]byte("[llm]\nprovider = \"anthropic\"\nmodel = \"m\"\n[[mcp_servers]]\nname = \"fs\"\ncommand = \"x\"\nargs = [\"./w\"]\n"), []byte("[model]\nname = \"n\"\n"))
	f.Add([]byte("[policy.fs]\nread_roots = [\"../a\"]\n[secrets]\nkeys = [\"OPENAI_API_KEY\"]\n"), []byte(""))
	f.Add([]byte("[[mcp_servers]]\nname = \"a b/c\"\ncommand = \"./srv\"\n"), []byte("[policy]\nfs.read_roots = [\"/x\"]\n"))
	f.Fuzz(func(t *testing.T, agent, current []byte) {
		rep, err := ParseBosun(filepath.Join(t.TempDir(), "agent.toml"), agent, current, nil)
		if err != nil {
			return
		}
		for _, a := range rep.Added {
			check := Config{MCP: MCP{Servers: map[string]Server{a.Alias: a.Server}}}
			if problems := validate(&check); len(problems) > 0 {
				t.Fatalf("added %q, which is not valid: %v", a.Alias, problems)
			}
		}
	})
}
