package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/config"
	"deckhand/testutil"
)

type result struct {
	code           int
	stdout, stderr string
}

// deckhand runs the command in-process with a fake environment.
func deckhand(t *testing.T, vars map[string]string, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{
		stdin:  strings.NewReader(stdin),
		stdout: &out,
		stderr: &errOut,
		getenv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
	}
	code := run(t.Context(), args, e)
	return result{code, out.String(), errOut.String()}
}

// runCmd runs cmd (a built binary) to its end and returns its exit code
// and output; a command that could not run at all fails the test.
func runCmd(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errOut.String()}
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func stdioServerBin(t testing.TB) string { return testutil.BuildProgram(t, "./testutil/stdioserver") }

// scriptedConfig is the config for a scripted model (testutil.ModelServer)
// at url with Deckhand's own tools off, then the sections in extra (after
// a blank line).
func scriptedConfig(url string, extra ...string) string {
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[tools]\nenabled = false\n", url)
	for _, e := range extra {
		cfg += "\n" + e
	}
	return cfg
}

// probeServer is the config section of the stdio test server as p, with
// its probe tool.
func probeServer(t testing.TB) string {
	return fmt.Sprintf("[mcp.servers.p]\ncommand = %q\nargs = [\"-probe\"]\n", stdioServerBin(t))
}

