package main

import (
	"deckhand/testutil"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// deckhand policy prints the policy in effect with its defaults, each
// server's confinement, and the warnings doctor repeats.
func TestPolicyCommand(t *testing.T) {
	cfg := writeConfig(t, fmt.Sprintf(`
[policy.fs]
write_roots = ["~"]

[mcp.servers.boxed]
command = %q
secrets = ["GH_TOKEN", "FORM_TOKEN"]
allow_secrets = ["FORM_TOKEN"]

[mcp.servers.loose]
command = %q
sandbox = "off"

[mcp.servers.narrow]
command = %q
network = ["api.github.com", "*.example.com"]

[mcp.servers.far]
url = "https://mcp.example.com/mcp"
`, stdioServerBin(t), stdioServerBin(t), stdioServerBin(t)))
	r := deckhand(t, nil, "", "--config", cfg, "policy")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"Workspace:", "/Deckhand", "Shell (CMD:):  off", "none are passed on", "Landlock ABI",
		"boxed: sandboxed, network: all", "namespaces user, mount, pid, ipc; Landlock ABI", "sockets: none of the session's",
		"narrow: sandboxed, network: only api.github.com, *.example.com (through Deckhand's proxy)", "namespaces user, mount, pid, ipc, net;",
		"secrets passed on: GH_TOKEN, FORM_TOKEN", "granted in the servers form (from the keyring, else Deckhand's environment): FORM_TOKEN", "loose: UNCONFINED", "far: remote, reached only at mcp.example.com",
		"loose runs unconfined", "policy.fs.write_roots includes", "whole home folder",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("policy output lacks %q:\n%s", want, r.stdout)
		}
	}
	// The system call filter and the keyring, per sandboxed server.
	if n := strings.Count(r.stdout, "seccomp: "); n != 2 || !strings.Contains(r.stdout, "system calls denied (from Flatpak's blocklist and Docker's default profile") {
		t.Errorf("policy shows the seccomp filter for %d servers, want 2:\n%s", n, r.stdout)
	}
	if n := strings.Count(r.stdout, "kernel keyring: a new anonymous session keyring"); n != 2 {
		t.Errorf("policy shows the keyring for %d servers, want 2:\n%s", n, r.stdout)
	}
	r = deckhand(t, nil, "", "--config", cfg, "policy", "--json")
	var rep policyReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Servers) != 4 || rep.Servers[3].Sandbox == nil || rep.Servers[3].Network != "hosts" || rep.AllowExec || len(rep.Warnings) < 2 {
		t.Errorf("--json: %v %+v", err, rep)
	}
	if sb := rep.Servers[0].Sandbox; sb == nil || sb.Seccomp == nil || sb.Seccomp.Denied < 50 || !slices.Contains(sb.Seccomp.Calls, "keyctl") || sb.Keyring == "" {
		t.Errorf("--json lacks the filter or the keyring: %+v", sb)
	}
	r = deckhand(t, nil, "", "--config", cfg, "doctor", "--wait", "0")
	if !strings.Contains(r.stdout, "! loose runs unconfined") || !strings.Contains(r.stdout, "deckhand policy shows") {
		t.Errorf("doctor does not warn:\n%s", r.stdout)
	}
}

// A call that names a path outside the roots is refused in the terminal,
// with why, and the log's timeline shows the decision.
func TestRefusalShownAndLogged(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "s__read_file", Arguments: `{"path":"/etc/shadow"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("It was refused.")},
	)
	db := filepath.Join(t.TempDir(), "log.db")
	cfg := writeConfig(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[mcp.servers.s]\ncommand = %q\nargs = [\"-probe\"]\n", model.URL, stdioServerBin(t)))
	r := deckhand(t, nil, "", "--config", cfg, "--db", db, "chat", "-p", "read it", "--approve=auto", "--wait", "60s")
	if r.code != exitOK || !strings.Contains(r.stderr, "Refused by Deckhand's policy") || !strings.Contains(r.stderr, "/etc/shadow") {
		t.Errorf("chat -p: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = deckhand(t, nil, "", "--config", cfg, "--db", db, "sessions", "--json")
	var sessions []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &sessions); err != nil || len(sessions) != 1 {
		t.Fatalf("sessions: %v %s", err, r.stdout)
	}
	r = deckhand(t, nil, "", "--config", cfg, "--db", db, "logs", "--session", sessions[0].ID)
	if !strings.Contains(r.stdout, "capability.denied") || !strings.Contains(r.stdout, "s.read_file: fs.write /etc/shadow DENIED (outside the write roots") {
		t.Errorf("logs:\n%s%s", r.stdout, r.stderr)
	}
}
