package main

import (
	"path/filepath"
	"strings"
	"testing"

	"deckhand/testutil"
)

// chat -p --wait 0 with a server that starts slowly (here 1.5 s before it
// reads anything): the first request offers the tools of the server's last
// connection, kept in the log, and the model's call to one waits for the
// server and runs, instead of failing with "there is no tool named".
func TestSlowServerLosesNoCall(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "log.db")
	// A first chat connects the server (quickly) and keeps its tools.
	first := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("hello")})
	r := deckhand(t, nil, "", "--config", modelConfig(t, first, ""), "--db", dbPath, "chat", "-p", "hi", "--wait", "5s")
	if r.code != exitOK {
		t.Fatalf("first chat: exit %d, stderr %s", r.code, r.stderr)
	}

	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c1", Name: "s__echo", Arguments: `{"text":"it waited"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("The tool said so.")},
	)
	cfg := modelConfig(t, model, "args = [\"-delay\", \"1500ms\"]\nconnect_timeout = \"30s\"\n\n[tools]\nenabled = false\n") // s alone: its tools offered in the request itself
	r = deckhand(t, nil, "", "--config", cfg, "--db", dbPath, "chat", "-p", "use the echo tool", "--wait", "0", "--approve=auto")
	if r.code != exitOK || r.stdout != "The tool said so.\n" {
		t.Fatalf("chat -p --wait 0: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "connecting: s (tools offered from the last connection") {
		t.Errorf("stderr = %q, want s named as connecting, its tools offered from its last connection", r.stderr)
	}
	reqs := model.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[0]), `"s__echo"`) || !strings.Contains(string(reqs[1]), "Echo: it waited") {
		t.Errorf("requests = %d; want s__echo offered in the first and its result in the second:\n%s", len(reqs), reqs)
	}
}
