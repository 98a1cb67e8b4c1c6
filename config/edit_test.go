package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestUpdate(t *testing.T) {
	orig := `# my deckhand
[model]
base_url = "http://old/v1" # the old one
name = "old"

[mcp]
tool_timeout = "30s"

[mcp.auto_approve]
# trusted tools
"fs.read_text_file" = true

[mcp.servers.fs]
command = "npx"
`
	path := filepath.Join(t.TempDir(), "config.toml")
	os.WriteFile(path, []byte(orig), 0o600)
	err := Update(path, []Edit{
		{"model", "base_url", "http://127.0.0.1:11434/v1"},
		{"model", "name", "llama3.1"},
		{"model", "api_key_env", "OLLAMA_KEY"},
		{"model", "max_context_tokens", 16000},
		{"mcp", "approval_timeout", 45 * time.Second},
		{"mcp", "tool_timeout", nil},
	}, map[string]map[string]any{"mcp.auto_approve": {"fs.*": true, "git.push": false}})
	if err != nil {
		t.Fatalf("Update() = %v", err)
	}
	data, _ := os.ReadFile(path)
	c, err := Load(path)
	if err != nil {
		t.Fatalf("Load after Update = %v\n%s", err, data)
	}
	if c.Model.BaseURL != "http://127.0.0.1:11434/v1" || c.Model.Name != "llama3.1" || c.Model.APIKeyEnv != "OLLAMA_KEY" || c.Model.MaxContextTokens != 16000 {
		t.Errorf("model = %+v", c.Model)
	}
	if c.MCP.ApprovalTimeout != 45*time.Second || c.MCP.ToolTimeout != DefaultToolTimeout {
		t.Errorf("mcp = %+v", c.MCP)
	}
	if len(c.MCP.AutoApprove) != 2 || !c.MCP.AutoApprove["fs.*"] || c.MCP.AutoApprove["git.push"] {
		t.Errorf("auto_approve = %v", c.MCP.AutoApprove)
	}
	text := string(data)
	for _, keep := range []string{"# my deckhand", "# trusted tools", "[mcp.servers.fs]\ncommand = \"npx\""} {
		if !strings.Contains(text, keep) {
			t.Errorf("Update lost %q:\n%s", keep, text)
		}
	}
}

func TestUpdateNewFileAndTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "config.toml")
	if err := Update(path, []Edit{{"model", "name", "m"}, {"model", "base_url", "http://h/v1"}}, map[string]map[string]any{"mcp.auto_approve": {"a.b": true}}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil || c.Model.Name != "m" || !c.MCP.AutoApprove["a.b"] {
		t.Errorf("Load = %+v, %v", c, err)
	}
}

func TestUpdateRefusesWhatItCannotEdit(t *testing.T) {
	dir := t.TempDir()
	inline := filepath.Join(dir, "inline.toml")
	os.WriteFile(inline, []byte(`model = { name = "x", base_url = "http://h/v1" }`+"\n"), 0o600)
	if err := Update(inline, []Edit{{"model", "name", "y"}}, nil); !errors.Is(err, ErrNotEditable) {
		t.Errorf("Update(inline table) = %v, want ErrNotEditable", err)
	}
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[model]\nname = \"x\"\n"), 0o600)
	if err := Update(bad, []Edit{{"model", "base_url", "not a url"}}, nil); err == nil || !strings.Contains(err.Error(), "model.base_url: not a valid URL") {
		t.Errorf("Update(invalid value) = %v", err)
	}
	if data, _ := os.ReadFile(bad); string(data) != "[model]\nname = \"x\"\n" {
		t.Errorf("a refused Update changed the file: %q", data)
	}
}

func FuzzUpdate(f *testing.F) {
	f.Add("[model]\nname = \"x\"\n[mcp.servers.a]\ncommand = \"c\"\n", "llama")
	f.Add("model.name = \"x\"\n", "y")
	f.Add("[mcp.auto_approve]\n\"a.b\" = true\n# c\n", "z")
	f.Fuzz(func(t *testing.T, file, name string) {
		if !utf8.ValidString(name) {
			return // TOML text is UTF-8
		}
		path := filepath.Join(t.TempDir(), "c.toml")
		os.WriteFile(path, []byte(file), 0o600)
		err := Update(path, []Edit{{"model", "name", name}}, map[string]map[string]any{"mcp.auto_approve": {"x.y": true}})
		if err != nil {
			return
		}
		c, err := Load(path)
		if err != nil {
			t.Fatalf("Update succeeded but the file does not load: %v", err)
		}
		if c.Model.Name != name || !c.MCP.AutoApprove["x.y"] {
			t.Fatalf("after Update: name %q, auto_approve %v", c.Model.Name, c.MCP.AutoApprove)
		}
	})
}
