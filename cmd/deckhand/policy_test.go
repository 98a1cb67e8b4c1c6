package main

import (
	"encoding/json"
	"fmt"
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
secrets = ["GH_TOKEN"]

[mcp.servers.loose]
command = %q
sandbox = "off"

[mcp.servers.far]
url = "https://mcp.example.com/mcp"
`, stdioServerBin(t), stdioServerBin(t)))
	r := deckhand(t, nil, "", "--config", cfg, "policy")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"Workspace:", "/Deckhand", "Shell (CMD:):  off", "none are passed on", "Landlock ABI",
		"boxed: sandboxed, network on", "secrets passed on: GH_TOKEN", "loose: UNCONFINED", "far: remote, reached only at mcp.example.com",
		"loose runs unconfined", "policy.fs.write_roots includes", "whole home folder",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("policy output lacks %q:\n%s", want, r.stdout)
		}
	}
	r = deckhand(t, nil, "", "--config", cfg, "policy", "--json")
	var rep policyReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Servers) != 3 || rep.AllowExec || len(rep.Warnings) < 2 {
		t.Errorf("--json: %v %+v", err, rep)
	}
	r = deckhand(t, nil, "", "--config", cfg, "doctor", "--wait", "0")
	if !strings.Contains(r.stdout, "! loose runs unconfined") || !strings.Contains(r.stdout, "deckhand policy shows") {
		t.Errorf("doctor does not warn:\n%s", r.stdout)
	}
}
