package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/testutil"
)

// chatConfig points at aimock (with the fixtures in testdata/aimock) and
// server-everything over stdio, auto-approving ev.echo only.
func chatConfig(t *testing.T, extra string) (string, *testutil.AIMock) {
	t.Helper()
	p := testutil.RequirePeers(t)
	mock := testutil.StartAIMock(t, p, filepath.Join(testutil.ModuleRoot(t), "cmd", "deckhand", "testdata", "aimock"))
	return writeConfig(t, fmt.Sprintf(`
[model]
base_url = %q
name = "gpt-4o-mini"

[mcp.auto_approve]
"ev.echo" = true

[mcp.servers.ev]
command = %q
args = [%q, "stdio"]
%s`, mock.URL, p.Node, p.Everything, extra)), mock
}

// terminalChat runs deckhand with args (a chat) in this process as at a
// terminal: its standard input is a pipe, to which say writes a line; out
// gets its standard output and error, exited its exit code.
func terminalChat(t *testing.T, args ...string) (out *testutil.LockedBuffer, say func(string), exited chan int) {
	t.Helper()
	stdinR, stdinW := io.Pipe()
	out = &testutil.LockedBuffer{}
	e := &env{
		stdin: stdinR, stdout: out, stderr: out,
		getenv: func(string) (string, bool) { return "", false },
		tty:    func(f any) bool { return f == stdinR },
	}
	exited = make(chan int, 1)
	go func() { exited <- run(t.Context(), args, e) }()
	t.Cleanup(func() { stdinW.Close() })
	return out, func(s string) { io.WriteString(stdinW, s+"\n") }, exited
}

// toolResultsSent returns the tool messages the model received.
func toolResultsSent(t *testing.T, mock *testutil.AIMock) []string {
	var out []string
	for _, body := range mock.Journal(t) {
		msgs, _ := body["messages"].([]any)
		for _, m := range msgs {
			mm := m.(map[string]any)
			if mm["role"] == "tool" {
				out = append(out, fmt.Sprint(mm["content"]))
			}
		}
	}
	return out
}

