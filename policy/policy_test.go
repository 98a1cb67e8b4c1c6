package policy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
)

func testPolicy(t *testing.T, edit func(*config.Config)) (*Policy, string) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, k := range []string{"XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(k, "")
	}
	cfg := &config.Config{}
	if edit != nil {
		edit(cfg)
	}
	p := New(cfg, func(string) (string, bool) { return "", false })
	os.MkdirAll(p.Workspace, 0o755)
	return p, home
}

func TestDefaults(t *testing.T) {
	p, home := testPolicy(t, nil)
	ws := filepath.Join(home, "Deckhand")
	if p.Workspace != ws || !slices.Equal(p.Read, []string{ws}) || !slices.Equal(p.Write, []string{ws}) || p.AllowExec {
		t.Errorf("defaults: %+v", p)
	}
	if got := p.StateDir("fs"); got != filepath.Join(home, ".local", "state", "deckhand", "servers", "fs") {
		t.Errorf("StateDir = %s", got)
	}
}

func TestCheckPaths(t *testing.T) {
	p, home := testPolicy(t, func(c *config.Config) {
		c.Policy.FS.ReadRoots = []string{"~/Documents", "~"}
	})
	ws := p.Workspace
	os.Symlink("/etc", filepath.Join(ws, "etc-link"))
	os.Symlink("/etc/ssl", filepath.Join(ws, "ssl-link"))
	os.MkdirAll(filepath.Join(ws, "sub"), 0o755)
	def := &sdk.Tool{Name: "t", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
		"where": map[string]any{"type": "string", "format": "path"},
		"many":  map[string]any{"type": "array", "items": map[string]any{"type": "string", "format": "path"}},
	}}}
	cases := []struct {
		name     string
		args     string
		readOnly bool
		want     []bool // allowed, per decision
	}{
		{"inside", `{"path":"notes.txt"}`, false, []bool{true}},
		{"dot-dot out", `{"path":"../.ssh/id_rsa"}`, true, []bool{false}},
		{"symlink out", `{"path":"etc-link/passwd"}`, true, []bool{false}},
		{"read root, read-only", `{"path":"~/Documents/a.txt"}`, true, []bool{true}},
		{"read root, writing", `{"path":"~/Documents/a.txt"}`, false, []bool{false}},
		{"declared format path", `{"where":"/etc/passwd"}`, true, []bool{false}},
		{"list of paths", `{"many":["` + ws + `/a","/root/b"]}`, true, []bool{true, false}},
		{"absolute value elsewhere", `{"anything":"/var/log/syslog"}`, true, []bool{false}},
		{"file URL", `{"uri":"file:///etc/shadow"}`, true, []bool{false}},
		{"text is not a path", `{"content":"/etc/passwd is a file","path":"x.txt"}`, false, []bool{true}},
		{"relative in a text field", `{"query":"../../"}`, true, []bool{false}},
		{"nested object", `{"opts":{"file":{"name":"/etc/passwd"}},"list":[{"x":"/etc/shadow"}]}`, true, []bool{false, false}},
		{"symlink then ..", `{"path":"ssl-link/../passwd"}`, true, []bool{false}},
		{"not named like a path", `{"content":"/etc/passwd"}`, true, []bool{false}},
		{"too long", `{"path":"` + ws + "/" + strings.Repeat("./", 2100) + `../../../etc/passwd"}`, true, []bool{false}},
		{"a NUL", `{"path":"` + ws + `/a\u0000/../../etc/passwd"}`, true, []bool{false}},
		{"relative name that exists", `{"q":"sub"}`, false, []bool{true}},
		{"secret folder in a root", `{"path":"~/.ssh/id_rsa"}`, true, []bool{false}},
		{"not an object", `[1,2]`, true, nil},
	}
	for _, tc := range cases {
		got := p.CheckPaths(config.Server{Command: "x"}, def, json.RawMessage(tc.args), tc.readOnly)
		var allowed []bool
		for _, d := range got {
			allowed = append(allowed, d.Allowed)
			if !filepath.IsAbs(d.Target) || d.Rule == "" {
				t.Errorf("%s: decision %+v", tc.name, d)
			}
		}
		if !slices.Equal(allowed, tc.want) {
			t.Errorf("%s: decisions %+v, want allowed %v", tc.name, got, tc.want)
		}
	}
	_ = home
}

