package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/sandbox"
	"deckhand/testutil"
)

const goodDef = `{"name": "hello", "command": "echo", "synchronous": true, "description": "Says hello.",
	"positional_args": [{"name": "words", "type": "array", "default": ["hello"]}]}`

const badDef = `{"name": "broken", "command": "echo", "description": "x",
	"options": [{"name": "n", "type": "integer", "default": "two"}]}`

// toolsWorkspace is a workspace holding a git repository with one commit.
func toolsWorkspace(t *testing.T) string {
	t.Helper()
	if err := sandbox.Available(); err != nil {
		t.Skipf("no Landlock here: %v", err)
	}
	home, _ := os.UserHomeDir()
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Test\n\temail = test@example.com\n"), 0o644)
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(ws, "README.md"), []byte("# demo\nthe workspace readme\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "the first commit"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return ws
}

func TestToolsCLI(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "hello.json"), []byte(goodDef), 0o644)
	os.WriteFile(filepath.Join(dir, "broken.json"), []byte(badDef), 0o644)
	cfg := writeConfig(t, fmt.Sprintf("[tools]\ndir = %q\n", dir))

	r := deckhand(t, nil, "", "tools", "schema")
	var schema map[string]any
	if r.code != exitOK || json.Unmarshal([]byte(r.stdout), &schema) != nil || schema["title"] == nil {
		t.Errorf("tools schema: exit %d, %.200s", r.code, r.stdout)
	}
	r = deckhand(t, nil, "", "--config", cfg, "tools", "validate")
	if r.code != exitFailure || !strings.Contains(r.stdout, "ok "+filepath.Join(dir, "hello.json")+": hello") ||
		!strings.Contains(r.stdout, "rejected "+filepath.Join(dir, "broken.json")+`: $.options[0].default: the default "two" does not fit the parameter (type integer)`) {
		t.Errorf("tools validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = deckhand(t, nil, "", "tools", "validate", filepath.Join(dir, "hello.json"))
	if r.code != exitOK || !strings.Contains(r.stdout, "ok ") {
		t.Errorf("tools validate FILE: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = deckhand(t, nil, "", "--config", cfg, "tools", "list", "--json")
	var list struct {
		Tools []struct {
			Name      string `json:"name"`
			Available bool   `json:"available"`
		} `json:"tools"`
		Problems []struct{ File, Path, Reason string } `json:"problems"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || r.code != exitOK {
		t.Fatalf("tools list --json: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	names := map[string]bool{}
	for _, tl := range list.Tools {
		names[tl.Name] = tl.Available
	}
	for _, want := range []string{"hello", "files_list", "files_read", "files_search", "git_log", "shell"} {
		if !names[want] {
			t.Errorf("tools list lacks %s: %v", want, names)
		}
	}
	if len(list.Problems) != 1 || list.Problems[0].Path != "$.options[0].default" {
		t.Errorf("problems: %+v", list.Problems)
	}
	r = deckhand(t, nil, "", "tools", "frob")
	if r.code != exitUsage {
		t.Errorf("tools frob: exit %d", r.code)
	}
	r = deckhand(t, nil, "", "tools", "serve", "--http", "0.0.0.0:0")
	if r.code != exitUsage || !strings.Contains(r.stderr, "loopback only") {
		t.Errorf("tools serve on 0.0.0.0: exit %d, %s", r.code, r.stderr)
	}
}

// startToolsHTTP runs `deckhand tools serve --http 127.0.0.1:0` and
// returns its URL and the token it printed.
func startToolsHTTP(t *testing.T, ws string, extra ...string) (string, string) {
	t.Helper()
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	cmd := exec.Command(bin, append([]string{"tools", "serve", "--http", "127.0.0.1:0", "--scope", ws, "--dir", t.TempDir()}, extra...)...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	urls, tokens := make(chan string, 1), make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		serving := regexp.MustCompile(`serving (http://\S+/mcp)`)
		bearer := regexp.MustCompile(`Authorization: Bearer (\S+)"`)
		for sc.Scan() {
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
			if m := bearer.FindStringSubmatch(sc.Text()); m != nil {
				tokens <- m[1]
			}
		}
	}()
	var u, tok string
	for u == "" || tok == "" {
		select {
		case u = <-urls:
		case tok = <-tokens:
		case <-time.After(30 * time.Second):
			t.Fatal("tools serve --http did not start")
		}
	}
	return u, tok
}

// withBearer is a loopback proxy to target that adds the token, for
// clients that cannot send headers (the conformance suite). The Host
// header passes as it came.
func withBearer(t *testing.T, target, token string) string {
	up, _ := url.Parse(target)
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(up)
		r.Out.URL.Path = up.Path
		r.Out.Host = r.In.Host
		r.Out.Header.Set("Authorization", "Bearer "+token)
	}, FlushInterval: -1}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// Without the token, nobody reaches the tools: not a client of this
// user's that lacks it, not another user of this computer.
func TestToolsHTTPNeedsToken(t *testing.T) {
	u, tok := startToolsHTTP(t, toolsWorkspace(t))
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	post := func(auth string) int {
		req, _ := http.NewRequest("POST", u, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := post(""); got != http.StatusUnauthorized {
		t.Errorf("no token: %d", got)
	}
	if got := post("Bearer " + strings.Repeat("x", len(tok))); got != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d", got)
	}
	if got := post("Bearer " + tok); got != http.StatusOK {
		t.Errorf("the token: %d", got)
	}
	// Another user, with curl and no way to read the token file.
	if os.Getuid() == 0 && testutil.Unprivileged(t) != "" {
		out, _ := exec.Command("su", testutil.Unprivileged(t), "-c", "curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' --data '"+body+"' "+u).CombinedOutput()
		if strings.TrimSpace(string(out)) != "401" {
			t.Errorf("another user got %q", out)
		}
	}
}

// The conformance suite's server scenarios that apply to a server with its
// own tools, against `deckhand tools serve --http`. The tools-call-*,
// resources-*, prompts-*, completion-complete, elicitation-* and
// json-schema-2020-12 scenarios call fixture tools, resources and prompts
// of the suite's own test server (test_simple_text, …), which a server
// with our own tools does not have; server-sse-polling needs such a tool
// too (it reports 0/0).
func TestToolsConformance(t *testing.T) {
	p := testutil.RequirePeers(t)
	u, tok := startToolsHTTP(t, toolsWorkspace(t))
	url := withBearer(t, u, tok)
	for _, scenario := range []string{"server-initialize", "ping", "tools-list", "dns-rebinding-protection", "logging-set-level", "server-sse-multiple-streams"} {
		t.Run(scenario, func(t *testing.T) {
			cmd := exec.Command(p.Node22, p.Conformance, "server", "--url", url, "--scenario", scenario)
			cmd.Dir = t.TempDir()
			out, err := cmd.CombinedOutput()
			m := regexp.MustCompile(`Passed: (\d+)/(\d+), 0 failed`).FindStringSubmatch(string(out))
			if err != nil || m == nil || m[1] != m[2] || m[1] == "0" {
				t.Errorf("scenario %s: %v\n%s", scenario, err, out)
			}
		})
	}
}

// The real binary over stdio, with a go-sdk client: tools listed and
// called, and a definition added while connected is announced.
func TestToolsServeStdio(t *testing.T) {
	ws := toolsWorkspace(t)
	dir := t.TempDir()
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	changed := make(chan struct{}, 8)
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} },
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(bin, "tools", "serve", "--scope", ws, "--dir", dir)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "git_log", Arguments: map[string]any{"oneline": true}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "the first commit") {
		t.Fatalf("git_log: %v %+v", err, res)
	}
	os.WriteFile(filepath.Join(dir, "hello.json"), []byte(goodDef), 0o644)
	deadline := time.After(20 * time.Second)
	for {
		lt, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, tl := range lt.Tools {
			found = found || tl.Name == "hello"
		}
		if found {
			break
		}
		select {
		case <-changed:
		case <-time.After(500 * time.Millisecond):
		case <-deadline:
			t.Fatal("the new definition's tool never appeared")
		}
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "hello", Arguments: map[string]any{"words": []string{"hi", "there"}}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "hi there") {
		t.Fatalf("hello: %v %+v", err, res)
	}
}

// deckhand chat with the built-in server: the model lists the workspace,
// reads a file and shows git log, each call through the approval gate.
func TestToolsInChat(t *testing.T) {
	ws := toolsWorkspace(t)
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c1", Name: "local__files_list", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c2", Name: "local__files_read", Arguments: `{"path": "README.md"}`})},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c3", Name: "local__git_log", Arguments: `{"oneline": true}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("All three worked.")},
	)
	cfg := writeConfig(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"m\"\n\n[policy]\nworkspace = %q\n\n[tools]\nenabled = true\ndir = %q\n",
		model.URL, ws, t.TempDir()))
	r := deckhand(t, nil, "", "--config", cfg, "chat", "-p", "look around", "--approve=auto", "--wait", "60s")
	if r.code != exitOK || !strings.Contains(r.stdout, "All three worked.") {
		t.Fatalf("chat: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"local.files_list allowed (--approve=auto)", "local.files_read allowed (--approve=auto)", "local.git_log allowed (--approve=auto)"} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("the gate did not decide %q:\n%s\n%s", want, r.stdout, r.stderr)
		}
	}
	reqs := model.Requests()
	last := string(reqs[len(reqs)-1])
	for _, want := range []string{"README.md", "the workspace readme", "the first commit"} {
		if !strings.Contains(last, want) {
			t.Errorf("the model never saw %q", want)
		}
	}
}

