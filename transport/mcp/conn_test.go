package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/testutil"
	"deckhand/tools"
)

const wait = 20 * time.Second // safety net for things that should happen promptly

func stdioServer(t testing.TB, args ...string) config.Server { return testutil.StdioServer(t, args...) }

func dial(t *testing.T, srv config.Server, opts Options) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	c, err := Dial(ctx, "test", srv, opts)
	if err != nil {
		t.Fatalf("Dial(%s) = %v", srv.Endpoint(), err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func callText(t *testing.T, c *Conn, name string, args any) string {
	t.Helper()
	res, err := c.CallTool(t.Context(), name, args, nil)
	if err != nil {
		t.Fatalf("CallTool(%s) = %v", name, err)
	}
	return tools.RenderResult(res)
}

func TestStdio(t *testing.T) {
	c := dial(t, stdioServer(t), Options{})
	if c.Kind() != KindStdio || c.PID() == 0 {
		t.Errorf("Kind() = %v, PID() = %d; want stdio and a pid", c.Kind(), c.PID())
	}
	if got := c.ServerInfo(); got == nil || got.Name != "stdioserver" {
		t.Errorf("ServerInfo() = %+v, want stdioserver", got)
	}
	list, err := c.ListTools(t.Context())
	if err != nil || len(list) < 8 {
		t.Fatalf("ListTools() = %d tools, %v; want at least 8", len(list), err)
	}
	if got := callText(t, c, "echo", map[string]any{"text": "hi"}); got != "Echo: hi" {
		t.Errorf("echo = %q, want %q", got, "Echo: hi")
	}
	if got := callText(t, c, "add", json.RawMessage(`{"a": 2, "b": 40}`)); got != "42" {
		t.Errorf("add = %q, want 42", got)
	}

	progress := make(chan Progress, 10)
	res, err := c.CallTool(t.Context(), "slow", map[string]any{"ms": 30, "steps": 3}, func(p Progress) { progress <- p })
	if err != nil || res.IsError {
		t.Fatalf("slow = %v, %v", res, err)
	}
	// The last notification may race the result; the first cannot.
	if p := testutil.Receive(t, progress, wait, "progress"); p.Progress != 1 || p.Total != 3 || p.Message != "step 1 of 3" {
		t.Errorf("first progress = %+v, want 1 of 3", p)
	}

	res, err = c.CallTool(t.Context(), "fail", map[string]any{}, nil)
	if err != nil || !res.IsError || !strings.Contains(tools.RenderResult(res), "failed on purpose") {
		t.Errorf("fail = %+v, %v; want an isError result", res, err)
	}
	if _, err := c.CallTool(t.Context(), "no_such_tool", map[string]any{}, nil); err == nil || !strings.Contains(err.Error(), "no_such_tool") {
		t.Errorf("unknown tool = %v, want an error naming it", err)
	}
}

func TestStdioStartFailures(t *testing.T) {
	tests := []struct {
		name string
		srv  config.Server
		want []string
	}{
		{"command not found", config.Server{Command: "deckhand-no-such-command"}, []string{`exec: "deckhand-no-such-command": executable file not found in $PATH`}},
		{"exits at start", stdioServer(t, "-exit", "7"), []string{"exited (exit status 7)", "stderr:", "fatal: told to exit at start"}},
		{"garbage at start", stdioServer(t, "-garbage"), []string{"invalid"}},
		{"bad cwd", config.Server{Command: "sh", Cwd: "/no/such/dir"}, []string{"/no/such/dir"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			_, err := Dial(ctx, "x", tt.srv, Options{Paths: &PathResolver{Shell: "/bin/false"}})
			if err == nil {
				t.Fatal("Dial succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Dial() = %q, want it to contain %q", err, w)
				}
			}
		})
	}
}

func TestStdioHangAtStartIsReaped(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	// Long enough for a loaded machine to start the server: the deadline
	// must end the wait for initialize, not the start.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	_, err := Dial(ctx, "x", stdioServer(t, "-hang", "-pidfile", pidfile), Options{TerminateGrace: 100 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "no answer to initialize") {
		t.Fatalf("Dial(hanging server) = %v, want no answer to initialize", err)
	}
	for _, pid := range testutil.ReadPIDs(t, pidfile, 1) {
		testutil.Eventually(t, wait, func() bool { return testutil.ProcessGone(pid) }, "process %d still running", pid)
	}
}