func TestEnvAndSecrets(t *testing.T) {
	vars := map[string]string{"PATH": "/usr/bin", "HOME": "/home/x", "KEY": "sk", "TOKEN": "t0k", "LEAK": "no"}
	cfg := &config.Config{Model: config.Model{APIKeyEnv: "KEY"}}
	cfg.Policy.Secrets.Keys = []string{"TOKEN", "KEY"}
	p := New(cfg, func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	env, err := p.Env("s", config.Server{Command: "srv", Secrets: []string{"TOKEN"}, Env: map[string]string{"A": "x-${TOKEN}-y", "B": "$LEAK"}}, "", "/tmp/s")
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(env, "\n")
	t.Setenv("HOME", "/home/x")
	for _, want := range []string{"TOKEN=t0k", "A=x-t0k-y", "B=$LEAK", "PATH=" + os.Getenv("PATH"), "TMPDIR=/tmp/s"} {
		if !strings.Contains(joined, want) {
			t.Errorf("env lacks %s:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "sk") || strings.Contains(joined, "LEAK=") {
		t.Errorf("env leaks:\n%s", joined)
	}
	// A sandboxed server's package caches are its own.
	for _, want := range []string{"npm_config_cache=" + filepath.Join(p.StateDir("s"), "cache", "npm"), "UV_CACHE_DIR=" + filepath.Join(p.StateDir("s"), "cache", "uv")} {
		if !strings.Contains(joined, want) {
			t.Errorf("env lacks %s:\n%s", want, joined)
		}
	}
	if _, err := p.Env("s", config.Server{Secrets: []string{"LEAK"}}, "", ""); err == nil || !strings.Contains(err.Error(), "policy.secrets.keys does not allow") {
		t.Errorf("LEAK: %v", err)
	}
	if _, err := p.Env("s", config.Server{Env: map[string]string{"K": "${KEY}"}}, "", ""); err == nil || !strings.Contains(err.Error(), "never passed on") {
		t.Errorf("model key: %v", err)
	}
}

func TestServerSpec(t *testing.T) {
	p, home := testPolicy(t, nil)
	bin := filepath.Join(home, ".local", "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "srv"), []byte("#!/bin/sh\n"), 0o755)
	nm := filepath.Join(home, "tools", "node_modules", "pkg", "dist")
	os.MkdirAll(nm, 0o755)
	os.WriteFile(filepath.Join(nm, "index.js"), nil, 0o644)
	s, err := p.ServerSpec("x", config.Server{Command: "srv", Args: []string{filepath.Join(nm, "index.js"), home}}, filepath.Join(bin, "srv"), "/usr/bin:"+home+":"+bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{home, filepath.Join(home, ".local"), filepath.Join(home, ".ssh"), "/"} {
		if slices.Contains(s.Read, bad) || slices.Contains(s.Write, bad) {
			t.Errorf("the spec opens %s:\nread %v\nwrite %v", bad, s.Read, s.Write)
		}
	}
	for _, want := range []string{bin, filepath.Join(home, "tools", "node_modules"), "/usr"} {
		if !slices.Contains(s.Read, want) {
			t.Errorf("the spec does not read %s: %v", want, s.Read)
		}
	}
	for _, want := range []string{p.Workspace, p.StateDir("x")} {
		if !slices.Contains(s.Write, want) {
			t.Errorf("the spec does not write %s: %v", want, s.Write)
		}
	}
	// The person's package caches: what a server left there, their own
	// npx or uvx would run unconfined.
	for _, c := range []string{".npm", ".cache/uv", ".local/share/uv", ".cache/pip", ".cache/node-gyp", ".bun/install/cache"} {
		if slices.ContainsFunc(s.Write, func(w string) bool {
			return w == filepath.Join(home, c) || strings.HasPrefix(filepath.Join(home, c), w+"/")
		}) {
			t.Errorf("the spec writes the person's cache ~/%s: %v", c, s.Write)
		}
	}
	if s, _ := p.ServerSpec("x", config.Server{Command: "srv", Sandbox: "off"}, "/usr/bin/srv", ""); s != nil {
		t.Error("sandbox = off still has a spec")
	}
}

// A root that opens the home folder still hides the secret folders and
// Deckhand's own data, unless a server names one exactly; a cwd inside one
// is refused; and policy warns about each such root.
func TestHomeOpenedByAccident(t *testing.T) {
	p, home := testPolicy(t, nil)
	for _, d := range []string{".ssh", ".gnupg", ".local/state/deckhand", ".config/gh"} {
		os.MkdirAll(filepath.Join(home, d), 0o700)
	}
	srv := config.Server{Command: "srv", Read: []string{"~"}}
	s, err := p.ServerSpec("x", srv, "/usr/bin/srv", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".ssh", ".gnupg", ".local/state/deckhand", ".config/gh", ".aws"} {
		if !slices.Contains(s.Hide, filepath.Join(home, want)) {
			t.Errorf("read = [\"~\"] does not hide ~/%s: %v", want, s.Hide)
		}
	}
	named := config.Server{Command: "srv", Read: []string{"~", "~/.ssh"}}
	if s, _ := p.ServerSpec("x", named, "/usr/bin/srv", ""); slices.Contains(s.Hide, filepath.Join(home, ".ssh")) {
		t.Errorf("~/.ssh named exactly is still hidden")
	}
	if _, err := p.ServerSpec("x", config.Server{Command: "srv", Cwd: "~/.ssh"}, "/usr/bin/srv", ""); err == nil || !strings.Contains(err.Error(), "cwd") {
		t.Errorf("cwd = ~/.ssh: %v", err)
	}
	cfg := &config.Config{MCP: config.MCP{Servers: map[string]config.Server{
		"a": {Command: "srv", Read: []string{"~"}}, "b": {Command: "srv", Cwd: "~"}, "c": {Command: "srv", Cwd: "~/.ssh"},
	}}}
	warnings := strings.Join(p.Warnings(cfg), "\n")
	for _, want := range []string{"mcp.servers.a.read is ~, which opens your whole home folder", "mcp.servers.b.cwd is ~", "mcp.servers.c.cwd is ~/.ssh, inside"} {
		if !strings.Contains(warnings, want) {
			t.Errorf("warnings lack %q:\n%s", want, warnings)
		}
	}
}

// A version manager's shim (pyenv's) runs the real program from the
// manager's folder: the spec reads that folder, and not its neighbours.
func TestShimManagerFolder(t *testing.T) {
	p, home := testPolicy(t, nil)
	shims := filepath.Join(home, ".pyenv", "shims")
	os.MkdirAll(shims, 0o755)
	os.WriteFile(filepath.Join(shims, "python3"), []byte("#!/bin/sh\n"), 0o755)
	s, err := p.ServerSpec("x", config.Server{Command: "python3"}, filepath.Join(shims, "python3"), shims+":/usr/bin")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(s.Read, filepath.Join(home, ".pyenv")) {
		t.Errorf("the spec does not read ~/.pyenv: %v", s.Read)
	}
	if slices.Contains(s.Read, home) || slices.Contains(s.Read, filepath.Join(home, ".cargo")) {
		t.Errorf("the spec reads more than the manager: %v", s.Read)
	}
}

// FuzzCheckPaths: whatever arguments a model sends, checking them neither
// panics nor allows a path outside the roots.
func FuzzCheckPaths(f *testing.F) {
	f.Add(`{"path":"../../etc/passwd"}`, true)
	f.Add(`{"paths":["/a","~/b","file:///c"],"x":"/d"}`, false)
	f.Add(`{"path":"\u0000"}`, true)
	home := f.TempDir()
	f.Setenv("HOME", home)
	p := New(&config.Config{}, func(string) (string, bool) { return "", false })
	f.Fuzz(func(t *testing.T, args string, readOnly bool) {
		for _, d := range p.CheckPaths(config.Server{Command: "x"}, nil, json.RawMessage(args), readOnly) {
			if d.Allowed && !within(d.Target, p.Workspace) {
				t.Fatalf("allowed %s outside %s", d.Target, p.Workspace)
			}
		}
	})
}

func TestHostAllowed(t *testing.T) {
	cfg := &config.Config{}
	cfg.Policy.Net.AllowDomains = []string{"auth.example.com", ".example.org", "*.corp.net"}
	p := New(cfg, nil)
	for host, want := range map[string]bool{
		"mcp.example.com": true, "auth.example.com": true, "evil.com": false, "example.org": true, "a.example.org": true,
		"corp.net": false, "x.corp.net": true, "notexample.org": false, "MCP.EXAMPLE.COM.": true,
	} {
		if got := p.HostAllowed("mcp.example.com", host); got != want {
			t.Errorf("HostAllowed(%s) = %v", host, got)
		}
	}
}

// A sandboxed server with no cwd works in the workspace; roots that leave
// the workspace out are said before the server starts, naming the
// workspace, the roots and the two ways out, instead of the server dying
// inside the sandbox (exit 126). The workspace in a root, or a cwd of the
// server's own, is fine; so is a server whose own read names it.
func TestWorkspaceOutsideRoots(t *testing.T) {
	other := t.TempDir()
	p, _ := testPolicy(t, func(c *config.Config) {
		c.Policy.Workspace = filepath.Join(t.TempDir(), "ws")
		c.Policy.FS.ReadRoots = []string{other}
		c.Policy.FS.WriteRoots = []string{other}
	})
	_, err := p.ServerSpec("ev", config.Server{Command: "srv"}, "/usr/bin/srv", "")
	if err == nil || !strings.Contains(err.Error(), "mcp.servers.ev: a sandboxed server with no cwd works in the workspace (policy.workspace, "+p.Workspace+")") ||
		!strings.Contains(err.Error(), other) || !strings.Contains(err.Error(), "set mcp.servers.ev.cwd") {
		t.Errorf("workspace outside the roots: %v", err)
	}
	if w := strings.Join(p.Warnings(&config.Config{MCP: config.MCP{Servers: map[string]config.Server{"ev": {Command: "srv"}}}}), "\n"); !strings.Contains(w, "works in the workspace") {
		t.Errorf("policy does not warn:\n%s", w)
	}
	for name, srv := range map[string]config.Server{
		"own cwd":  {Command: "srv", Cwd: other},
		"own read": {Command: "srv", Read: []string{p.Workspace}},
		"off":      {Command: "srv", Sandbox: "off"},
	} {
		if _, err := p.ServerSpec("ev", srv, "/usr/bin/srv", ""); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	p, _ = testPolicy(t, func(c *config.Config) { c.Policy.FS.ReadRoots = []string{other} })
	if _, err := p.ServerSpec("ev", config.Server{Command: "srv"}, "/usr/bin/srv", ""); err != nil {
		t.Errorf("the workspace in the write roots (the default): %v", err)
	}
}

// The hooks and config of the repositories a confined program may write
// in (the workspace's own, one a level down, a submodule's) are
// read-only to it, for a server and a shell command alike: git runs what
// they name when the person next works there. Its state folder holds
// none of the person's.
func TestReposProtected(t *testing.T) {
	p, _ := testPolicy(t, nil)
	var want []string
	for _, repo := range []string{p.Workspace, filepath.Join(p.Workspace, "project"), filepath.Join(p.Workspace, ".git", "modules", "lib")} {
		git := filepath.Join(repo, ".git")
		if strings.Contains(repo, "modules") {
			git = repo
		}
		os.MkdirAll(filepath.Join(git, "hooks"), 0o755)
		os.WriteFile(filepath.Join(git, "config"), nil, 0o644)
		want = append(want, filepath.Join(git, "hooks"), filepath.Join(git, "config"))
	}
	os.MkdirAll(filepath.Join(p.StateDir("x"), ".git", "hooks"), 0o755)
	os.MkdirAll(filepath.Join(p.Workspace, "a", "b", ".git", "hooks"), 0o755) // two levels down: not looked for
	s, err := p.ServerSpec("x", config.Server{Command: "srv"}, "/usr/bin/srv", "/usr/bin")
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]string{"server": s.Protect, "shell": p.CommandSpec("/bin/sh").Protect} {
		slices.Sort(got)
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: Protect (-want +got):\n%s", name, diff)
		}
	}
}

// A command inside node_modules, or a script there given as an argument,
// reads the node_modules folders node looks its imports up in: the
// outermost holding it (npm hoists the package's dependencies there), and
// those of the folders above (a workspace's root); not the project around
// them, nor the home folder. A node script outside node_modules (a
// workspace's member linked there, a checkout) reads its package.json and
// the node_modules of its package and the folders above, not the
// package's other folders. A virtualenv's command reads the virtualenv.
func TestServerSpecPackages(t *testing.T) {
	p, home := testPolicy(t, nil)
	mk := func(file string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte("#!/usr/bin/env node\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return file
	}
	repo := filepath.Join(home, "src", "repo")
	rootModules := filepath.Join(repo, "node_modules")
	os.MkdirAll(rootModules, 0o755)
	member := filepath.Join(repo, "packages", "app")
	modules := filepath.Join(member, "node_modules")
	script := mk(filepath.Join(modules, "@acme", "server", "dist", "index.js"))
	bin := filepath.Join(modules, ".bin", "acme-server")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	if err := os.Symlink("../@acme/server/dist/index.js", bin); err != nil {
		t.Fatal(err)
	}
	pnpm := mk(filepath.Join(member, "node_modules", ".pnpm", "x@1.0.0", "node_modules", "x", "bin", "x.js"))
	// A workspace's member, linked into its node_modules, with
	// dependencies of its own and hoisted ones.
	linked := filepath.Join(repo, "packages", "lib")
	mk(filepath.Join(linked, "package.json"))
	mk(filepath.Join(linked, "src", "secret-plan.md"))
	linkedModules := filepath.Join(linked, "node_modules")
	os.MkdirAll(linkedModules, 0o755)
	linkedScript := mk(filepath.Join(linked, "dist", "cli.js"))
	if err := os.Symlink("../packages/lib", filepath.Join(rootModules, "lib")); err != nil {
		t.Fatal(err)
	}
	linkedBin := filepath.Join(rootModules, ".bin", "lib")
	os.MkdirAll(filepath.Dir(linkedBin), 0o755)
	if err := os.Symlink("../lib/dist/cli.js", linkedBin); err != nil {
		t.Fatal(err)
	}
	venv := filepath.Join(home, "tool", ".venv")
	py := mk(filepath.Join(venv, "bin", "tool-server"))
	mk(filepath.Join(venv, "lib", "python3.12", "site-packages", "tool", "__init__.py"))

	tests := []struct {
		name          string
		command       string
		args          []string
		want, notWant []string
	}{
		{"node_modules/.bin link", bin, nil, []string{modules, rootModules, filepath.Dir(script)}, []string{member, repo, home, filepath.Join(home, "node_modules")}},
		{"script as an argument", "/usr/bin/node", []string{script}, []string{modules, rootModules}, []string{member, repo}},
		{"pnpm's store", pnpm, nil, []string{modules, rootModules}, []string{member, repo}},
		{"virtualenv", py, nil, []string{venv}, []string{filepath.Dir(venv)}},
		{"a workspace's member through .bin", linkedBin, nil,
			[]string{filepath.Dir(linkedScript), filepath.Join(linked, "package.json"), linkedModules, rootModules},
			[]string{linked, filepath.Join(linked, "src"), filepath.Join(repo, "packages"), repo}},
		{"a checkout's script as an argument", "/usr/bin/node", []string{linkedScript},
			[]string{filepath.Dir(linkedScript), filepath.Join(linked, "package.json"), linkedModules, rootModules},
			[]string{linked, repo}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := p.ServerSpec("x", config.Server{Command: tc.command, Args: tc.args}, tc.command, "/usr/bin")
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				if !slices.Contains(s.Read, want) {
					t.Errorf("ServerSpec(%s).Read = %v, want %s in it", tc.command, s.Read, want)
				}
			}
			for _, bad := range tc.notWant {
				if slices.Contains(s.Read, bad) || slices.Contains(s.Write, bad) {
					t.Errorf("ServerSpec(%s) opens %s:\nread %v\nwrite %v", tc.command, bad, s.Read, s.Write)
				}
			}
		})
	}
}

// The folders a server reads without being granted them (a version
// manager's ~/.cargo/bin, its PATH's ~/bin) are not followed through a
// symbolic link inside a folder a sandboxed server may write: a server
// granted ~/.cargo that made ~/.cargo/bin a link to the home folder would
// be shown it at its next start (TestPlantedLinkToHomeOutOfReach). A
// link elsewhere (a version manager kept on another disk) is followed,
// and so is one a server could not have planted.
func TestServerSpecSkipsPlantedLinks(t *testing.T) {
	p, home := testPolicy(t, func(cfg *config.Config) {
		cfg.MCP.Servers = map[string]config.Server{"cargo": {Command: "srv", Write: []string{"~/.cargo"}}}
	})
	other := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".cargo"), 0o755)
	os.MkdirAll(filepath.Join(home, "bin"), 0o755)
	os.Symlink(home, filepath.Join(home, ".cargo", "bin"))  // planted
	os.Symlink(other, filepath.Join(home, ".nvm"))          // the person's
	os.Symlink(home, filepath.Join(home, "Deckhand", "up")) // in the workspace, which the shell writes
	s, err := p.ServerSpec("x", config.Server{Command: "srv"}, "/usr/bin/srv", "/usr/bin:"+filepath.Join(home, "Deckhand", "up")+":"+filepath.Join(home, "bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{filepath.Join(home, ".cargo", "bin"), filepath.Join(home, "Deckhand", "up")} {
		if slices.Contains(s.Read, bad) {
			t.Errorf("the spec reads %s, a link a server may have planted: %v", bad, s.Read)
		}
	}
	for _, want := range []string{filepath.Join(home, ".nvm"), filepath.Join(home, "bin")} {
		if !slices.Contains(s.Read, want) {
			t.Errorf("the spec does not read %s: %v", want, s.Read)
		}
	}
}

// The folder of Deckhand's own binary is read-only to a server that may
// write the folder holding it (write = ["~"] with deckhand in
// ~/.local/bin): nothing can be put beside the binary (deckhand-view, the
// window's view helper, is run from there with the display). A server
// granted that folder exactly still writes it.
func TestServerSpecProtectsOwnBinaryFolder(t *testing.T) {
	p, _ := testPolicy(t, nil)
	dir := ownBinaryDir()
	if dir == "" {
		t.Skip("this test binary's folder cannot be told")
	}
	s, err := p.ServerSpec("x", config.Server{Command: "srv", Write: []string{filepath.Dir(dir)}}, "/usr/bin/srv", "/usr/bin")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(s.Protect, dir) {
		t.Errorf("write = [%q]: the binary's folder %s is not protected: %v", filepath.Dir(dir), dir, s.Protect)
	}
	s, err = p.ServerSpec("x", config.Server{Command: "srv", Write: []string{dir}}, "/usr/bin/srv", "/usr/bin")
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(s.Protect, dir) {
		t.Errorf("write = [%q], the folder itself: protected all the same", dir)
	}
}

// A read in the read roots by a tool that marks itself read-only: its
// server's own mark counts when the kernel confines the server (a
// sandboxed command server, which can write only within the write roots
// whatever the tool does), and the decision says so; an unconfined or
// unmarked tool's path there is checked as a write, and the refusal says
// why (the folder granted "Read only" served nothing, and was refused as
// "outside the write roots" alone). Writes and paths outside every root
// are refused as before.
func TestReadOnlyMarkUnderTheSandbox(t *testing.T) {
	p, _ := testPolicy(t, func(c *config.Config) { c.Policy.FS.ReadRoots = []string{"~/Documents"} })
	marked := &sdk.Tool{Name: "read_text_file", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}
	unmarked := &sdk.Tool{Name: "write_file"}
	sandboxed, off := config.Server{Command: "x"}, config.Server{Command: "x", Sandbox: config.SandboxOff}
	cases := []struct {
		name    string
		srv     config.Server
		def     *sdk.Tool
		path    string
		allowed bool
		cap     string
		rule    string // in the decision's rule
	}{
		{"sandboxed, marked, read root", sandboxed, marked, "~/Documents/a.txt", true, CapRead, "read-only by its server's own mark; its sandbox lets it write only within the write roots"},
		{"sandboxed, marked, workspace", sandboxed, marked, "~/Deckhand/a.txt", true, CapWrite, "within"},
		{"sandboxed, marked, outside", sandboxed, marked, "/etc/passwd", false, CapWrite, "outside the write roots"},
		{"sandboxed, unmarked, read root", sandboxed, unmarked, "~/Documents/a.txt", false, CapWrite, "write_file is not marked read-only"},
		{"unconfined, marked, read root", off, marked, "~/Documents/a.txt", false, CapWrite, "read_text_file's read-only mark is its server's own, which counts only for a sandboxed or trusted server"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := p.CheckPaths(tc.srv, tc.def, json.RawMessage(`{"path":"`+tc.path+`"}`), false)
			if len(got) != 1 {
				t.Fatalf("decisions %+v, want one", got)
			}
			if d := got[0]; d.Allowed != tc.allowed || d.Capability != tc.cap || !strings.Contains(d.Rule, tc.rule) {
				t.Errorf("decision %+v, want allowed %v, %s, a rule with %q", d, tc.allowed, tc.cap, tc.rule)
			}
		})
	}
}
