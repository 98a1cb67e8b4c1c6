package config

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

func TestConfigTraps(t *testing.T) {
	for _, tc := range []struct {
		name, toml, want string
	}{
		{"tool_timeout without unit", "[mcp]\ntool_timeout = 60\n", `config.toml: mcp.tool_timeout: a duration needs a unit: write "60s", not 60`},
		{"connect_timeout without unit", "[mcp]\nconnect_timeout = 30\n", `config.toml: mcp.connect_timeout: a duration needs a unit: write "30s", not 30`},
		{"approval_timeout without unit", "[mcp]\napproval_timeout = 120\n", `config.toml: mcp.approval_timeout: a duration needs a unit: write "120s", not 120`},
		{"a float", "[model]\nstream_timeout = 1.5\n", `config.toml: model.stream_timeout: a duration needs a unit: write "1.5s", not 1.5`},
		{"reconnect", "[mcp.reconnect]\nmax = 60\n", "config.toml: mcp.reconnect.max: a duration needs a unit"},
		{"reconnect inline", "[mcp]\nreconnect = { initial = 2 }\n", "config.toml: mcp.reconnect.initial: a duration needs a unit"},
		{"a server's timeout", "[mcp.servers.fs]\ncommand = \"x\"\ntimeout = 10\n", `config.toml: mcp.servers.fs.timeout: a duration needs a unit: write "10s"`},
		{"a server's connect_timeout", "[mcp.servers.fs]\ncommand = \"x\"\nconnect_timeout = 5\n", `config.toml: mcp.servers.fs.connect_timeout: a duration needs a unit: write "5s"`},
		{"env as a list", "[mcp.servers.fs]\ncommand = \"x\"\nenv = [\"A=1\", \"B=x y\"]\n", `config.toml: mcp.servers.fs.env: env must be a table of variables: write env = { A = "1", B = "x y" }`},
		{"auto_approve as a list", "[mcp]\nauto_approve = [\"fs.*\", \"git.status\"]\n", `config.toml: mcp.auto_approve: auto_approve must be a table, not an array: write auto_approve = { "fs.*" = true, "git.status" = true }`},
		{"env as a string", "[mcp.servers.fs]\ncommand = \"x\"\nenv = \"A=1\"\n", `config.toml: mcp.servers.fs.env: env must be a table of variables: write env = { NAME = "value" }`},
		{"too deep", "a = " + strings.Repeat("{b = ", 40) + "1" + strings.Repeat("}", 40) + "\n", "config.toml:1: arrays and tables are nested more than 32 deep"},
		{"too deep, on line 3", "x = 1\n\na = " + strings.Repeat("[", 33) + strings.Repeat("]", 33) + "\n", "config.toml:3: arrays and tables are nested more than 32 deep"},
		{"too big", "# " + strings.Repeat("x", MaxFileSize) + "\n", "config.toml: the file is 1048579 bytes, more than a config can be"},
		{"unknown key", "[mcp]\ntool_timout = \"60s\"\n", "config.toml: mcp.tool_timout: unknown key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("config.toml", []byte(tc.toml))
			var ce *Error
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) && !strings.Contains(withoutLines(err.Error()), tc.want) {
				t.Errorf("Parse(%.80q) = %.300v, want an *Error containing %q", tc.toml, err, tc.want)
			}
		})
	}
}