func TestCloseReapsProcessGroup(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	c := dial(t, stdioServer(t, "-spawn", "-pidfile", pidfile), Options{})
	pids := testutil.ReadPIDs(t, pidfile, 2)
	if len(pids) != 2 {
		t.Fatalf("pids = %v, want server and grandchild", pids)
	}
	c.Close()
	for _, pid := range pids {
		if !testutil.ProcessGone(pid) {
			t.Errorf("process %d still running after Close", pid)
		}
	}
	if !errors.Is(c.Err(), ErrClosed) {
		t.Errorf("Err() after Close = %v, want ErrClosed", c.Err())
	}
}

// Killing the server during a long call fails the call at once with the
// reason, long before the call's own timeout.
func TestStdioKilledDuringCall(t *testing.T) {
	c := dial(t, stdioServer(t), Options{})
	errc := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		_, err := c.CallTool(ctx, "slow", map[string]any{"ms": 600000, "steps": 600}, func(Progress) {
			select {
			case <-started:
			default:
				close(started)
			}
		})
		errc <- err
	}()
	testutil.Receive(t, started, wait, "progress from the slow call")
	syscall.Kill(c.PID(), syscall.SIGKILL)
	err := testutil.Receive(t, errc, wait, "result of the interrupted call")
	if err == nil || !strings.Contains(err.Error(), "signal: killed") {
		t.Errorf("interrupted call = %v, want an error saying the process was killed", err)
	}
	testutil.Receive(t, c.Done(), wait, "Done after the kill")
	var exit *ExitError
	if !errors.As(c.Err(), &exit) {
		t.Errorf("Err() = %v, want an *ExitError", c.Err())
	}
}

func TestStdioMisbehaviourMidSession(t *testing.T) {
	tests := []struct {
		tool string
		want string
	}{
		{"crash", "exit status 3"},
		{"garbage", "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			c := dial(t, stdioServer(t), Options{TerminateGrace: 100 * time.Millisecond})
			_, err := c.CallTool(t.Context(), tt.tool, map[string]any{}, nil)
			if err == nil {
				t.Fatalf("%s: call succeeded, want an error", tt.tool)
			}
			testutil.Receive(t, c.Done(), wait, "Done")
			if !strings.Contains(c.Err().Error(), tt.want) && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: call error %q, Err() %q; want one to mention %q", tt.tool, err, c.Err(), tt.want)
			}
		})
	}
}

func TestLoginShellPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	// A server reachable only through the login shell's PATH.
	data, err := os.ReadFile(testutil.BuildProgram(t, "./testutil/stdioserver"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(bin, "deckhand-login-only-server"), data, 0o755)
	shell := filepath.Join(dir, "fakeshell")
	os.WriteFile(shell, []byte("#!/bin/sh\necho 'welcome banner'\nPATH=\""+bin+":$PATH\"; export PATH\nshift 3\nexec /bin/sh -c \"$1\"\n"), 0o755)

	paths := &PathResolver{Shell: shell}
	got, loginPath, err := paths.LookPath("deckhand-login-only-server")
	if err != nil || got != filepath.Join(bin, "deckhand-login-only-server") || !strings.Contains(loginPath, bin) {
		t.Fatalf("LookPath() = %q, %q, %v; want the login-shell binary", got, loginPath, err)
	}
	c := dial(t, config.Server{Command: "deckhand-login-only-server"}, Options{Paths: paths})
	if got := callText(t, c, "echo", map[string]any{"text": "found"}); got != "Echo: found" {
		t.Errorf("echo = %q", got)
	}
	if _, _, err := paths.LookPath("deckhand-nowhere"); err == nil || !strings.Contains(err.Error(), "executable file not found") {
		t.Errorf("LookPath(missing) = %v, want exec's not-found error", err)
	}
}

func TestParsePathOutput(t *testing.T) {
	out := "motd\n" + `printf '\n__DECKHAND_PATH__%s__DECKHAND_PATH__\n' "$PATH"` + "\n\n__DECKHAND_PATH__/a/bin:relative:/b__DECKHAND_PATH__\n"
	got := parsePathOutput([]byte(out))
	if strings.Join(got, ",") != "/a/bin,/b" {
		t.Errorf("parsePathOutput() = %v, want [/a/bin /b]", got)
	}
}

