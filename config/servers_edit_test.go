package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const serversFile = `# my deckhand
[model]
base_url = "http://127.0.0.1:8080/v1"
name = "m"

# the filesystem server
[mcp.servers.fs]
command = "npx"
args = [
  "-y",
  "@modelcontextprotocol/server-filesystem",
]
read_only = true   # it only reads

# the git server
[mcp.servers.git]
command = "uvx"
args = ["mcp-server-git"]

[mcp.servers.git.env]
GIT_TRACE = "1"

[mcp.auto_approve]
"fs.*" = true # keep this
`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func readConfig(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestRemoveServer(t *testing.T) {
	path := writeConfig(t, serversFile)
	if err := RemoveServer(path, "fs"); err != nil {
		t.Fatalf("RemoveServer(fs) = %v", err)
	}
	want := strings.Replace(serversFile, `# the filesystem server
[mcp.servers.fs]
command = "npx"
args = [
  "-y",
  "@modelcontextprotocol/server-filesystem",
]
read_only = true   # it only reads

`, "", 1)
	if got := readConfig(t, path); got != want {
		t.Errorf("after removing fs:\n%s\nwant:\n%s", got, want)
	}

	// Its sub-tables go with it, wherever they are.
	if err := RemoveServer(path, "git"); err != nil {
		t.Fatalf("RemoveServer(git) = %v", err)
	}
	want = `# my deckhand
[model]
base_url = "http://127.0.0.1:8080/v1"
name = "m"

[mcp.auto_approve]
"fs.*" = true # keep this
`
	if got := readConfig(t, path); got != want {
		t.Errorf("after removing git:\n%s\nwant:\n%s", got, want)
	}
	c, err := Load(path)
	if err != nil || len(c.MCP.Servers) != 0 || !c.MCP.AutoApprove["fs.*"] {
		t.Errorf("Load = %+v, %v", c, err)
	}

	if err := RemoveServer(path, "fs"); !errors.Is(err, ErrNoServer) {
		t.Errorf("removing a server twice = %v, want ErrNoServer", err)
	}
}

func TestRemoveLastServer(t *testing.T) {
	text := "[mcp.servers.a]\nurl = \"http://a/mcp\"\n\n\n[mcp.servers.b]\ncommand = \"b\"\n"
	path := writeConfig(t, text)
	if err := RemoveServer(path, "b"); err != nil {
		t.Fatal(err)
	}
	if got := readConfig(t, path); got != "[mcp.servers.a]\nurl = \"http://a/mcp\"\n" {
		t.Errorf("got %q", got)
	}
}

// A file the line editor cannot change safely is left alone.
func TestRemoveServerRefusesWhatItCannotEdit(t *testing.T) {
	for name, text := range map[string]string{
		"inline":      "[mcp.servers]\nfs = { command = \"npx\" }\ngit = { command = \"uvx\" }\n",
		"dotted":      "mcp.servers.fs.command = \"npx\"\n",
		"dotted, sub": "[mcp]\nservers.fs.command = \"npx\"\n",
		// A header inside a multi-line string is not a header.
		"string": "[mcp.servers.x]\ncommand = \"sh\"\nargs = [\"-c\", '''\n[mcp.servers.fs]\n''']\n[mcp.servers.fs]\ncommand = \"npx\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			path := writeConfig(t, text)
			err := RemoveServer(path, "fs")
			if name == "string" {
				// The cut would break x's args: refused.
				if err == nil {
					t.Error("RemoveServer = nil")
				}
			} else if !errors.Is(err, ErrNotEditable) {
				t.Errorf("RemoveServer = %v, want ErrNotEditable", err)
			}
			if got := readConfig(t, path); got != text {
				t.Errorf("the file changed:\n%s", got)
			}
		})
	}
}

