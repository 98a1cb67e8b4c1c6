package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeriveAlias: a lone script is named by its file ("x" for
// node /tmp/x.js, not "tmp", the folder); a package's entry point
// (dist/index.js, build/index.js, index.js, main.py) by its package's
// folder; odd and hostile inputs still give a valid alias.
func TestDeriveAlias(t *testing.T) {
	cmd := func(command string, args ...string) Server { return Server{Command: command, Args: args} }
	tests := []struct {
		name string
		srv  Server
		want string
	}{
		{"lone script in /tmp", cmd("node", "/tmp/x.js"), "x"},
		{"lone script, flags first", cmd("node", "--no-warnings", "/home/me/scripts/weather.mjs"), "weather"},
		{"lone python script", cmd("python3", "/home/me/bin/notes_tool.py"), "notes-tool"},
		{"lone script, relative", cmd("node", "./x.js"), "x"},
		{"script named for a server", cmd("python3", "/home/me/tools/github_server.py"), "github"},
		{"package's dist/index.js", cmd("node", "/x/node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"), "everything"},
		{"package's build/index.js", cmd("node", "/home/me/src/weather/build/index.js"), "weather"},
		{"package's index.js", cmd("node", "/home/me/weather/index.js"), "weather"},
		{"package's main.py", cmd("python", "/home/me/forecast/main.py"), "forecast"},
		{"package's server.js", cmd("node", "/srv/tides/server.js"), "tides"},
		{"entry point in /tmp", cmd("node", "/tmp/index.js"), "index"},
		{"entry point alone", cmd("node", "dist/index.js"), "index"},
		{"npx package", cmd("npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"), "filesystem"},
		{"npx package at a version", cmd("npx", "-y", "@modelcontextprotocol/server-memory@2026.8.31"), "memory"},
		{"uvx", cmd("uvx", "mcp-server-git", "--repository", "."), "git"},
		{"python -m, underscores", cmd("python3", "-m", "mcp_server_time"), "time"},
		{"docker image", cmd("docker", "run", "-i", "--rm", "ghcr.io/github/github-mcp-server"), "github"},
		{"program by path", cmd("/usr/local/bin/my_tool"), "my-tool"},
		{"URL", Server{URL: "https://api.example.com/mcp"}, "api-example-com"},
		{"local URL", Server{URL: "http://127.0.0.1:3001/sse"}, "local-3001"},
		// Odd and hostile: always a valid alias, never a path's parts.
		{"nothing", Server{}, "server"},
		{"empty argument", cmd("node", ""), "node"},
		{"slashes only", cmd("node", "///"), "node"},
		{"dots", cmd("node", "../../.."), "node"},
		{"a dot file", cmd("node", "/tmp/.js"), "node"},
		{"scope alone", cmd("npx", "@scope/"), "npx"},
		{"at sign alone", cmd("npx", "@"), "npx"},
		{"reserved name", cmd("/usr/bin/local"), "server"},
		{"double underscore", cmd("node", "/tmp/a__b.js"), "a-b"},
		{"control characters", cmd("node", "/tmp/\x1b[31mred\x1b[0m.js"), "31mred-0m"},
		{"unicode", cmd("node", "/tmp/ñandú.js"), "and"},
		{"unicode only", cmd("node", "/tmp/ñú.js"), "node"},
		{"very long", cmd("node", "/tmp/"+strings.Repeat("abc-", 20)+".js"), "abc-abc-abc-abc-abc-abc-abc-abc"},
		{"windows path", cmd("node", `C:\srv\tides\index.js`), "tides"},
		{"URL with no host", Server{URL: "http:///mcp"}, "server"},
		{"URL with credentials", Server{URL: "https://user:pw@mcp.example.com/"}, "mcp-example-com"},
	}
	var want, got []string
	for _, tt := range tests {
		a := DeriveAlias(tt.srv)
		if err := ValidAlias(a); err != nil {
			t.Errorf("DeriveAlias(%s) = %q, not a valid alias: %v", tt.name, a, err)
		}
		want = append(want, tt.name+": "+tt.want)
		got = append(got, tt.name+": "+a)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DeriveAlias (-want +got):\n%s", diff)
	}
}