func TestStreamableAndSSE(t *testing.T) {
	srv := testutil.NewServer("inproc")
	h := testutil.ServeHTTP(t, srv)
	tests := []struct {
		name     string
		server   config.Server
		wantKind Kind
	}{
		{"streamable", config.Server{URL: h.StreamableURL, Transport: "streamable"}, KindStreamable},
		{"auto picks streamable", config.Server{URL: h.StreamableURL}, KindStreamable},
		{"sse", config.Server{URL: h.SSEURL, Transport: "sse"}, KindSSE},
		{"auto falls back to sse", config.Server{URL: h.SSEURL}, KindSSE},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial(t, tt.server, Options{})
			if c.Kind() != tt.wantKind {
				t.Errorf("Kind() = %v, want %v", c.Kind(), tt.wantKind)
			}
			if got := callText(t, c, "echo", map[string]any{"text": "over http"}); got != "Echo: over http" {
				t.Errorf("echo = %q", got)
			}
			progress := make(chan Progress, 10)
			if _, err := c.CallTool(t.Context(), "slow", map[string]any{"ms": 10, "steps": 2}, func(p Progress) { progress <- p }); err != nil {
				t.Errorf("slow = %v", err)
			}
			testutil.Receive(t, progress, wait, "progress")
			if got := callText(t, c, "weather", map[string]any{"text": "Oslo"}); !strings.Contains(got, `"temp_c": 21.5`) && !strings.Contains(got, `"temp_c":21.5`) {
				t.Errorf("weather = %q, want structured content", got)
			}
		})
	}
}

func TestToolsListChanged(t *testing.T) {
	srv := testutil.NewServer("inproc")
	h := testutil.ServeHTTP(t, srv)
	changed := make(chan struct{}, 10)
	c := dial(t, config.Server{URL: h.StreamableURL}, Options{OnToolsChanged: func() { changed <- struct{}{} }})
	srv.AddTool(&sdk.Tool{Name: "late", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	})
	testutil.Receive(t, changed, wait, "tools/list_changed")
	list, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tool := range list {
		found = found || tool.Name == "late"
	}
	if !found {
		t.Errorf("ListTools() after list_changed lacks the new tool")
	}
}

func TestHTTPServerDiesDuringCall(t *testing.T) {
	h := testutil.ServeHTTP(t, testutil.NewServer("inproc"))
	c := dial(t, config.Server{URL: h.StreamableURL}, Options{})
	errc := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		_, err := c.CallTool(context.Background(), "slow", map[string]any{"ms": 600000, "steps": 600}, func(Progress) {
			select {
			case <-started:
			default:
				close(started)
			}
		})
		errc <- err
	}()
	testutil.Receive(t, started, wait, "progress")
	h.Close()
	if err := testutil.Receive(t, errc, wait, "the interrupted call's result"); err == nil {
		t.Fatal("call on a dead server succeeded")
	}
	testutil.Receive(t, c.Done(), wait, "Done")
}

func TestLMCP(t *testing.T) {
	const token = "tok-3f9a1c7e-secret"
	l := testutil.NewLMCP(t, token)
	env := func(name string) (string, bool) {
		if name == "LMCP_TOKEN" {
			return token, true
		}
		return "", false
	}
	c := dial(t, config.Server{URL: l.URL, AuthEnv: "LMCP_TOKEN"}, Options{LookupEnv: env})
	if c.Kind() != KindJSON {
		t.Errorf("Kind() = %v, want json", c.Kind())
	}
	if c.ProtocolVersion() != "2025-03-26" {
		t.Errorf("ProtocolVersion() = %q, want 2025-03-26", c.ProtocolVersion())
	}
	list, err := c.ListTools(t.Context())
	if err != nil || len(list) != 3 {
		t.Fatalf("ListTools() = %d tools, %v", len(list), err)
	}
	if got := callText(t, c, "add", map[string]any{"a": 1.5, "b": 2}); got != "3.5" {
		t.Errorf("add = %q, want 3.5", got)
	}
	res, err := c.CallTool(t.Context(), "fail", map[string]any{}, nil)
	if err != nil || !res.IsError {
		t.Errorf("fail = %+v, %v; want isError", res, err)
	}
	_, err = c.CallTool(t.Context(), "nope", map[string]any{}, nil)
	if err == nil || !strings.Contains(err.Error(), "Tool not found: nope") {
		t.Errorf("unknown tool = %v, want the server's -32601 message", err)
	}
	for _, a := range l.Authorizations() {
		if a != "Bearer "+token {
			t.Errorf("a request carried Authorization %q", a)
		}
	}
}