func TestReplaceServer(t *testing.T) {
	path := writeConfig(t, serversFile)
	before, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := before.MCP.Servers["git"]
	srv.Args = []string{"mcp-server-git", "--repository", "/home/me/my repo"}
	srv.Env = map[string]string{"GIT_TRACE": "0", "A": "b"}
	if err := ReplaceServer(path, "git", "git", srv); err != nil {
		t.Fatalf("ReplaceServer = %v", err)
	}
	text := readConfig(t, path)
	for _, keep := range []string{"# my deckhand", "# the filesystem server", "read_only = true   # it only reads", "# the git server\n[mcp.servers.git]", `"fs.*" = true # keep this`} {
		if !strings.Contains(text, keep) {
			t.Errorf("lost %q:\n%s", keep, text)
		}
	}
	if strings.Contains(text, "[mcp.servers.git.env]") {
		t.Errorf("the old env table is still there:\n%s", text)
	}
	after, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.MCP.Servers["git"]; !reflect.DeepEqual(got, srv) {
		t.Errorf("git = %+v, want %+v", got, srv)
	}
	if !reflect.DeepEqual(after.MCP.Servers["fs"], before.MCP.Servers["fs"]) {
		t.Errorf("fs changed: %+v", after.MCP.Servers["fs"])
	}

	// A new alias: in the same place, under the new name.
	if err := ReplaceServer(path, "git", "fs", srv); !errors.Is(err, ErrAliasExists) {
		t.Errorf("renaming onto fs = %v, want ErrAliasExists", err)
	}
	if err := ReplaceServer(path, "git", "repo", srv); err != nil {
		t.Fatalf("renaming = %v", err)
	}
	text = readConfig(t, path)
	if !strings.Contains(text, "# the git server\n[mcp.servers.repo]") || strings.Contains(text, "[mcp.servers.git]") {
		t.Errorf("after renaming:\n%s", text)
	}

	// An invalid server never reaches the file.
	if err := ReplaceServer(path, "repo", "repo", Server{Command: "x", URL: "http://x"}); err == nil {
		t.Error("an invalid server was written")
	}
	if err := ReplaceServer(path, "nope", "nope", srv); !errors.Is(err, ErrNoServer) {
		t.Errorf("replacing a missing server = %v", err)
	}
	if got := readConfig(t, path); got != text {
		t.Errorf("a refused change changed the file:\n%s", got)
	}
}

// Every key of a server survives a replace by itself.
func TestReplaceServerKeepsEveryKey(t *testing.T) {
	yes := true
	cmd := Server{
		Command: "npx", Args: []string{"-y", "pkg"}, Env: map[string]string{"K": "v"}, Cwd: "~/x",
		Timeout: time.Minute, ConnectTimeout: 90 * time.Second, Trusted: true,
		ReadOnly: ReadOnly{Tools: []string{"read"}}, Lazy: &yes, Connect: ConnectOnDemand,
		Sandbox: "off", Secrets: []string{"GITHUB_TOKEN"}, Read: []string{"~/a"}, Write: []string{"~/b"},
		Network: NetworkHosts("api.github.com", "*.example.com"), Sockets: []string{"ssh-agent", "/run/x.sock"},
		DisabledTools: []string{"delete", "write"},
	}
	web := Server{URL: "https://x.example/mcp", Transport: TransportSSE, AuthToken: "t0k", Disabled: true, ReadOnly: ReadOnly{All: true}}
	for name, srv := range map[string]Server{"cmd": cmd, "web": web} {
		path := writeConfig(t, "[mcp.servers.s]\ncommand = \"old\"\n")
		if err := ReplaceServer(path, "s", "s", srv); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.MCP.Servers["s"]; !reflect.DeepEqual(got, srv) {
			t.Errorf("%s: read back %+v\nwant %+v", name, got, srv)
		}
	}
}