// What is right stays right: durations with units, env as a table, and
// brackets in strings and comments, which do not count as nesting.
func TestConfigTrapsAllowed(t *testing.T) {
	deep := strings.Repeat("[", 40)
	for _, tc := range []struct {
		name, toml string
	}{
		{"units", "[model]\nstream_timeout = \"2m\"\n[mcp]\ntool_timeout = \"60s\"\nconnect_timeout = \"500ms\"\n"},
		{"env table", "[mcp.servers.fs]\ncommand = \"x\"\nenv = { A = \"1\" }\n"},
		{"env section", "[mcp.servers.fs]\ncommand = \"x\"\n[mcp.servers.fs.env]\nA = \"1\"\n"},
		{"brackets in strings and comments", "[mcp.servers.fs]\ncommand = \"x\"\n# " + deep + "\nargs = [\"" + deep + "\", '" + deep + "', '''\n" + deep + "\n''', \"\"\"\n\\\"" + deep + "\"\"\"\"]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse("ok.toml", []byte(tc.toml)); err != nil {
				t.Errorf("Parse(%q) = %v, want no error", tc.toml, err)
			}
		})
	}
	// 32 deep is allowed (the decoder then says what is wrong with it).
	in := "a = " + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "\n"
	if _, err := Parse("ok.toml", []byte(in)); err == nil || strings.Contains(err.Error(), "nested") {
		t.Errorf("Parse(%q) = %v, want only unknown key", in, err)
	}
	c, err := Parse("ok.toml", []byte("[mcp]\ntool_timeout = \"60s\"\n[mcp.servers.fs]\ncommand = \"x\"\nenv = { A = \"1\" }\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.MCP.ToolTimeout != time.Minute || c.MCP.Servers["fs"].Env["A"] != "1" {
		t.Errorf("Parse = tool_timeout %v, env %v, want 1m0s, A=1", c.MCP.ToolTimeout, c.MCP.Servers["fs"].Env)
	}
}

func TestDepthWithin(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		ok       bool
	}{
		{"at the limit", "a = [[[[1]]]]", true},
		{"over the limit", "a = [[[[[1]]]]]", false},
		{"inline tables", "a = {b={c={d={e=1}}}}", true},
		{"inline tables over the limit", "a = {b={c={d={e={f=1}}}}}", false},
		{"basic string", `a = "[[[[[["`, true},
		{"escaped quote", `a = "\"[[[[[["`, true},
		{"literal string", `a = '[[[[[[\'`, true},
		{"multi-line basic", "a = \"\"\"\n[[[[[[\n\"\"\"", true},
		{"multi-line literal", "a = '''\n[[[[[[\n'''", true},
		{"quotes ending a multi-line string", "a = '''x'''''\nb = [[[[[1]]]]]", false},
		{"comment", "# [[[[[[\na = 1", true},
		{"after a comment", "# x\na = [[[[[1]]]]]", false},
		{"backslash at a line's end", "a = \"x\\\nb = [[[[[1]]]]]\n\"", false},
		{"quoted key", `"[[[[[[" = 1`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := depthWithin([]byte(tc.in), 4); ok != tc.ok {
				t.Errorf("depthWithin(%q, 4) = %v, want %v", tc.in, ok, tc.ok)
			}
		})
	}
}

// A 48 KB file of 8,000 nested inline tables is refused before parsing.
func TestNestingBomb(t *testing.T) {
	bomb := "a = " + strings.Repeat("{b=", 8000) + "1" + strings.Repeat("}", 8000) + "\n"
	_, err := Parse("bomb.toml", []byte(bomb))
	if err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("Parse(bomb) = %v, want nested more than", err)
	}
}

// FuzzDepth: the scanner never panics, and it accepts whatever the TOML
// parser accepts at a depth the scanner's limit allows.
func FuzzDepth(f *testing.F) {
	for _, s := range []string{
		"a = [1, [2, [3]]]", "a = {b = {c = 1}}", "a = \"[[[[\"", "a = '''\n[[[\n'''", "# [[[\na = 1",
		"[t]\n[[u]]\nx = \"\\\"[\"", "a = \"\"\"x\"\"\"\"\"", `a = "unterminated`, "a = [[[[1]]]]",
		"[a.b.c]\nd = [{e = [1]}]", "a = \"x\\\nb = [[[[[1]]]]]\n\"", "\"[[\".'{{' = 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		const limit = 4
		_, ok := depthWithin([]byte(s), limit)
		if ok || len(s) > 4096 {
			return
		}
		// The document itself is the outermost table, which the scanner
		// does not count.
		var v map[string]any
		if _, err := toml.Decode(s, &v); err == nil && depth(v)-1 <= limit {
			t.Fatalf("depthWithin(%q, %d) refused it, but it parses with depth %d", s, limit, depth(v)-1)
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