func TestLMCPWrongToken(t *testing.T) {
	l := testutil.NewLMCP(t, "the-right-token")
	const wrong = "wrong-token-7c1d"
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	_, err := Dial(ctx, "x", config.Server{URL: l.URL, AuthToken: wrong}, Options{})
	if err == nil {
		t.Fatal("Dial with a wrong token succeeded")
	}
	msg := err.Error()
	if !strings.Contains(msg, "401 Unauthorized") || !strings.Contains(msg, "missing or invalid bearer token") {
		t.Errorf("Dial() = %q, want the status and the server's message", msg)
	}
	if strings.Contains(msg, wrong) {
		t.Errorf("Dial() error %q contains the token", msg)
	}
	if strings.Contains(msg, "legacy SSE") {
		t.Errorf("Dial() = %q: a 401 must not fall back to SSE", msg)
	}
}

func TestAuthEnvMissing(t *testing.T) {
	_, err := Dial(t.Context(), "x", config.Server{URL: "http://127.0.0.1:1/mcp", AuthEnv: "DECKHAND_TEST_UNSET"}, Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err == nil || err.Error() != "auth_env DECKHAND_TEST_UNSET is not set in Deckhand's environment" {
		t.Errorf("Dial() = %v, want the variable named", err)
	}
}

func TestUnreachable(t *testing.T) {
	_, err := Dial(t.Context(), "x", config.Server{URL: "http://127.0.0.1:1/mcp"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("Dial(closed port) = %v, want connection refused", err)
	}
}

func TestCallTimeout(t *testing.T) {
	c := dial(t, stdioServer(t), Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := c.CallTool(ctx, "hang", map[string]any{}, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hanging call = %v, want DeadlineExceeded", err)
	}
	// The connection survives a timed-out call.
	if got := callText(t, c, "echo", map[string]any{"text": "still here"}); got != "Echo: still here" {
		t.Errorf("echo after timeout = %q", got)
	}
}

func TestEndpointSniffer(t *testing.T) {
	tests := []struct {
		head string
		want bool
	}{
		{"event: endpoint\ndata: /mcp\n\n", true},
		{": hi\n\nevent:endpoint\ndata: /x\n\n", true},
		{"event: message\ndata: {}\n\n", false},
		{"id: 1\ndata:\n\nevent: endpoint\n\n", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := firstEventIsEndpoint([]byte(tt.head)); got != tt.want {
			t.Errorf("firstEventIsEndpoint(%q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func FuzzFirstEventIsEndpoint(f *testing.F) {
	f.Add([]byte("event: endpoint\ndata: /mcp\n\n"))
	f.Add([]byte("\r\n:c\r\nevent:endpoint\r\n"))
	f.Fuzz(func(t *testing.T, head []byte) {
		firstEventIsEndpoint(head) // must not panic
	})
}

// HTTP servers that answer with something other than MCP get a clear error.
func TestHTTPGarbage(t *testing.T) {
	tests := []struct {
		name        string
		contentType string
		body        string
		want        string
	}{
		{"invalid JSON", "application/json", "{this is not json", "decode"},
		{"a web page", "text/html", "<html><body>Welcome to nginx!</body></html>", `unsupported content type "text/html"`},
		{"wrong JSON", "application/json", `{"hello": "world"}`, "decode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tt.contentType)
				io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(t.Context(), wait)
			defer cancel()
			_, err := Dial(ctx, "x", config.Server{URL: srv.URL + "/mcp"}, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Dial() = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}

func FuzzParsePathOutput(f *testing.F) {
	f.Add([]byte("motd\n__DECKHAND_PATH__/usr/bin:/bin__DECKHAND_PATH__\n"))
	f.Add([]byte("__DECKHAND_PATH____DECKHAND_PATH____DECKHAND_PATH__"))
	f.Fuzz(func(t *testing.T, out []byte) {
		for _, d := range parsePathOutput(out) {
			if !filepath.IsAbs(d) {
				t.Fatalf("parsePathOutput returned a relative directory %q", d)
			}
		}
	})
}