// A command that takes longer than the server's usual inline wait (2 s)
// still answers Deckhand's own conversation with its result, not an
// operation to await: the model sees the output.
func TestToolsLongCommandInChat(t *testing.T) {
	ws := toolsWorkspace(t)
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c1", Name: "local__shell", Arguments: `{"command": "sleep 3; echo $((40+2))-done"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("It finished.")},
	)
	cfg := writeConfig(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"m\"\n\n[policy]\nworkspace = %q\nallow_exec = true\n\n[tools]\nenabled = true\ndir = %q\n",
		model.URL, ws, t.TempDir()))
	r := deckhand(t, nil, "", "--config", cfg, "chat", "-p", "run it", "--approve=auto", "--wait", "60s")
	if r.code != exitOK || !strings.Contains(r.stdout, "It finished.") {
		t.Fatalf("chat: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	reqs := model.Requests()
	if last := string(reqs[len(reqs)-1]); !strings.Contains(last, "42-done") {
		t.Errorf("the model did not get the command's output: %.2000s", last)
	}
}

// The MCP Inspector's CLI mode lists the built-in server's tools and calls
// one, over stdio against the real binary.
func TestToolsInspectorCLI(t *testing.T) {
	peers := testutil.RequirePeers(t)
	ws := toolsWorkspace(t)
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	home := t.TempDir()
	inspect := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, peers.Node22, append([]string{peers.Inspector, "--cli", bin, "tools", "serve", "--scope", ws}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "MCP_CATALOG_PATH="+filepath.Join(home, "mcp.json"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("inspector %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	var list struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	out := inspect("--method", "tools/list")
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("tools/list: %v\n%s", err, out)
	}
	names := map[string]bool{}
	for _, tl := range list.Tools {
		names[tl.Name] = true
	}
	for _, want := range []string{"files_list", "files_read", "git_log", "shell", "await", "status", "cancel"} {
		if !names[want] {
			t.Errorf("the Inspector does not list %s: %v", want, names)
		}
	}
	if out := inspect("--method", "tools/call", "--tool-name", "files_read", "--tool-arg", "path=README.md"); !strings.Contains(out, "the workspace readme") {
		t.Errorf("tools/call files_read: %s", out)
	}
}

// Deckhand's own tools server run as a sandboxed stdio server (the default
// sandbox): it cannot build its sandbox inside Deckhand's, says so naming
// the outer sandbox and the way out (--no-sandbox, or
// DECKHAND_NO_SANDBOX=1), instead of "the kernel cannot sandbox programs"
// with advice about kernel settings (Ahma's R7.6); with the way out it
// works, confined by the outer sandbox alone: a file in the scope is read,
// a command cannot write outside the server's roots. DECKHAND_TOOLS_SCOPE
// gives the scope as --scope does (R7.1.6).
func TestToolsServerNestedInSandbox(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	ws := t.TempDir()
	sub := filepath.Join(ws, "sub")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "note.txt"), []byte("in the scope\n"), 0o644)
	outside := filepath.Join(t.TempDir(), "planted.txt")
	cfg := func(args, env string) string {
		return writeConfig(t, fmt.Sprintf("[policy]\nworkspace = %q\n\n[tools]\nenabled = false\n\n[mcp.servers.tl]\ncommand = %q\nargs = %s\nenv = %s\n", ws, bin, args, env))
	}
	r := deckhand(t, nil, "", "--config", cfg(`["tools", "serve"]`, "{}"), "mcp", "list", "--wait", "30s")
	if r.code == exitOK || !strings.Contains(r.stdout, "already runs inside another sandbox") || !strings.Contains(r.stdout, "--no-sandbox") ||
		!strings.Contains(r.stdout, "DECKHAND_NO_SANDBOX=1") || strings.Contains(r.stdout, "Landlock needs Linux") {
		t.Errorf("nested without the way out: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for name, c := range map[string]string{
		"flag": cfg(`["tools", "serve", "--no-sandbox"]`, `{ DECKHAND_TOOLS_SCOPE = "`+sub+`" }`),
		"env":  cfg(`["tools", "serve"]`, `{ DECKHAND_NO_SANDBOX = "1", DECKHAND_TOOLS_SCOPE = "`+sub+`" }`),
	} {
		t.Run(name, func(t *testing.T) {
			r := deckhand(t, nil, "", "--config", c, "mcp", "call", "tl.files_read", `{"path":"note.txt"}`, "--timeout", "60s")
			if r.code != exitOK || !strings.Contains(r.stdout, "in the scope") {
				t.Fatalf("files_read in the scope: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			r = deckhand(t, nil, "", "--config", c, "mcp", "call", "tl.shell", fmt.Sprintf(`{"command":"echo x > %s"}`, outside), "--timeout", "60s")
			if _, err := os.Stat(outside); err == nil {
				t.Fatalf("a command wrote outside the server's roots:\n%s%s", r.stdout, r.stderr)
			}
		})
	}
}

// A call of a built-in tool whose definition was not loaded (its program
// is not installed) tells the model why, with the file: Deckhand knows,
// and "there is no tool named" sent the model hunting for another name.
func TestToolsNotLoadedInChat(t *testing.T) {
	ws := toolsWorkspace(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "frob.json"), []byte(`{"name": "frob", "description": "d", "command": "frobnicator-not-installed"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c1", Name: "local__frob", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("Told.")},
	)
	cfg := writeConfig(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"m\"\n\n[policy]\nworkspace = %q\n\n[tools]\nenabled = true\ndir = %q\n",
		model.URL, ws, dir))
	r := deckhand(t, nil, "", "--config", cfg, "chat", "-p", "frob it", "--approve=auto", "--wait", "60s")
	if r.code != exitOK || !strings.Contains(r.stdout, "Told.") {
		t.Fatalf("chat: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	reqs := model.Requests()
	last := string(reqs[len(reqs)-1])
	want := "local__frob is not loaded: " + filepath.Join(dir, "frob.json") + ": frobnicator-not-installed is not installed"
	if !strings.Contains(last, want) {
		t.Errorf("the model was not told %q:\n%s", want, last)
	}
}