func TestBadConfig(t *testing.T) {
	path := writeConfig(t, "[mcp.servers.fs]\nurl = \"not a url\"\n")
	r := deckhand(t, nil, "", "--config", path, "mcp", "list")
	want := path + ":2: mcp.servers.fs.url: not a valid URL" // the file, the line, the key
	if r.code != exitUsage || !strings.Contains(r.stderr, want) {
		t.Errorf("mcp list with a bad config: exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
	}
	r = deckhand(t, nil, "", "--config", filepath.Join(t.TempDir(), "missing.toml"), "mcp", "list")
	if r.code == exitOK || !strings.Contains(r.stderr, "missing.toml") {
		t.Errorf("mcp list with a missing --config: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string // in stdout or stderr
	}{
		{[]string{"--help"}, exitOK, "deckhand [global flags] [command]"},
		{[]string{"--version"}, exitOK, "deckhand dev"},
		{[]string{"nope"}, exitUsage, `unknown command "nope"`},
		{[]string{"mcp"}, exitOK, "deckhand mcp call ALIAS.TOOL"},
		{[]string{"mcp", "frob"}, exitUsage, `unknown mcp subcommand "frob"`},
		{[]string{"mcp", "call"}, exitUsage, "usage: deckhand mcp call"},
		{[]string{"mcp", "call", "x.y", `{"a":`}, exitUsage, "JSON_ARGS: the JSON ends early"},
		{[]string{"mcp", "call", "x.y", `[1]`}, exitUsage, "JSON_ARGS must be a JSON object"},
		{[]string{"mcp", "call", "x.y", `{} {}`}, exitUsage, "text after the JSON object"},
		{[]string{"mcp", "list", "--bogus"}, exitUsage, "flag provided but not defined: -bogus"},
		{[]string{"--log-level", "loud"}, exitUsage, "--log-level"},
	}
	for _, tt := range tests {
		r := deckhand(t, nil, "", tt.args...)
		if r.code != tt.code || !strings.Contains(r.stdout+r.stderr, tt.out) {
			t.Errorf("deckhand %v: exit %d, output %q; want exit %d and %q", tt.args, r.code, r.stdout+r.stderr, tt.code, tt.out)
		}
	}
}

func TestMCPCommands(t *testing.T) {
	l := testutil.NewLMCP(t, "right-token")
	cfgPath := writeConfig(t, fmt.Sprintf(`
[mcp.servers.s]
command = %q

[mcp.servers.lmcp]
url = %q
auth_env = "LMCP_TOKEN"

[mcp.servers.wrong]
url = %q
auth_token = "wrong-token-zz9"

[mcp.servers.missing]
command = "deckhand-no-such-command"

[mcp.servers.off]
command = "x"
disabled = true
`, stdioServerBin(t), l.URL, l.URL))
	vars := map[string]string{"LMCP_TOKEN": "right-token"}
	dh := func(stdin string, args ...string) result {
		return deckhand(t, vars, stdin, append([]string{"--config", cfgPath}, args...)...)
	}

	// Servers are down (wrong, missing): mcp list says which and exits 1,
	// its list printed all the same.
	r := dh("", "mcp", "list", "--json")
	if r.code != exitFailure || !strings.Contains(r.stderr, "server missing is down: failed: exec:") || !strings.Contains(r.stderr, "server wrong is down") ||
		strings.Contains(r.stderr, "server off") || strings.Contains(r.stderr, "server lmcp") {
		t.Errorf("mcp list --json with servers down: exit %d, stderr %s; want exit %d naming missing and wrong only", r.code, r.stderr, exitFailure)
	}
	var list []statusJSON
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("mcp list --json output is not JSON: %v\n%s", err, r.stdout)
	}
	got := map[string]statusJSON{}
	for _, s := range list {
		got[s.Alias] = s
	}
	wantState := map[string]string{"s": "ready", "lmcp": "ready", "wrong": "failed", "missing": "failed", "off": "stopped"}
	for alias, state := range wantState {
		if got[alias].State != state {
			t.Errorf("mcp list: %s is %q (%s), want %q", alias, got[alias].State, got[alias].Reason, state)
		}
	}
	if got["lmcp"].Transport != "json" || got["lmcp"].ProtocolVersion != "2025-03-26" || got["lmcp"].Tools != 3 {
		t.Errorf("mcp list: lmcp = %+v", got["lmcp"])
	}
	if !strings.Contains(got["wrong"].Reason, "401 Unauthorized") || strings.Contains(r.stdout+r.stderr, "wrong-token-zz9") {
		t.Errorf("mcp list: wrong = %q; want a 401 without the token", got["wrong"].Reason)
	}

	r = dh("", "mcp", "list")
	if r.code != exitFailure {
		t.Errorf("mcp list with servers down: exit %d, want %d", r.code, exitFailure)
	}
	for _, want := range []string{"ALIAS", "TRANSPORT", "lmcp", "json", "2025-03-26", `failed: exec: "deckhand-no-such-command": executable file not found in $PATH`, "stopped: disabled in config"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("mcp list table lacks %q:\n%s", want, r.stdout)
		}
	}

	r = dh("", "mcp", "tools", "lmcp")
	if r.code != exitOK || !strings.Contains(r.stdout, "lmcp.add") || !strings.Contains(r.stdout, "Add two numbers") || strings.Contains(r.stdout, "s.echo") {
		t.Errorf("mcp tools lmcp: exit %d\n%s", r.code, r.stdout)
	}

	r = dh("", "mcp", "tool", "s.weather")
	for _, want := range []string{"s.weather", "wire name:  s__weather", "input schema:", "output schema:", `"temp_c"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("mcp tool s.weather lacks %q:\n%s", want, r.stdout)
		}
	}

	r = dh("", "mcp", "search", "add", "two", "numbers", "--server", "lmcp")
	if lines := strings.Split(r.stdout, "\n"); r.code != exitOK || !strings.HasPrefix(lines[0], "lmcp.add  [") || strings.Contains(r.stdout, "s.") {
		t.Errorf("mcp search --server lmcp: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = dh("", "mcp", "search", "echo the text", "--json", "--limit", "1")
	var found []struct {
		Name       string `json:"name"`
		Risk       string `json:"risk"`
		Parameters string `json:"parameters"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &found); err != nil || len(found) != 1 || found[0].Name != "s.echo" || found[0].Parameters != "text: string" {
		t.Errorf("mcp search --json = %q (%v)", r.stdout, err)
	}
	if r := dh("", "mcp", "search"); r.code != exitUsage || !strings.Contains(r.stderr, "wants words") {
		t.Errorf("mcp search with no words: exit %d, stderr %q", r.code, r.stderr)
	}

	calls := []struct {
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"mcp", "call", "lmcp.add", `{"a": 1, "b": 2}`}, "", exitOK, "3\n", ""},
		{[]string{"mcp", "call", "s.echo", "-"}, `{"text": "from stdin"}`, exitOK, "Echo: from stdin\n", ""},
		{[]string{"mcp", "call", "lmcp.fail"}, "", exitFailure, "", "Error: the handler failed on purpose"},
		{[]string{"mcp", "call", "lmcp.nope"}, "", exitFailure, "", `unknown tool "lmcp.nope"`},
		{[]string{"mcp", "call", "missing.x"}, "", exitFailure, "", "server missing: failed: exec:"},
		{[]string{"mcp", "call", "s.slow", `{"ms": 20, "steps": 2}`}, "", exitOK, "slept 20ms\n", "progress: 1/2 step 1 of 2"},
		{[]string{"mcp", "call", "s.hang", "--timeout", "100ms"}, "", exitFailure, "", "context deadline exceeded"},
	}
	for _, c := range calls {
		r := dh(c.stdin, c.args...)
		if r.code != c.code || (c.stdout != "" && r.stdout != c.stdout) || !strings.Contains(r.stderr, c.stderr) {
			t.Errorf("deckhand %v: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr containing %q",
				c.args, r.code, r.stdout, r.stderr, c.code, c.stdout, c.stderr)
		}
	}

	// Arguments the input schema refuses are checked as the chat checks
	// them, naming the argument, and never reach the server.
	before := strings.Count(strings.Join(l.Methods(), " "), "tools/call")
	for _, c := range []struct{ args, want string }{
		{`{"a":"x","b":2}`, `argument "a": type: x has type "string", want "number"`},
		{`{"a":1}`, `"b"`},
	} {
		r = dh("", "mcp", "call", "lmcp.add", c.args)
		if r.code != exitUsage || !strings.Contains(r.stderr, "JSON_ARGS for lmcp.add") || !strings.Contains(r.stderr, c.want) || !strings.Contains(r.stderr, "nothing was sent") {
			t.Errorf("mcp call lmcp.add %s: exit %d, stderr %q; want exit %d naming %s", c.args, r.code, r.stderr, exitUsage, c.want)
		}
	}
	if after := strings.Count(strings.Join(l.Methods(), " "), "tools/call"); after != before {
		t.Errorf("arguments the schema refuses reached the server: %d tools/call before, %d after", before, after)
	}

	r = dh("", "mcp", "call", "s.weather", `{"text": "Oslo"}`, "--json")
	var res struct {
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.StructuredContent["city"] != "Oslo" {
		t.Errorf("mcp call --json = %q (%v)", r.stdout, err)
	}
}