func TestSetDisabledTools(t *testing.T) {
	path := writeConfig(t, serversFile)
	if err := SetDisabledTools(path, "fs", []string{"write_file", "move_file", "write_file"}); err != nil {
		t.Fatal(err)
	}
	text := readConfig(t, path)
	if !strings.Contains(text, "read_only = true   # it only reads\ndisabled_tools = [\"move_file\", \"write_file\"]\n") {
		t.Errorf("got:\n%s", text)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.MCP.Servers["fs"].DisabledTools; !reflect.DeepEqual(got, []string{"move_file", "write_file"}) {
		t.Errorf("disabled_tools = %v", got)
	}
	if err := SetDisabledTools(path, "fs", nil); err != nil {
		t.Fatal(err)
	}
	if got := readConfig(t, path); got != serversFile {
		t.Errorf("enabling every tool again left:\n%s", got)
	}
	if err := SetDisabledTools(path, "nope", []string{"x"}); !errors.Is(err, ErrNoServer) {
		t.Errorf("a missing server = %v", err)
	}
}

func TestDisabledToolsValidated(t *testing.T) {
	_, err := Parse("c.toml", []byte("[mcp.servers.fs]\ncommand = \"npx\"\ndisabled_tools = [\"\"]\n"))
	if err == nil || !strings.Contains(err.Error(), "mcp.servers.fs.disabled_tools[0]") {
		t.Errorf("an empty tool name = %v", err)
	}
	_, err = Parse("c.toml", []byte("[mcp.servers.fs]\ncommand = \"npx\"\ndisabled_tools = \"x\"\n"))
	if err == nil {
		t.Error("a string for a list was accepted")
	}
}

func TestServerForm(t *testing.T) {
	base := Server{
		Command: "npx", Args: []string{"-y", "pkg", "/home/me/my notes"}, Env: map[string]string{"B": "2", "A": "x=y"},
		Cwd: "~/w", Trusted: true, DisabledTools: []string{"rm"},
	}
	f := FormOf("notes", base)
	if f.Kind != "Command" || f.Target != "npx -y pkg '/home/me/my notes'" || f.Env != "A=x=y\nB=2\n" || f.Alias != "notes" {
		t.Errorf("FormOf = %+v", f)
	}
	srv, alias, err := f.Server(base)
	if err != nil || alias != "notes" || !reflect.DeepEqual(srv, base) {
		t.Errorf("the form read back = %+v %q %v", srv, alias, err)
	}

	// To a URL: the command's settings go, the rest stay.
	f = ServerForm{Kind: "URL", Target: "https://notes.example/mcp", AuthEnv: "NOTES_TOKEN", Transport: "auto"}
	srv, alias, err = f.Server(base)
	want := Server{URL: "https://notes.example/mcp", AuthEnv: "NOTES_TOKEN", Trusted: true, DisabledTools: []string{"rm"}}
	if err != nil || alias != "notes-example" || !reflect.DeepEqual(srv, want) {
		t.Errorf("to a URL = %+v %q %v", srv, alias, err)
	}

	for _, bad := range []ServerForm{
		{Kind: "Command", Target: "npx", Env: "not a pair"},
		{Kind: "Command", Target: "npx", Env: "1X=y"},
		{Kind: "Command", Target: "npx", AuthEnv: "T"},
		{Kind: "URL", Target: "https://x/mcp", Env: "A=b"},
		{Kind: "Command", Target: "npx", Alias: "a__b"},
		{Kind: "Command", Target: " "},
	} {
		if _, _, err := bad.Server(Server{}); err == nil {
			t.Errorf("%+v was accepted", bad)
		}
	}
}

// The form's sandbox settings read back as the config has them; the
// secrets it names are granted to the server (allow_secrets).
func TestServerFormSandbox(t *testing.T) {
	base := Server{Command: "srv", Args: []string{}, Sandbox: SandboxOff, Network: NetworkHosts("api.github.com", "*.example.com"),
		Read: []string{"~/a", "/b"}, Write: []string{"~/c"}, Secrets: []string{"GH_TOKEN", "X"}, AllowSecrets: []string{"GH_TOKEN", "X"}}
	f := FormOf("s", base)
	if !f.Unconfined || f.Network != FormNetworkHosts || f.Hosts != "api.github.com, *.example.com" || f.Read != "~/a\n/b" || f.Secrets != "GH_TOKEN, X" {
		t.Errorf("FormOf = %+v", f)
	}
	srv, _, err := f.Server(Server{})
	if err != nil || !reflect.DeepEqual(srv, base) {
		t.Errorf("read back = %+v, %v; want %+v", srv, err, base)
	}
	f.Network, f.Hosts = FormNetworkHosts, " "
	if _, _, err := f.Server(Server{}); err == nil || !strings.Contains(err.Error(), "name the hosts") {
		t.Errorf("hosts without a host: %v", err)
	}
	f.Hosts = "api.github.com:443"
	if _, _, err := f.Server(Server{}); err == nil {
		t.Errorf("a host with a port was accepted")
	}
	f.Network = FormNetworkNone
	if srv, _, _ := f.Server(Server{}); srv.Network.On() || len(srv.Network.Hosts) > 0 || !srv.Network.Set {
		t.Errorf("none = %+v", srv.Network)
	}
}
