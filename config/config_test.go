package config

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseValid(t *testing.T) {
	tests := []struct {
		name string
		toml string
		want Config
	}{
		{
			name: "empty file is the zero config with defaults",
			toml: "",
			want: Config{
				Model: Model{Provider: "openai", MaxContextTokens: DefaultContextTokens, StreamTimeout: DefaultStreamTimeout},
				MCP: MCP{
					ToolTimeout:     DefaultToolTimeout,
					ConnectTimeout:  DefaultConnectTimeout,
					Reconnect:       Backoff{DefaultReconnectInitial, DefaultReconnectMax},
					MaxToolDepth:    DefaultMaxToolDepth,
					MaxOutputBytes:  DefaultMaxOutputBytes,
					ApprovalTimeout: DefaultApprovalTimeout,
				},
				Shell: Shell{Program: "/bin/sh"},
			},
		},
		{
			name: "design sketch",
			toml: `
[model]
provider = "openai"
base_url = "http://127.0.0.1:8080/v1"
name = "mistral-nemo"
api_key_env = "OPENAI_API_KEY"
max_context_tokens = 16000
temperature = 0.2
max_retries = 0

[mcp]
max_tool_depth = 4
approval_timeout = "30s"
tool_timeout = "90s"
reconnect = { initial = "1s", max = "1m" }

[mcp.auto_approve]
"fs.read_text_file" = true
"boltzmann.*" = true
"local.exec" = false

[mcp.servers.fs]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
read_only = ["read_text_file", "list_directory"]
env = { NODE_OPTIONS = "--max-old-space-size=256" }

[mcp.servers.boltzmann]
url = "http://boltzmann:8080/mcp"
auth_env = "BOLTZMANN_TOKEN"
trusted = true
timeout = "5m"

[mcp.servers.legacy]
url = "https://example.com/sse"
transport = "sse"
auth_token = "literal"
read_only = true
disabled = true
`,
			want: Config{Model: Model{
				Provider: "openai", BaseURL: "http://127.0.0.1:8080/v1", Name: "mistral-nemo", APIKeyEnv: "OPENAI_API_KEY",
				MaxContextTokens: 16000, Temperature: ptr(0.2), MaxRetries: ptr(0),
			}, MCP: MCP{
				ToolTimeout:     90 * time.Second,
				Reconnect:       Backoff{time.Second, time.Minute},
				MaxToolDepth:    4,
				ApprovalTimeout: 30 * time.Second,
				AutoApprove:     map[string]bool{"fs.read_text_file": true, "boltzmann.*": true, "local.exec": false},
				Servers: map[string]Server{
					"fs": {
						Command:  "npx",
						Args:     []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"},
						Env:      map[string]string{"NODE_OPTIONS": "--max-old-space-size=256"},
						ReadOnly: ReadOnly{Tools: []string{"read_text_file", "list_directory"}},
					},
					"boltzmann": {URL: "http://boltzmann:8080/mcp", AuthEnv: "BOLTZMANN_TOKEN", Trusted: true, Timeout: 5 * time.Minute},
					"legacy":    {URL: "https://example.com/sse", Transport: "sse", AuthToken: "literal", ReadOnly: ReadOnly{All: true}, Disabled: true},
				},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("config.toml", []byte(tt.toml))
			if err != nil {
				t.Fatalf("Parse() error = %v", err)
			}
			tt.want.ApplyDefaults()
			if diff := cmp.Diff(&tt.want, got); diff != "" {
				t.Errorf("Parse() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		toml string
		want []string // each must appear in the error, in this order
	}{
		{"bad url", "[mcp.servers.fs]\nurl = \"not a url\"", []string{"config.toml: mcp.servers.fs.url: not a valid URL"}},
		{"ftp url", "[mcp.servers.fs]\nurl = \"ftp://x/y\"", []string{"config.toml: mcp.servers.fs.url: not a valid URL"}},
		{"unknown key", "[mcp.servers.fs]\ncomand = \"npx\"", []string{"config.toml: mcp.servers.fs.comand: unknown key", "config.toml: mcp.servers.fs.command: set command"}},
		{"unknown section", "[modle]\nname = \"x\"", []string{"config.toml: modle.name: unknown key"}},
		{"bad duration", "[mcp]\ntool_timeout = \"5 minutes\"", []string{"config.toml:2: mcp.tool_timeout:", "invalid duration"}},
		{"negative duration", "[mcp]\ntool_timeout = \"-5s\"", []string{"config.toml: mcp.tool_timeout: must not be negative"}},
		{"wrong type", "[mcp.servers.fs]\ncommand = \"x\"\nargs = \"-y\"", []string{"config.toml:3: mcp.servers.fs.args:"}},
		{"syntax error", "[mcp\n", []string{"config.toml:2: expected '.' or ']'"}},
		{"neither command nor url", "[mcp.servers.fs]\ntrusted = true", []string{"config.toml: mcp.servers.fs.command: set command (a local server) or url (a remote one)"}},
		{"both command and url", "[mcp.servers.fs]\ncommand = \"x\"\nurl = \"http://h/mcp\"", []string{"mcp.servers.fs.url: set command or url, not both"}},
		{"bad alias", "[mcp.servers.\"a.b\"]\ncommand = \"x\"", []string{`config.toml: mcp.servers."a.b": not a valid server alias`}},
		{"double underscore alias", "[mcp.servers.a__b]\ncommand = \"x\"", []string{`mcp.servers.a__b: not a valid server alias`}},
		{"reserved alias", "[mcp.servers.local]\ncommand = \"x\"", []string{`mcp.servers.local: not a valid server alias`}},
		{"bad transport", "[mcp.servers.r]\nurl = \"http://h/mcp\"\ntransport = \"websocket\"", []string{"mcp.servers.r.transport: must be one of: auto, streamable, sse, stdio"}},
		{"stdio transport with url", "[mcp.servers.r]\nurl = \"http://h/mcp\"\ntransport = \"stdio\"", []string{"mcp.servers.r.transport: transport \"stdio\" needs command"}},
		{"http transport with command", "[mcp.servers.r]\ncommand = \"x\"\ntransport = \"sse\"", []string{"mcp.servers.r.transport: a command server speaks stdio"}},
		{"auth on command", "[mcp.servers.r]\ncommand = \"x\"\nauth_env = \"TOKEN\"", []string{"mcp.servers.r.auth_env: applies to url servers only"}},
		{"both auths", "[mcp.servers.r]\nurl = \"http://h/mcp\"\nauth_env = \"TOKEN\"\nauth_token = \"t\"", []string{"mcp.servers.r.auth_env: set auth_token or auth_env, not both"}},
		{"bad env name", "[mcp.servers.r]\nurl = \"http://h/mcp\"\nauth_env = \"MY-TOKEN\"", []string{"mcp.servers.r.auth_env: not a valid environment variable name"}},
		{"args on url", "[mcp.servers.r]\nurl = \"http://h/mcp\"\nargs = [\"x\"]", []string{"mcp.servers.r.args: applies to command servers only"}},
		{"bad read_only", "[mcp.servers.r]\ncommand = \"x\"\nread_only = 3", []string{"mcp.servers.r.read_only: want true, false or a list of tool names"}},
		{"backoff order", "[mcp.reconnect]\ninitial = \"10s\"\nmax = \"1s\"", []string{"mcp.reconnect.max: must not be less than initial"}},
		{"bad approve rule", "[mcp.auto_approve]\n\"fs\" = true", []string{`config.toml: mcp.auto_approve.fs: not an auto_approve rule`}},
		{"bad local rule", "[mcp.auto_approve]\n\"local.rm\" = true", []string{`mcp.auto_approve."local.rm": not an auto_approve rule`}},
		{"bad model url", "[model]\nbase_url = \"localhost:8080\"", []string{"config.toml: model.base_url: not a valid URL"}},
		{"bad provider", "[model]\nprovider = \"gemini\"", []string{"config.toml: model.provider: must be one of: openai, anthropic"}},
		{"bad lazy", "[mcp]\nlazy = \"sometimes\"", []string{"config.toml: mcp.lazy: must be one of: auto, always, never"}},
		{"bad lazy share", "[mcp]\nlazy_share = 2.0", []string{"config.toml: mcp.lazy_share: is too large"}},
		{"negative unload_after", "[mcp]\nunload_after = -1", []string{"config.toml: mcp.unload_after: must not be negative"}},
		{"bad eager", "[mcp]\neager = [\"fs\", \"local.exec\"]", []string{`mcp.eager[0]: not a tool: want "alias.tool" or "alias.*"`, `mcp.eager[1]: not a tool`}},
		{"bad connect", "[mcp.servers.r]\nurl = \"http://h/mcp\"\nconnect = \"later\"", []string{"mcp.servers.r.connect: must be one of: start, on_demand"}},
		{"relative command", "[mcp.servers.r]\ncommand = \"./srv.py\"", []string{"config.toml:2: mcp.servers.r.command: a relative path runs whatever is there in the folder Deckhand is started from"}},
		{"relative command in a folder", "[mcp.servers.r]\ncommand = \"bin/srv\"", []string{"mcp.servers.r.command: a relative path runs whatever"}},
		{"shell commands unasked", "[mcp.auto_approve]\n\"local.exec\" = true", []string{`mcp.auto_approve."local.exec": shell commands (CMD: lines) are asked every time`}},
		{"too many retries", "[model]\nmax_retries = 50", []string{"config.toml: model.max_retries: is too large (at most 10)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("config.toml", []byte(tt.toml))
			if err == nil {
				t.Fatalf("Parse(%q) succeeded, want an error", tt.toml)
			}
			var cerr *Error
			if !errors.As(err, &cerr) {
				t.Fatalf("Parse() error is %T, want *Error", err)
			}
			msg := err.Error()
			rest := msg
			for _, w := range tt.want {
				if !regexp.MustCompile(`\.toml:\d+:`).MatchString(w) {
					rest = withoutLines(rest) // the test names no line: compare without them
				}
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("Parse() error =\n%s\nwant it to contain (in order) %q", msg, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)

	c, err := Load("")
	if err != nil {
		t.Fatalf("Load(\"\") with no file = %v, want the zero config", err)
	}
	if want := filepath.Join(dir, "deckhand", "config.toml"); c.Path != want {
		t.Errorf("Load(\"\").Path = %q, want %q", c.Path, want)
	}
	if len(c.MCP.Servers) != 0 || c.MCP.ToolTimeout != DefaultToolTimeout {
		t.Errorf("Load(\"\") = %+v, want no servers and defaults", c.MCP)
	}

	missing := filepath.Join(dir, "nope.toml")
	if _, err := Load(missing); err == nil || !strings.Contains(err.Error(), "nope.toml") {
		t.Errorf("Load(%q) = %v, want an error naming the file", missing, err)
	}

	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[mcp.servers.x]\nurl = \"::\"\n"), 0o600)
	if _, err := Load(bad); err == nil || !strings.HasPrefix(err.Error(), bad+":2: mcp.servers.x.url: not a valid URL") {
		t.Errorf("Load(bad) = %v, want %q first", err, bad+":2: mcp.servers.x.url: not a valid URL")
	}
}

// withoutLines drops the line numbers of an error's "file:line:" places.
func withoutLines(s string) string {
	return regexp.MustCompile(`(\.toml):\d+:`).ReplaceAllString(s, "$1:")
}

// Every problem names the line it is on, unknown keys and values the
// validator refused included (the decoder keeps no positions for them).
func TestProblemLines(t *testing.T) {
	for _, tc := range []struct {
		toml string
		want string
	}{
		{"[model]\nname = \"x\"\nmodle = \"oops\"\n", "config.toml:3: model.modle: unknown key"},
		{"# a comment\n\n[modle]\nname = \"x\"\n", "config.toml:4: modle.name: unknown key"},
		{"[mcp.servers.fs]\ncommand = \"x\"\n\n[mcp.servers.web]\nurl = \"nope\"\n", "config.toml:5: mcp.servers.web.url: not a valid URL"},
		{"[mcp.servers.\"a b\"]\ncommand = \"x\"\n", `config.toml:1: mcp.servers."a b": not a valid server alias`},
		{"[mcp]\nreconnect = { initial = \"10s\", max = \"1s\" }\n", "config.toml:2: mcp.reconnect.max"},
	} {
		_, err := Parse("config.toml", []byte(tc.toml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %q", tc.toml, err, tc.want)
		}
	}
}

func TestAddServers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "config.toml")

	// A new file is created with mode 0600.
	if err := AddServers(path, map[string]Server{"everything": {Command: "node", Args: []string{"dist/index.js", "stdio"}}}); err != nil {
		t.Fatalf("AddServers(new file) = %v", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("new config mode = %v, want 0600", st.Mode().Perm())
	}

	// Existing text and comments survive.
	orig := "# my servers\n[mcp]\ntool_timeout = \"10s\" # short\n\n[mcp.servers.fs]\ncommand = \"npx\"\n"
	os.WriteFile(path, []byte(orig), 0o600)
	add := map[string]Server{
		"remote": {URL: "https://h.example/mcp?key=1", AuthEnv: "REMOTE_TOKEN", Timeout: 90 * time.Second, ReadOnly: ReadOnly{Tools: []string{"get"}}},
		"odd":    {Command: `C:\tools\x "y".exe`, Env: map[string]string{"A": "line\nbreak"}, ReadOnly: ReadOnly{All: true}},
	}
	if err := AddServers(path, add); err != nil {
		t.Fatalf("AddServers() = %v", err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), orig) {
		t.Errorf("AddServers() changed the existing text:\n%s", data)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatalf("Load after AddServers = %v\n%s", err, data)
	}
	for alias, want := range add {
		if diff := cmp.Diff(want, c.MCP.Servers[alias]); diff != "" {
			t.Errorf("server %s after round trip (-want +got):\n%s", alias, diff)
		}
	}

	// Duplicates and invalid entries are refused and leave the file alone.
	if err := AddServers(path, map[string]Server{"fs": {Command: "x"}}); !errors.Is(err, ErrAliasExists) {
		t.Errorf("AddServers(duplicate) = %v, want ErrAliasExists", err)
	}
	if err := AddServers(path, map[string]Server{"bad": {URL: "nope"}}); err == nil || !strings.Contains(err.Error(), "mcp.servers.bad.url: not a valid URL") {
		t.Errorf("AddServers(invalid) = %v, want a URL error", err)
	}
	after, _ := os.ReadFile(path)
	if string(after) != string(data) {
		t.Errorf("a refused AddServers changed the file")
	}
}

func TestParseImport(t *testing.T) {
	claude := `{
  "mcpServers": {
    "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "~/Desktop"]},
    "github.com": {"command": "docker", "args": ["run", "-i", "ghcr.io/github/github-mcp-server"], "env": {"GITHUB_TOKEN": "${env:GITHUB_TOKEN}", "LOG": "1"}},
    "remote": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${env:API_TOKEN}"}},
    "weird": {"url": "https://x.example/mcp", "headers": {"X-Api-Key": "k"}},
    "fs": {"command": "already-there"},
    "empty": {}
  }
}`
	vscode := `{
  // VS Code allows comments
  "inputs": [{"type": "promptString", "id": "key", "password": true}],
  "servers": {
    "memory": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],},
    "old": {"type": "sse", "url": "http://localhost:3001/sse"},
    "secret": {"type": "http", "url": "https://s.example/mcp", "headers": {"Authorization": "Bearer ${input:key}"}},
    "ws": {"command": "node", "args": ["${workspaceFolder}/server.js"]},
    "local": {"command": "x"},
  }
}`
	existing := map[string]Server{"fs": {Command: "y"}}
	tests := []struct {
		name        string
		data        string
		wantFormat  string
		wantAdded   map[string]Server
		wantSkipped map[string]string // name -> part of reason
	}{
		{
			name:       "claude desktop",
			data:       claude,
			wantFormat: "Claude Desktop",
			wantAdded: map[string]Server{
				"filesystem": {Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/u/Desktop"}},
				"github-com": {Command: "docker", Args: []string{"run", "-i", "ghcr.io/github/github-mcp-server"}, Env: map[string]string{"LOG": "1"}},
				"remote":     {URL: "https://api.example.com/mcp", Transport: "streamable", AuthEnv: "API_TOKEN"},
			},
			wantSkipped: map[string]string{
				"weird": `header "X-Api-Key" is not supported`,
				"fs":    "already in the config",
				"empty": "neither command nor url",
			},
		},
		{
			name:       "vs code",
			data:       vscode,
			wantFormat: "VS Code",
			wantAdded: map[string]Server{
				"memory":    {Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"}},
				"old":       {URL: "http://localhost:3001/sse", Transport: "sse"},
				"mcp-local": {Command: "x"},
			},
			wantSkipped: map[string]string{
				"secret": "${input:key}",
				"ws":     "${workspaceFolder}",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := ParseImport("in.json", []byte(tt.data), "/home/u", existing)
			if err != nil {
				t.Fatalf("ParseImport() = %v", err)
			}
			if rep.Format != tt.wantFormat {
				t.Errorf("Format = %q, want %q", rep.Format, tt.wantFormat)
			}
			added := map[string]Server{}
			for _, a := range rep.Added {
				added[a.Alias] = a.Server
			}
			if diff := cmp.Diff(tt.wantAdded, added); diff != "" {
				t.Errorf("added (-want +got):\n%s", diff)
			}
			skipped := map[string]string{}
			for _, s := range rep.Skipped {
				skipped[s.Name] = s.Reason
			}
			if len(skipped) != len(tt.wantSkipped) {
				t.Errorf("skipped = %v, want %d entries", skipped, len(tt.wantSkipped))
			}
			for name, part := range tt.wantSkipped {
				if !strings.Contains(skipped[name], part) {
					t.Errorf("skipped[%q] = %q, want it to mention %q", name, skipped[name], part)
				}
			}
		})
	}

	if _, err := ParseImport("x.json", []byte(`{"other": {}}`), "", nil); err == nil || !strings.Contains(err.Error(), "mcpServers") {
		t.Errorf("ParseImport(no servers) = %v, want an error naming mcpServers", err)
	}
	if _, err := ParseImport("x.json", []byte(`{`), "", nil); err == nil || !strings.HasPrefix(err.Error(), "x.json: not valid JSON") {
		t.Errorf("ParseImport(broken) = %v, want a JSON error naming the file", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("")
	f.Add("[mcp.servers.fs]\ncommand = \"npx\"\nargs = [\"-y\"]\nread_only = true\n")
	f.Add("[mcp]\ntool_timeout = \"5s\"\n[mcp.servers.r]\nurl = \"http://h/mcp\"\nauth_env = \"T\"\n")
	f.Add("[mcp.servers.\"a.b\"]\nread_only = [1]\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse("fuzz.toml", []byte(s))
		if err != nil {
			var cerr *Error
			if !errors.As(err, &cerr) || len(cerr.Problems) == 0 {
				t.Fatalf("Parse() error %v is not a *Error with problems", err)
			}
			return
		}
		// Whatever parses must satisfy the invariants the rest of Deckhand relies on.
		for alias, srv := range c.MCP.Servers {
			if ValidAlias(alias) != nil {
				t.Fatalf("accepted invalid alias %q", alias)
			}
			if (srv.Command == "") == (srv.URL == "") {
				t.Fatalf("server %q: accepted command=%q url=%q", alias, srv.Command, srv.URL)
			}
		}
		if c.MCP.ToolTimeout <= 0 || c.MCP.Reconnect.Max < c.MCP.Reconnect.Initial {
			t.Fatalf("defaults not applied: %+v", c.MCP)
		}
	})
}

func FuzzParseImport(f *testing.F) {
	f.Add(`{"mcpServers": {"a": {"command": "x", "args": ["${userHome}/y"]}}}`)
	f.Add(`{"servers": {"b": {"type": "http", "url": "http://h", "headers": {"Authorization": "Bearer t"}}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		rep, err := ParseImport("fuzz.json", []byte(s), "/home/u", nil)
		if err != nil {
			return
		}
		servers := map[string]Server{}
		for _, a := range rep.Added {
			if _, dup := servers[a.Alias]; dup {
				t.Fatalf("alias %q added twice", a.Alias)
			}
			servers[a.Alias] = a.Server
		}
		if problems := validate(&Config{MCP: MCP{Servers: servers}}); len(problems) > 0 {
			t.Fatalf("ParseImport added servers that do not validate: %v", problems)
		}
	})
}

// provider = "anthropic" brings Anthropic's base URL; Anthropic's base URL
// brings the anthropic provider unless another is named.
// mcp.unload_after: unset is the default, 0 is never.
func TestUnloadAfter(t *testing.T) {
	for _, tt := range []struct {
		name, toml string
		want       int
	}{
		{"unset: the default", "", DefaultUnloadAfter},
		{"0: never", "[mcp]\nunload_after = 0", 0},
		{"set", "[mcp]\nunload_after = 3", 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse("config.toml", []byte(tt.toml))
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.MCP.UnloadAfterRequests(); got != tt.want {
				t.Errorf("UnloadAfterRequests() = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestAnthropicDefaults(t *testing.T) {
	for _, tt := range []struct{ toml, provider, baseURL string }{
		{"[model]\nprovider = \"anthropic\"\nname = \"claude-haiku-4-5\"", "anthropic", AnthropicBaseURL},
		{"[model]\nbase_url = \"https://api.anthropic.com/v1\"\nname = \"claude-haiku-4-5\"", "anthropic", AnthropicBaseURL},
		{"[model]\nprovider = \"openai\"\nbase_url = \"https://api.anthropic.com/v1\"", "openai", AnthropicBaseURL},
		{"[model]\nprovider = \"anthropic\"\nbase_url = \"http://127.0.0.1:4010/v1\"", "anthropic", "http://127.0.0.1:4010/v1"},
		{"[model]\nbase_url = \"https://api.openai.com/v1\"", "openai", "https://api.openai.com/v1"},
	} {
		c, err := Parse("config.toml", []byte(tt.toml))
		if err != nil {
			t.Fatal(err)
		}
		if c.Model.Provider != tt.provider || c.Model.BaseURL != tt.baseURL {
			t.Errorf("%q: provider %q, base_url %q; want %q, %q", tt.toml, c.Model.Provider, c.Model.BaseURL, tt.provider, tt.baseURL)
		}
	}
}

// Cache reads cost 0.1 times the input price and writes 1.25 times, unless
// the config prices them.
func TestCostCached(t *testing.T) {
	p := Price{InputPerMTok: 3, OutputPerMTok: 15}
	// 1M input tokens: 200k plain, 500k read, 300k written; 100k output.
	got := p.CostCached(1_000_000, 100_000, 500_000, 300_000)
	want := 0.2*3 + 0.5*0.3 + 0.3*3.75 + 0.1*15
	if diff := got - want; diff > 1e-9 || diff < -1e-9 {
		t.Errorf("CostCached = %v, want %v", got, want)
	}
	if got, want := p.CostCached(1000, 10, 0, 0), p.Cost(1000, 10); got != want {
		t.Errorf("without the cache: %v, want %v", got, want)
	}
	read, write := 0.5, 6.0
	p.CacheReadPerMTok, p.CacheWritePerMTok = &read, &write
	got = p.CostCached(1_000_000, 0, 500_000, 300_000)
	if want := 0.2*3 + 0.5*0.5 + 0.3*6; got-want > 1e-9 || want-got > 1e-9 {
		t.Errorf("with cache prices: %v, want %v", got, want)
	}
	c, err := Parse("config.toml", []byte("[model.price]\ninput_per_mtok = 1\ncache_read_per_mtok = 0.1\ncache_write_per_mtok = 1.25\n"))
	if err != nil || c.Model.Price.CacheReadPerMTok == nil || *c.Model.Price.CacheWritePerMTok != 1.25 {
		t.Errorf("parsing cache prices: %+v, %v", c.Model.Price, err)
	}
	if _, err := Parse("config.toml", []byte("[model.price]\ncache_read_per_mtok = -1\n")); err == nil {
		t.Error("a negative cache price parsed")
	}
}
