package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"deckhand/terminal"
	"deckhand/testutil"
)

// everythingConfig is server-everything over stdio with the scripted model.
func everythingConfig(t *testing.T, model *testutil.ModelServer) string {
	t.Helper()
	p := testutil.RequirePeers(t)
	url := "http://127.0.0.1:1/v1"
	if model != nil {
		url = model.URL
	}
	return writeConfig(t, fmt.Sprintf(`
[model]
base_url = %q
name = "scripted"

[mcp.servers.ev]
command = %q
args = [%q, "stdio"]
`, url, p.Node, p.Everything))
}

// mcp resources, read and prompts against server-everything.
func TestMCPResourcesAndPrompts(t *testing.T) {
	cfg := everythingConfig(t, nil)
	r := deckhand(t, nil, "", "--config", cfg, "mcp", "resources", "--wait", "30s")
	for _, want := range []string{
		"ev (protocol 2025-11-25): ", "subscriptions",
		"demo://resource/static/document/",
		"  templates:", "demo://resource/dynamic/text/{resourceId}  Dynamic Text Resource — Plaintext dynamic resource",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("mcp resources lacks %q:\n%s\nstderr: %s", want, r.stdout, r.stderr)
		}
	}
	r = deckhand(t, nil, "", "--config", cfg, "mcp", "resources", "ev", "--json", "--wait", "30s")
	var listed []terminal.ServerResources
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil || len(listed) != 1 || len(listed[0].Templates) < 2 || listed[0].Protocol == "" {
		t.Errorf("mcp resources --json = %v, %s", err, r.stdout)
	}

	r = deckhand(t, nil, "", "--config", cfg, "mcp", "read", "ev:demo://resource/dynamic/text/4")
	if r.code != exitOK || !strings.HasPrefix(r.stdout, "Resource 4: This is a plaintext resource") {
		t.Errorf("mcp read ev:URI: exit %d, %q, %s", r.code, r.stdout, r.stderr)
	}
	// Without an alias: the server whose template makes the URI; a blob of
	// text prints as text.
	r = deckhand(t, nil, "", "--config", cfg, "mcp", "read", "demo://resource/dynamic/blob/2")
	if r.code != exitOK || !strings.HasPrefix(r.stdout, "Resource 2: This is a base64 blob") {
		t.Errorf("mcp read URI: exit %d, %q, %s", r.code, r.stdout, r.stderr)
	}
	r = deckhand(t, nil, "", "--config", cfg, "mcp", "read", "nothing://here")
	if r.code == exitOK || !strings.Contains(r.stderr, "no ready server lists nothing://here") {
		t.Errorf("mcp read of an unknown URI: exit %d, %s", r.code, r.stderr)
	}

	r = deckhand(t, nil, "", "--config", cfg, "mcp", "prompts", "--wait", "30s")
	for _, want := range []string{"/ev.simple-prompt", "/ev.args-prompt city=… [state=…]", "    city (required): ", "/ev.resource-prompt resourceType=… resourceId=…"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("mcp prompts lacks %q:\n%s\nstderr: %s", want, r.stdout, r.stderr)
		}
	}
}

// In deckhand chat: :attach reads a resource (found by its template) and
// the next message carries it to the model; a prompt typed as
// /alias.prompt arg=value sends its messages, with its embedded resource
// attached; a prompt missing a required argument is refused.
func TestChatAttachAndPrompts(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("It is resource nine.")},
		testutil.ModelResponse{Body: testutil.TextChunks("Oslo is cold.")},
		testutil.ModelResponse{Body: testutil.TextChunks("Resource five it is.")},
	)
	cfg := everythingConfig(t, model)
	in := strings.Join([]string{
		":attach demo://resource/dynamic/text/9",
		"what is this?",
		"/ev.args-prompt",
		`/ev.args-prompt city=Oslo state="Not a state"`,
		":prompts ev",
		"/ev.resource-prompt resourceType=Text resourceId=5",
		"",
	}, "\n")
	r := deckhand(t, nil, in, "--config", cfg, "chat", "--wait", "30s")
	for _, want := range []string{
		"(attached demo://resource/dynamic/text/9 from ev,",
		"It is resource nine.",
		"(/ev.args-prompt needs city)",
		"(/ev.args-prompt sends:)",
		"Oslo is cold.",
		"/ev.simple-prompt",
		"📎 demo://resource/dynamic/text/5",
		"Resource five it is.",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("chat output lacks %q:\n%s\nstderr: %s", want, r.stdout, r.stderr)
		}
	}
	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	last := func(i int) string {
		var body struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		json.Unmarshal(reqs[i], &body)
		m := body.Messages[len(body.Messages)-1]
		b, _ := json.Marshal(m.Content)
		return string(b)
	}
	if got := last(0); !strings.Contains(got, `what is this?`) || !strings.Contains(got, `[Attached file \"demo://resource/dynamic/text/9\"`) || !strings.Contains(got, "Resource 9: This is a plaintext resource") {
		t.Errorf("the model got %s", got)
	}
	if got := last(1); !strings.Contains(got, "Oslo") {
		t.Errorf("the prompt's message was %s", got)
	}
	if got := last(2); !strings.Contains(got, "Resource 5: This is a plaintext resource") {
		t.Errorf("the resource prompt's message was %s", got)
	}
	if r.code != exitOK {
		t.Errorf("exit %d, stderr %s", r.code, r.stderr)
	}
}