// deckhand chat -p against aimock and server-everything: the model calls
// echo and get-sum, the results reach the model, the final answer prints.
// echo is auto-approved; get-sum would be asked, which with no terminal is
// a deny unless --approve=auto.
func TestChatOneShot(t *testing.T) {
	cfg, mock := chatConfig(t, "")
	tests := []struct {
		name    string
		args    []string
		stdout  string
		stderr  []string
		results []string
	}{
		{"auto-approved tool", []string{"-p", "please echo something"}, "The echo tool answered: hello from aimock.\n",
			[]string{"⚙ ev.echo", "✓ ev.echo"}, []string{"Echo: hello from aimock"}},
		{"asked with no terminal is denied", []string{"-p", "please add two numbers"}, "I was not allowed to add the numbers.\n",
			[]string{"ev.get-sum denied: no terminal to ask for approval (use --approve=auto)"}, []string{"Denied (no terminal to ask the user; run with --approve=auto to allow); the call was not run."}},
		{"--approve=auto", []string{"-p", "please add two numbers", "--approve=auto"}, "The server says 2 + 3 = 5.\n",
			[]string{"ev.get-sum allowed (--approve=auto)"}, []string{"The sum of 2 and 3 is 5."}},
		{"--approve=deny", []string{"-p", "please echo something", "--approve=deny"}, "The echo tool answered: hello from aimock.\n",
			nil, []string{"Echo: hello from aimock"}}, // an auto_approve rule needs no asking
		{"two rounds of tools", []string{"-p", "a multi-step task", "--approve=auto"}, "Step one echoed, then 3 + 4 = 7. Both tools worked.\n",
			[]string{"✓ ev.echo", "✓ ev.get-sum"}, []string{"Echo: step one", "The sum of 3 and 4 is 7."}},
		{"two calls in one turn", []string{"-p", "do both", "--approve=auto"}, "Echoed and added: 42.\n",
			[]string{"✓ ev.echo", "✓ ev.get-sum"}, []string{"Echo: first", "The sum of 40 and 2 is 42."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(toolResultsSent(t, mock))
			r := deckhand(t, nil, "", append([]string{"--config", cfg, "chat", "--wait", "60s"}, tt.args...)...)
			if r.code != exitOK || r.stdout != tt.stdout {
				t.Errorf("exit %d, stdout %q, want %q\nstderr:\n%s", r.code, r.stdout, tt.stdout, r.stderr)
			}
			for _, want := range tt.stderr {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
			sent := strings.Join(toolResultsSent(t, mock)[before:], "\n")
			for _, want := range tt.results {
				if !strings.Contains(sent, want) {
					t.Errorf("the model never got %q; it got:\n%s", want, sent)
				}
			}
		})
	}
}

func TestChatErrors(t *testing.T) {
	r := deckhand(t, nil, "", "--config", writeConfig(t, ""), "chat", "-p", "hi")
	if r.code != exitUsage || !strings.Contains(r.stderr, "no model is configured") || !strings.Contains(r.stderr, "base_url") {
		t.Errorf("chat with no model: exit %d, stderr %q", r.code, r.stderr)
	}
	model := testutil.NewModelServer(t, testutil.ModelResponse{Status: 404, Body: `{"error":{"message":"The model 'nope' does not exist"}}`})
	cfg := writeConfig(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"nope\"\nmax_retries = 0\n", model.URL))
	r = deckhand(t, nil, "", "--config", cfg, "chat", "-p", "hi")
	// The refusal names the request and what to do about it.
	if r.code != exitFailure || !strings.Contains(r.stderr, "404 Not Found from POST "+model.URL) ||
		!strings.Contains(r.stderr, "The model 'nope' does not exist") || !strings.Contains(r.stderr, `does not know the model "nope"`) {
		t.Errorf("chat with a missing model: exit %d, stderr %q", r.code, r.stderr)
	}
	// A model that wants a key, named by api_key_env but not set: the
	// refusal says which variable and that the keyring has none either.
	keyed := testutil.NewModelServer(t)
	keyed.RequireKey("sk-right")
	cfg = writeConfig(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"m\"\napi_key_env = \"DECKHAND_TEST_KEY\"\nmax_retries = 0\n", keyed.URL))
	r = deckhand(t, nil, "", "--config", cfg, "chat", "-p", "hi")
	if r.code != exitFailure || !strings.Contains(r.stderr, "$DECKHAND_TEST_KEY is not set in Deckhand's environment, and the keyring holds no key for") {
		t.Errorf("chat with a missing key: exit %d, stderr %q", r.code, r.stderr)
	}
	r = deckhand(t, nil, "", "--config", cfg, "chat", "--approve", "maybe")
	if r.code != exitUsage || !strings.Contains(r.stderr, "--approve must be ask, auto or deny") {
		t.Errorf("chat --approve maybe: exit %d, stderr %q", r.code, r.stderr)
	}
}

// The REPL with input piped in: messages run in turn, commands answer, and
// the chat ends when the input does and the work is done.
func TestChatREPLPiped(t *testing.T) {
	cfg, _ := chatConfig(t, "")
	in := "hello\n:mcp list\nplease echo\n:nonsense\n"
	r := deckhand(t, nil, in, "--config", cfg, "chat", "--wait", "60s")
	for _, want := range []string{
		"2 of 2 servers ready", // ev and the built-in local
		"Hello! I can echo text and add numbers",
		"ALIAS  TRANSPORT", "ev     stdio",
		"✓ ev.echo", "The echo tool answered: hello from aimock.",
		`unknown command ":nonsense"`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("REPL output lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != exitOK {
		t.Errorf("exit %d, stderr %s", r.code, r.stderr)
	}
}

// The REPL at a terminal: a call that is not auto-approved is asked, and the
// answer typed decides; no answer in time is a deny.
func TestChatREPLApprovals(t *testing.T) {
	cfg, mock := chatConfig(t, "\n[mcp]\napproval_timeout = \"1s\"\n")
	out, say, exited := terminalChat(t, "--config", cfg, "chat", "--wait", "60s")
	waitFor := func(s string) {
		t.Helper()
		testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), s) }, "output never showed %q:\n%s", s, out)
	}

	waitFor("> ")
	say("please add two numbers")
	waitFor("Allow ev.get-sum?")
	waitFor("The server says: read-only")
	waitFor("(A hint from an untrusted server.)")
	waitFor(`"a": 2,`)
	waitFor("[y]es once / [s]ession / [a]lways / [N]o")
	say("y")
	waitFor("The server says 2 + 3 = 5.")

	say("add them again")
	testutil.Eventually(t, wait, func() bool { return strings.Count(out.String(), "Allow ev.get-sum?") == 2 }, "not asked again:\n%s", out)
	waitFor("(approval for ev.get-sum closed: no answer within 1s; denied)")
	waitFor("I was not allowed to add the numbers.")

	say(":quit")
	if code := testutil.Receive(t, exited, wait, "chat to quit"); code != exitOK {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
	sent := strings.Join(toolResultsSent(t, mock), "\n")
	if !strings.Contains(sent, "The sum of 2 and 3 is 5.") || !strings.Contains(sent, "Denied (no answer within 1s)") {
		t.Errorf("tool results the model got:\n%s", sent)
	}
}

