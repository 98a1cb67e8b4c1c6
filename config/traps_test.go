package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestConfigTraps(t *testing.T) {
	for _, tc := range []struct {
		name, toml, want string
	}{
		{"tool_timeout without unit", "[mcp]\ntool_timeout = 60\n", `mcp.tool_timeout: a duration needs a unit: write "60s"`},
		{"connect_timeout without unit", "[mcp]\nconnect_timeout = 30\n", "mcp.connect_timeout: a duration needs a unit"},
		{"approval_timeout without unit", "[mcp]\napproval_timeout = 120\n", "mcp.approval_timeout: a duration needs a unit"},
		{"a float", "[model]\nstream_timeout = 1.5\n", "model.stream_timeout: a duration needs a unit"},
		{"reconnect", "[mcp.reconnect]\nmax = 60\n", "mcp.reconnect.max: a duration needs a unit"},
		{"a server's timeout", "[mcp.servers.fs]\ncommand = \"x\"\ntimeout = 10\n", "mcp.servers.fs.timeout: a duration needs a unit"},
		{"env as a list", "[mcp.servers.fs]\ncommand = \"x\"\nenv = [\"A=1\"]\n", `mcp.servers.fs.env: env is a table of variables: write env = { NAME = "value" }`},
		{"too deep", "a = " + strings.Repeat("{b = ", 40) + "1" + strings.Repeat("}", 40) + "\n", "nested more than 32 deep"},
		{"too big", "# " + strings.Repeat("x", MaxFileSize) + "\n", "more than a config can be"},
	} {
		_, err := Parse("config.toml", []byte(tc.toml))
		var ce *Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "config.toml") {
			t.Errorf("%s: Parse = %v, want an error naming the file and %q", tc.name, err, tc.want)
		}
	}
	// What is right stays right.
	if c, err := Parse("ok.toml", []byte("[mcp]\ntool_timeout = \"60s\"\n[mcp.servers.fs]\ncommand = \"x\"\nenv = { A = \"1\" }\n# [[[[ in a comment\nargs = [\"[[[[{{{{\", '''\n]]]]\n''']\n")); err != nil {
		t.Errorf("a good config: %v", err)
	} else if c.MCP.ToolTimeout.String() != "1m0s" || c.MCP.Servers["fs"].Env["A"] != "1" {
		t.Errorf("decoded %v, %v", c.MCP.ToolTimeout, c.MCP.Servers["fs"].Env)
	}
}

// A 48 KB file of 8,000 nested inline tables is refused before parsing.
func TestNestingBomb(t *testing.T) {
	bomb := "a = " + strings.Repeat("{b=", 8000) + "1" + strings.Repeat("}", 8000) + "\n"
	_, err := Parse("bomb.toml", []byte(bomb))
	if err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("Parse(bomb) = %v", err)
	}
}

// FuzzDepth: the scanner never panics, and it accepts whatever the TOML
// parser accepts at a depth the scanner's limit allows.
func FuzzDepth(f *testing.F) {
	for _, s := range []string{
		"a = [1, [2, [3]]]", "a = {b = {c = 1}}", "a = \"[[[[\"", "a = '''\n[[[\n'''", "# [[[\na = 1",
		"[t]\n[[u]]\nx = \"\\\"[\"", "a = \"\"\"x\"\"\"\"\"", `a = "unterminated`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, ok := depthWithin([]byte(s), 4)
		var v map[string]any
		if _, err := toml.Decode(s, &v); err == nil && !ok && depth(v) <= 1 {
			t.Fatalf("the scanner refused %q, which parses with depth %d", s, depth(v))
		}
	})
}

// depth is how deeply a decoded value nests arrays and tables.
func depth(v any) int {
	d := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			d = max(d, depth(e))
		}
		return d + 1
	case []any:
		for _, e := range v {
			d = max(d, depth(e))
		}
		return d + 1
	case []map[string]any:
		for _, e := range v {
			d = max(d, depth(e))
		}
		return d + 2
	}
	return 0
}
