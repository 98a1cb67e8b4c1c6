package servers_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/actors/servers"
	"deckhand/actors/servers/serverstest"
	"deckhand/config"
	"deckhand/sandbox"
	"deckhand/testutil"
)

// settled awaits alias's first status that is not connecting.
func settled(t *testing.T, s *serverstest.System, alias string) *servers.ServerStatus {
	t.Helper()
	for {
		st := serverstest.Expect[*servers.ServerStatus](t, s.Events)
		if st.Alias == alias && st.Settled() {
			return st
		}
	}
}

// sandboxedHome gives the test a home folder of its own (the policy's
// workspace and the servers' state folders are in it) and skips the test
// where the sandbox cannot run.
func sandboxedHome(t *testing.T) string {
	t.Helper()
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	return home
}

// A server installed by npm, started as the command npm links under
// node_modules/.bin, runs in the sandbox: node imports its dependencies
// from the node_modules folder that holds it (npm hoists them there, beside
// the package, not inside it), which the sandbox lets it read. Through the
// worktree's testutil/node_modules, itself a link, the command and the
// package it runs are in different folders.
func TestNodeModulesBinServerSandboxed(t *testing.T) {
	testutil.RequirePeers(t)
	sandboxedHome(t)
	bin := filepath.Join(testutil.ModuleRoot(t), "testutil", "node_modules", ".bin", "mcp-server-everything")
	if _, err := os.Stat(bin); err != nil {
		t.Skip(err)
	}
	s := serverstest.Start(t, servers.Options{Servers: map[string]config.Server{"everything": {Command: bin}}})
	st := settled(t, s, "everything")
	if st.State != servers.StateReady || st.Tools == 0 {
		t.Fatalf("everything = %s, %d tools (%s), want ready with its tools", st.State, st.Tools, st.Reason)
	}
	t.Logf("%s: %d tools, sandboxed", bin, st.Tools)
}

// A sandboxed server that stops at start saying it could not open a file
// is told, after its stderr, that the sandbox lets it read only some
// folders and where to grant one; neither a server outside the sandbox
// saying the same, nor a sandboxed one stopping for another reason, is.
func TestSandboxedStartFailureHint(t *testing.T) {
	sandboxedHome(t)
	hidden := filepath.Join(t.TempDir(), "notes.txt") // not granted: the sandbox's /tmp is its own
	if err := os.WriteFile(hidden, []byte("notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "missing.txt")
	// The path comes in the environment: a path in the arguments is granted.
	reader := func(path, sandbox string) config.Server {
		return config.Server{Command: "sh", Args: []string{"-c", `cat "$NOTES" >/dev/null && exit 3; exit 1`}, Env: map[string]string{"NOTES": path}, Sandbox: sandbox}
	}
	hint := "It runs in Deckhand's sandbox, which lets it read only some folders (deckhand policy lists them): if what it could not open is elsewhere, grant that folder in mcp.servers.%s.read (Also reads, in the window)."
	tests := []struct {
		name   string
		srv    config.Server
		stderr string // in the reason, before the hint
		hint   bool
	}{
		{"sandboxed, a file it cannot see", reader(hidden, ""), "No such file or directory", true},
		{"unconfined, a file missing", reader(missing, "off"), "No such file or directory", false},
		{"sandboxed, another error", config.Server{Command: "sh", Args: []string{"-c", "echo 'Error: unknown flag --bogus' >&2; exit 2"}}, "unknown flag --bogus", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := serverstest.Start(t, servers.Options{Servers: map[string]config.Server{"notes": tc.srv}})
			st := settled(t, s, "notes")
			if st.State != servers.StateFailed || !strings.Contains(st.Reason, tc.stderr) {
				t.Fatalf("notes = %s: %s; want failed with %q", st.State, st.Reason, tc.stderr)
			}
			t.Logf("notes: %s", st.Reason)
			want := fmt.Sprintf(hint, "notes")
			if got := strings.HasSuffix(st.Reason, ". "+want); got != tc.hint {
				t.Errorf("notes' Reason = %q; ends with the sandbox's hint: %v, want %v", st.Reason, got, tc.hint)
			}
		})
	}
}

// linkedServer is a workspace's member package, a stdio MCP server in node
// with nothing but node's own modules and one dependency of its own (in
// the member's node_modules, not hoisted): its one tool says what the
// dependency exports.
var linkedServer = map[string]string{
	"package.json": `{"name": "greeter", "version": "1.0.0", "type": "module", "bin": {"greeter": "dist/index.js"}}`,
	"dist/index.js": `#!/usr/bin/env node
import { createInterface } from "node:readline";
import { greeting } from "greeting";
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "greeter", version: "1.0.0" } } });
  else if (m.method === "tools/list") send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "greet", description: greeting, inputSchema: { type: "object" } }] } });
  else if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "no such method" } });
});
`,
	"node_modules/greeting/package.json": `{"name": "greeting", "version": "1.0.0", "type": "module", "exports": "./index.js"}`,
	"node_modules/greeting/index.js":     `export const greeting = "hello from the member's own dependency";`,
}

// A workspace's member, linked into the workspace's node_modules (as npm
// does for workspaces and npm link) and started as node_modules/.bin/x,
// runs in the sandbox: node runs it from its own folder, outside
// node_modules, and imports its dependencies from the member's
// node_modules, which the sandbox lets it read.
func TestLinkedPackageServerSandboxed(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	home := sandboxedHome(t)
	repo := filepath.Join(home, "src", "repo")
	member := filepath.Join(repo, "packages", "greeter")
	for name, text := range linkedServer {
		path := filepath.Join(member, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(repo, "node_modules", ".bin", "greeter")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../packages/greeter", filepath.Join(repo, "node_modules", "greeter")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../greeter/dist/index.js", bin); err != nil {
		t.Fatal(err)
	}
	s := serverstest.Start(t, servers.Options{Servers: map[string]config.Server{"greeter": {Command: bin}}})
	st := settled(t, s, "greeter")
	if st.State != servers.StateReady || st.Tools != 1 {
		t.Fatalf("greeter = %s, %d tools (%s), want ready with its tool", st.State, st.Tools, st.Reason)
	}
}