// :mcp connect in the terminal takes a bearer token from a variable
// (--auth-env) or a file (--auth-token-file), as `deckhand mcp connect`
// does: an lmcp-style server that answers only with the token connects,
// and is sent the token; without one it is refused with the server's 401;
// the token itself is never printed.
func TestChatConnectWithToken(t *testing.T) {
	const token = "s3cret-lmcp-token-4711"
	lm := testutil.NewLMCP(t, token)
	cfg, _ := chatConfig(t, "")
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty")
	os.WriteFile(empty, nil, 0o600)
	in := ":mcp connect " + lm.URL + " bare\n" +
		":mcp connect " + lm.URL + " byenv --auth-env LMCP_TOKEN\n" +
		":mcp connect " + lm.URL + " byfile --auth-token-file " + file + "\n" +
		":mcp connect " + lm.URL + " none --auth-token-file " + empty + "\n" +
		":mcp connect " + lm.URL + " --auth-env\n" +
		":mcp list\n"
	r := deckhand(t, map[string]string{"LMCP_TOKEN": token}, in, "--config", cfg, "chat")
	for _, want := range []string{
		"bare: ", "401",
		"Connected byenv over", "Connected byfile over",
		"--auth-token-file " + empty + ": empty",
		"--auth-env needs a value",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout+r.stderr, token) {
		t.Errorf("the token was printed:\n%s%s", r.stdout, r.stderr)
	}
	sent := 0
	for _, a := range lm.Authorizations() {
		if a == "Bearer "+token {
			sent++
		}
	}
	if sent < 2 {
		t.Errorf("the token reached the server %d times; want both connections to send it: %q", sent, lm.Authorizations())
	}
}

// A model whose chat template refuses role "tool" (400 "roles must
// alternate", as mistral-nemo's) still gets its tool's result: the same
// turn is sent again with the result as a user turn headed
// "[tool: alias.tool]", and the answer comes.
func TestChatToolRoleRefused(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text":"hello there"}`})},
		testutil.ModelResponse{Status: 400, Header: map[string]string{"Content-Type": "application/json"},
			Body: `{"error":{"code":400,"message":"Conversation roles must alternate user/assistant/user/assistant/...","type":"invalid_request_error"}}`},
		testutil.ModelResponse{Body: testutil.TextChunks("The tool said hello there.")},
	)
	cfg := writeConfig(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"mistral-nemo\"\nmax_retries = 0\n\n[mcp.servers.t]\ncommand = %q\n", model.URL, stdioServerBin(t)))
	r := deckhand(t, nil, "", "--config", cfg, "chat", "-p", "echo hello there", "--approve", "auto", "--wait", "30s")
	if r.code != exitOK || !strings.Contains(r.stdout, "The tool said hello there.") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	last := string(reqs[2])
	if strings.Contains(last, `"role":"tool"`) || !strings.Contains(last, `[tool: t.echo]\nEcho: hello there`) {
		t.Errorf("the retried request:\n%s", last)
	}
}
