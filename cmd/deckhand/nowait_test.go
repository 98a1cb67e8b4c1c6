package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"deckhand/testutil"
)

// silentServer is a stdio "server" that reads its input and never answers,
// not even initialize.
const silentServer = `
[mcp.servers.silent]
command = "sh"
args = ["-c", "cat > /dev/null"]
connect_timeout = "30s"
`

// A server that never answers initialize holds up neither chat -p (it
// answers while the server is still connecting, well inside its 30 s
// connect timeout) nor mcp list, tools, search and doctor (they say it is
// connecting). The ready server's tools are there. The commands wait 5 s
// (a sandboxed server's start takes over a second on a loaded 2-core
// machine; chat -p is given 10 s), well inside the silent server's 30 s.
func TestBrokenServerDelaysNobody(t *testing.T) {
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("hello to you")})
	cfg := modelConfig(t, model, silentServer)

	start := time.Now()
	r := deckhand(t, nil, "", "--config", cfg, "chat", "-p", "hello", "--wait", "10s")
	t.Logf("chat -p hello answered in %v with a server that never answers initialize (connect_timeout 30s)", time.Since(start).Round(time.Millisecond))
	if r.code != exitOK || r.stdout != "hello to you\n" {
		t.Fatalf("chat -p: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	// The line names every server still connecting; under load the ready
	// one may still be among them, so silent is looked for in the list.
	if !connectingNames(r.stderr, "silent") || strings.Contains(r.stderr, "failed") {
		t.Errorf("chat -p stderr = %q, want silent named as connecting", r.stderr)
	}
	var body struct {
		Tools []json.RawMessage `json:"tools"`
	}
	json.Unmarshal(model.Requests()[0], &body)
	if len(body.Tools) == 0 {
		t.Errorf("the first request offers no tools; want the ready server's")
	}

	r = deckhand(t, nil, "", "--config", cfg, "mcp", "list", "--json", "--wait", "5s")
	var list []statusJSON
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("mcp list --json: %v\n%s", err, r.stdout)
	}
	states := map[string]string{}
	for _, s := range list {
		states[s.Alias] = s.State
	}
	if states["silent"] != "connecting" || states["s"] != "ready" {
		t.Errorf("mcp list states = %v, want silent connecting and s ready", states)
	}
	r = deckhand(t, nil, "", "--config", cfg, "mcp", "tools", "--wait", "5s")
	if !strings.Contains(r.stdout, "s.echo") || !strings.Contains(r.stderr, "silent: connecting") {
		t.Errorf("mcp tools: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	r = deckhand(t, nil, "", "--config", cfg, "doctor", "--wait", "5s")
	if !strings.Contains(r.stdout, "still connecting after 5s") || !strings.Contains(r.stdout, "--wait") {
		t.Errorf("doctor:\n%s", r.stdout)
	}
}

// connectingNames reports whether stderr has a "connecting: " line naming
// alias among the servers it lists ("connecting: s (tools offered …);
// silent, other (their tools join …)").
func connectingNames(stderr, alias string) bool {
	for _, line := range strings.Split(stderr, "\n") {
		_, list, ok := strings.Cut(line, "connecting: ")
		if !ok {
			continue
		}
		for _, group := range strings.Split(list, "; ") {
			names, _, _ := strings.Cut(group, " (")
			if slices.Contains(strings.Split(names, ", "), alias) {
				return true
			}
		}
	}
	return false
}