func TestConnectSave(t *testing.T) {
	h := testutil.ServeHTTP(t, testutil.NewServer("remote"))
	cfgPath := filepath.Join(t.TempDir(), "deckhand", "config.toml")
	r := deckhand(t, nil, "", "--config", cfgPath, "mcp", "connect", h.StreamableURL, "--alias", "remote", "--save")
	if r.code != exitOK || !strings.Contains(r.stdout, `as "remote" over streamable`) || !strings.Contains(r.stdout, "remote.echo") || !strings.Contains(r.stdout, "Saved as [mcp.servers.remote]") {
		t.Fatalf("mcp connect --save: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = deckhand(t, nil, "", "--config", cfgPath, "mcp", "connect", "--save", "--", stdioServerBin(t), "-pidfile", "/dev/null")
	if r.code != exitOK || !strings.Contains(r.stdout, `as "stdioserver" over stdio`) {
		t.Fatalf("mcp connect -- command: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MCP.Servers["remote"].URL != h.StreamableURL || cfg.MCP.Servers["stdioserver"].Command != stdioServerBin(t) {
		t.Errorf("saved servers = %+v", cfg.MCP.Servers)
	}
	// A server that does not answer is not saved.
	r = deckhand(t, nil, "", "--config", cfgPath, "mcp", "connect", "http://127.0.0.1:1/mcp", "--save")
	if r.code != exitFailure || !strings.Contains(r.stderr, "connection refused") {
		t.Errorf("connect to a dead URL: exit %d, stderr %q", r.code, r.stderr)
	}
	if cfg, _ := config.Load(cfgPath); len(cfg.MCP.Servers) != 2 {
		t.Errorf("a failed connect changed the config: %v", cfg.MCP.Servers)
	}
	r = deckhand(t, nil, "", "--config", cfgPath, "mcp", "connect", h.StreamableURL, "--alias", "remote", "--save")
	if r.code != exitUsage || !strings.Contains(r.stderr, `already has a server named "remote"`) {
		t.Errorf("connect --save with a taken alias: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestDeriveAlias(t *testing.T) {
	tests := []struct {
		srv  config.Server
		want string
	}{
		{config.Server{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"}}, "filesystem"},
		{config.Server{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory@2026.8.31"}}, "memory"},
		{config.Server{Command: "node", Args: []string{"/x/node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"}}, "everything"},
		{config.Server{Command: "uvx", Args: []string{"mcp-server-git", "--repository", "."}}, "git"},
		{config.Server{Command: "docker", Args: []string{"run", "-i", "--rm", "ghcr.io/github/github-mcp-server"}}, "github"},
		{config.Server{Command: "/usr/local/bin/my_tool"}, "my-tool"},
		{config.Server{URL: "https://api.example.com/mcp"}, "api-example-com"},
		{config.Server{URL: "http://127.0.0.1:3001/sse"}, "local-3001"},
	}
	for _, tt := range tests {
		if got := config.DeriveAlias(tt.srv); got != tt.want {
			t.Errorf("config.DeriveAlias(%s) = %q, want %q", tt.srv.Endpoint(), got, tt.want)
		}
	}
}

func TestImport(t *testing.T) {
	cfgPath := writeConfig(t, "# mine\n[mcp.servers.fs]\ncommand = \"x\"\n")
	src := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	os.WriteFile(src, []byte(`{"mcpServers": {
		"fs": {"command": "npx"},
		"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
		"api": {"url": "https://api.example.com/mcp", "headers": {"X-Key": "k"}}
	}}`), 0o600)
	r := deckhand(t, nil, "", "--config", cfgPath, "import", src, "--dry-run")
	if r.code != exitOK || !strings.Contains(r.stdout, "added    memory") || !strings.Contains(r.stdout, "Dry run") {
		t.Errorf("import --dry-run: exit %d\n%s", r.code, r.stdout)
	}
	if cfg, _ := config.Load(cfgPath); len(cfg.MCP.Servers) != 1 {
		t.Errorf("a dry run changed the config")
	}
	r = deckhand(t, nil, "", "--config", cfgPath, "import", src)
	for _, want := range []string{"(Claude Desktop): 3 servers", "added    memory", `skipped  api     header "X-Key" is not supported`, `skipped  fs      alias "fs" is already in the config`, "Saved 1 server(s)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("import output lacks %q:\n%s", want, r.stdout)
		}
	}
	cfg, err := config.Load(cfgPath)
	if err != nil || cfg.MCP.Servers["memory"].Command != "npx" {
		t.Errorf("after import: %v, %v", cfg, err)
	}
	data, _ := os.ReadFile(cfgPath)
	if !strings.HasPrefix(string(data), "# mine\n") {
		t.Errorf("import lost the file's comments:\n%s", data)
	}
}

func TestDoctor(t *testing.T) {
	l := testutil.NewLMCP(t, "tok-1")
	cfgPath := writeConfig(t, fmt.Sprintf(`
[mcp.servers.good]
command = %q

[mcp.servers.npx]
command = "deckhand-npx-missing"

[mcp.servers.api]
url = %q
auth_env = "API_TOKEN"

[mcp.servers.down]
url = "http://127.0.0.1:1/mcp"
`, stdioServerBin(t), l.URL))
	r := deckhand(t, nil, "", "--config", cfgPath, "doctor")
	for _, want := range []string{
		"✓ config " + cfgPath + " is valid",
		"✓ good: ready over stdio",
		"✗ npx: exec:", "fix: install deckhand-npx-missing, or set mcp.servers.npx.command to its full path",
		"✗ api: auth_env API_TOKEN is not set", "fix: set API_TOKEN to the server's token",
		"✗ down:", "fix: nothing answers at http://127.0.0.1:1/mcp",
		"3 of 4 servers need attention.",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != exitFailure {
		t.Errorf("doctor with problems: exit %d, want 1", r.code)
	}
	noModel := writeConfig(t, fmt.Sprintf("[mcp.servers.api]\nurl = %q\nauth_env = \"API_TOKEN\"\n", l.URL))
	r = deckhand(t, map[string]string{"API_TOKEN": "tok-1"}, "", "--config", noModel, "doctor")
	if r.code != exitOK || !strings.Contains(r.stdout, "All good.") || !strings.Contains(r.stdout, "token from $API_TOKEN (set)") {
		t.Errorf("doctor, healthy: exit %d\n%s", r.code, r.stdout)
	}
	// No model: said, with how to set one (the mcp commands work without
	// one, so the exit code stays 0).
	if !strings.Contains(r.stdout, "! no model is configured") || !strings.Contains(r.stdout, "set [model] base_url and name in "+noModel) {
		t.Errorf("doctor without a model does not say so:\n%s", r.stdout)
	}
	withModel := writeConfig(t, "[model]\nbase_url = \"http://127.0.0.1:1/v1\"\nname = \"m\"\n")
	if r := deckhand(t, nil, "", "--config", withModel, "doctor"); strings.Contains(r.stdout, "no model is configured") {
		t.Errorf("doctor with a model says there is none:\n%s", r.stdout)
	}
	// Roots that leave out the workspace a server with no cwd works in:
	// said before it starts, with what to change, not "does not speak MCP".
	roots := t.TempDir()
	outside := writeConfig(t, fmt.Sprintf("[policy]\nworkspace = %q\nfs.read_roots = [%q]\nfs.write_roots = [%q]\n[mcp.servers.good]\ncommand = %q\n",
		filepath.Join(t.TempDir(), "ws"), roots, roots, stdioServerBin(t)))
	r = deckhand(t, nil, "", "--config", outside, "doctor")
	if r.code != exitFailure || !strings.Contains(r.stdout, "✗ good: mcp.servers.good: a sandboxed server with no cwd works in the workspace") ||
		!strings.Contains(r.stdout, "fix: change mcp.servers.good or [policy]") || strings.Contains(r.stdout, "does not speak MCP") {
		t.Errorf("doctor, workspace outside the roots: exit %d\n%s", r.code, r.stdout)
	}
	r = deckhand(t, nil, "", "--config", writeConfig(t, "[mcp.servers.x]\nurl = 5\n"), "doctor")
	if r.code != exitFailure || !strings.Contains(r.stdout, "config.toml:2: mcp.servers.x.url:") {
		t.Errorf("doctor, bad config: exit %d\n%s", r.code, r.stdout)
	}
}

func TestOverviewWithNoConfig(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	r := deckhand(t, nil, "")
	if r.code != exitOK || !strings.Contains(r.stdout, "not created yet") || !strings.Contains(r.stdout, "deckhand mcp connect --save") {
		t.Errorf("deckhand with no config: exit %d\n%s", r.code, r.stdout)
	}
}

func TestDoctorJSON(t *testing.T) {
	cfgPath := writeConfig(t, "[mcp.servers.npx]\ncommand = \"deckhand-npx-missing\"\n")
	r := deckhand(t, nil, "", "--config", cfgPath, "doctor", "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("doctor --json output is not JSON: %v\n%s", err, r.stdout)
	}
	if r.code != exitFailure || rep.Problems != 1 || len(rep.Servers) != 1 || rep.Servers[0].OK || !strings.Contains(rep.Servers[0].Fix, "install deckhand-npx-missing") {
		t.Errorf("doctor --json: exit %d, %+v", r.code, rep)
	}
}

func FuzzDeriveAlias(f *testing.F) {
	f.Add("npx", "@scope/server-thing@1.2.3", "")
	f.Add("", "", "http://[::1]:8080/mcp")
	f.Add("/a/b/c.d/e", "../../x/dist/index.js", "")
	f.Fuzz(func(t *testing.T, command, arg, url string) {
		srv := config.Server{Command: command, Args: []string{arg}}
		if url != "" {
			srv = config.Server{URL: url}
		}
		if a := config.DeriveAlias(srv); config.ValidAlias(a) != nil {
			t.Fatalf("config.DeriveAlias(%+v) = %q, not a valid alias", srv, a)
		}
	})
}
