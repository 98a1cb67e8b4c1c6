package toolserver

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/policy"
	"deckhand/sandbox"
	"deckhand/testutil"
)

// TestMain keeps tests away from the developer's home: HOME and the XDG
// folders are temporary.
func TestMain(m *testing.M) { testutil.RunIsolated(m) }

type fixture struct {
	t        *testing.T
	ws, dir  string
	srv      *Server
	cs       *sdk.ClientSession
	mu       sync.Mutex
	progress []*sdk.ProgressNotificationParams
	changed  chan struct{}
	logs     chan *sdk.LoggingMessageParams
}

func requireSandbox(t testing.TB) {
	t.Helper()
	if err := sandbox.Available(); err != nil {
		t.Skipf("no Landlock here: %v", err)
	}
}

// newFixture starts a server on a fresh workspace holding a git
// repository with one commit, and connects a go-sdk client to it.
func newFixture(t *testing.T, opts ...func(*Options)) *fixture {
	t.Helper()
	requireSandbox(t)
	home, _ := os.UserHomeDir()
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644)
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	for name, content := range map[string]string{"README.md": "# demo\nhello world\n", "src/main.go": "package main\n\nfunc main() { println(\"hello\") }\n"} {
		os.MkdirAll(filepath.Join(ws, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "first commit"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	f := &fixture{t: t, ws: ws, dir: t.TempDir(), changed: make(chan struct{}, 16), logs: make(chan *sdk.LoggingMessageParams, 64)}
	cfg := &config.Config{}
	cfg.Policy.Workspace = ws
	o := Options{Dir: f.dir, Scope: ws, Policy: policy.New(cfg, nil), InlineWait: 1500 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(newTestWriter(t), &slog.HandlerOptions{Level: slog.LevelInfo}))}
	for _, opt := range opts {
		opt(&o)
	}
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	t.Cleanup(srv.Close)
	f.connect()
	return f
}

func (f *fixture) connect() {
	t := f.t
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case f.changed <- struct{}{}:
			default:
			}
		},
		LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
			select {
			case f.logs <- req.Params:
			default:
			}
		},
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			f.mu.Lock()
			f.progress = append(f.progress, req.Params)
			f.mu.Unlock()
		},
	})
	ct, st := sdk.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := f.srv.MCP.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	f.cs = cs
}

// testWriter logs to t until t's cleanup: a server's goroutine that logs
// as its connection closes after the test (the SDK's "server session
// disconnected") must not reach a finished test, which panics.
type testWriter struct {
	t    *testing.T
	mu   *sync.Mutex
	done *bool
}

func newTestWriter(t *testing.T) testWriter {
	w := testWriter{t: t, mu: &sync.Mutex{}, done: new(bool)}
	t.Cleanup(func() {
		w.mu.Lock()
		*w.done = true
		w.mu.Unlock()
	})
	return w
}

func (w testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !*w.done {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

// call calls a tool and returns its text and whether it failed.
func (f *fixture) call(name string, args map[string]any, token any) (string, bool) {
	f.t.Helper()
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	if token != nil {
		params.SetProgressToken(token)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := f.cs.CallTool(ctx, params)
	if err != nil {
		f.t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func (f *fixture) mustCall(name string, args map[string]any, want ...string) string {
	f.t.Helper()
	text, failed := f.call(name, args, nil)
	if failed {
		f.t.Fatalf("%s(%v) failed:\n%s", name, args, text)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			f.t.Errorf("%s(%v): want %q in:\n%s", name, args, w, text)
		}
	}
	return text
}

func (f *fixture) tools() map[string]*sdk.Tool {
	f.t.Helper()
	res, err := f.cs.ListTools(context.Background(), nil)
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		out[tl.Name] = tl
	}
	return out
}

// whyNot is why the server lists tool name as not offered, or "".
func (f *fixture) whyNot(name string) string {
	for _, l := range f.srv.List() {
		if l.Name == name {
			return l.Why
		}
	}
	return ""
}

func opIDOf(t *testing.T, text string) string {
	t.Helper()
	i := strings.Index(text, "Operation op-")
	if i < 0 {
		t.Fatalf("no operation id in:\n%s", text)
	}
	id := strings.Fields(text[i+len("Operation "):])[0]
	return id
}

// The built-in tools, synchronous, against real ls, cat, grep or rg, dd
// and git in a temporary workspace.
func TestBuiltinToolsSync(t *testing.T) {
	f := newFixture(t)
	tools := f.tools()
	for _, name := range []string{"files_list", "files_read", "files_search", "files_write", "git_status", "git_diff", "git_log", "git_show", "git_add", "git_commit", "shell", "await", "status", "cancel"} {
		if tools[name] == nil {
			t.Errorf("no tool %s", name)
		}
	}
	if a := tools["git_log"].Annotations; a == nil || !a.ReadOnlyHint {
		t.Errorf("git_log should be read-only: %+v", a)
	}
	if a := tools["files_write"].Annotations; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Errorf("files_write should be destructive: %+v", a)
	}
	f.mustCall("files_list", nil, "README.md", "src")
	f.mustCall("files_list", map[string]any{"paths": []string{"src"}}, "main.go")
	f.mustCall("files_read", map[string]any{"path": "README.md"}, "hello world")
	f.mustCall("files_search", map[string]any{"pattern": "hello", "glob": []string{"*.go"}}, "main.go:3:")
	f.mustCall("files_write", map[string]any{"path": "notes.txt", "content": "line one\n-dash line\n"})
	if data, _ := os.ReadFile(filepath.Join(f.ws, "notes.txt")); string(data) != "line one\n-dash line\n" {
		t.Errorf("notes.txt holds %q", data)
	}
	f.mustCall("git_status", nil, "## main", "?? notes.txt")
	f.mustCall("git_add", map[string]any{"paths": []string{"notes.txt"}})
	f.mustCall("git_diff", map[string]any{"staged": true}, "+line one")
	f.mustCall("git_commit", map[string]any{"message": "add notes"}, "add notes")
	f.mustCall("git_log", map[string]any{"oneline": true}, "add notes", "first commit")
	f.mustCall("git_show", map[string]any{"stat": true}, "notes.txt")
	f.mustCall("files_list", map[string]any{"working_directory": "src"}, "main.go")

	// Bad arguments never reach a program.
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"files_read", map[string]any{}, "path"},
		{"files_read", map[string]any{"path": "../../etc/passwd"}, "outside the sandbox scope"},
		{"files_read", map[string]any{"path": "/etc/passwd"}, "outside the sandbox scope"},
		{"files_list", map[string]any{"working_directory": "/"}, "outside the sandbox scope"},
		{"git_show", map[string]any{"revision": "--output=/tmp/x"}, "starts with '-'"},
		{"git_log", map[string]any{"max_count": "ten"}, "bad arguments"},
		{"git_log", map[string]any{"no_such": 1}, "bad arguments"},
	} {
		text, failed := f.call(c.tool, c.args, nil)
		if !failed || !strings.Contains(text, c.want) {
			t.Errorf("%s(%v): want a failure saying %q, got (failed=%v):\n%s", c.tool, c.args, c.want, failed, text)
		}
	}
}

// The sandbox: a command cannot read the home folder's secrets or write
// outside the scope, even through a symbolic link in the scope.
func TestSandboxConfines(t *testing.T) {
	f := newFixture(t)
	home, _ := os.UserHomeDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("SECRET-KEY"), 0o600)
	outside := t.TempDir()
	os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(f.ws, "ssh-link"))

	text, failed := f.call("shell", map[string]any{"command": "cat " + filepath.Join(home, ".ssh", "id_ed25519")}, nil)
	if !failed || strings.Contains(text, "SECRET-KEY") || !strings.Contains(text, "No such file") {
		t.Errorf("reading ~/.ssh: want it not there, got (failed=%v):\n%s", failed, text)
	}
	text, failed = f.call("shell", map[string]any{"command": "cat ssh-link/id_ed25519"}, nil)
	if !failed || strings.Contains(text, "SECRET-KEY") {
		t.Errorf("reading ~/.ssh through a link: got (failed=%v):\n%s", failed, text)
	}
	text, failed = f.call("files_read", map[string]any{"path": "ssh-link/id_ed25519"}, nil)
	if !failed || strings.Contains(text, "SECRET-KEY") || !strings.Contains(text, "outside the sandbox scope") {
		t.Errorf("files_read through a link: got (failed=%v):\n%s", failed, text)
	}
	target := filepath.Join(outside, "pwned")
	text, failed = f.call("shell", map[string]any{"command": "echo x > " + target}, nil)
	if !failed {
		t.Errorf("writing outside the scope succeeded:\n%s", text)
	}
	if _, err := os.Stat(target); err == nil {
		t.Errorf("%s was written", target)
	}
	// The environment is the minimal one: no secret of the server's own.
	t.Setenv("DECKHAND_TEST_SECRET", "s3cr3t")
	text = f.mustCall("shell", map[string]any{"command": "env"})
	if strings.Contains(text, "s3cr3t") || strings.Contains(text, "DECKHAND_SANDBOX") {
		t.Errorf("the environment leaks:\n%s", text)
	}
	// No network.
	text, failed = f.call("shell", map[string]any{"command": "exec 3<>/dev/tcp/127.0.0.1/9 && echo CONNECTED-OK"}, nil)
	if !failed || strings.Contains(text, "CONNECTED-OK\n") {
		t.Errorf("a TCP connection was allowed:\n%s", text)
	}
}

// A long command answers with an operation id; await streams its output
// as progress (growing) and returns the result.
func TestAsyncAwaitProgress(t *testing.T) {
	f := newFixture(t)
	// The command takes 3.6 s, longer than the inline wait (2 s): the
	// answer is an operation id, before the command finished, however
	// slow the machine (no clock is read).
	text, failed := f.call("shell", map[string]any{"command": "for i in 1 2 3 4 5 6; do echo tick $i; sleep 0.6; done; echo finished"}, "tok-1")
	if failed || strings.Contains(text, "tick 6") || strings.Contains(text, "exit status") {
		t.Fatalf("want an answer within the inline wait, before the command ends (failed=%v):\n%s", failed, text)
	}
	id := opIDOf(t, text)
	if !strings.Contains(text, "await") {
		t.Errorf("the answer does not say to await:\n%s", text)
	}
	status, _ := f.call("status", nil, nil)
	if !strings.Contains(status, id) || !strings.Contains(status, "running") {
		t.Errorf("status:\n%s", status)
	}
	text, failed = f.call("await", map[string]any{"operation_id": id, "timeout_seconds": 30}, "tok-2")
	if failed || !strings.Contains(text, "tick 6") || !strings.Contains(text, "finished") || !strings.Contains(text, "exit status 0") {
		t.Fatalf("await (failed=%v):\n%s", failed, text)
	}
	f.mu.Lock()
	var last float64
	var await []string
	for _, p := range f.progress {
		if p.ProgressToken == "tok-2" {
			if p.Progress <= last {
				t.Errorf("progress went from %v to %v", last, p.Progress)
			}
			last = p.Progress
			await = append(await, p.Message)
		}
	}
	if joined := strings.Join(await, ""); !strings.Contains(joined, "finished") {
		t.Errorf("await's progress did not carry the output: %q", await)
	}
	// A call that ends within the inline wait answers inline.
	f.progress = nil
	f.mu.Unlock()
	text, _ = f.call("shell", map[string]any{"command": "echo quick"}, "tok-3")
	if !strings.Contains(text, "quick") || strings.Contains(text, "Operation op-") {
		t.Errorf("a quick command should answer inline:\n%s", text)
	}
	// The server sends the progress before its answer (even the output a
	// command wrote before the call subscribed to it); the client may hand
	// it to its handler after the answer (notifications are handled on
	// goroutines of their own).
	testutil.Eventually(t, 10*time.Second, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return len(f.progress) > 0 && strings.Contains(f.progress[0].Message, "quick")
	}, "no progress for the inline call")
}

// cancel kills a running operation and everything it started.
func TestCancel(t *testing.T) {
	f := newFixture(t)
	pidFile := filepath.Join(f.ws, "pid")
	text, _ := f.call("shell", map[string]any{"command": "sleep 60 & echo $!@$(readlink /proc/self/ns/pid) > pid; wait"}, nil)
	id := opIDOf(t, text)
	start := time.Now()
	text, failed := f.call("cancel", map[string]any{"operation_id": id}, nil)
	// The command sleeps 60 s: a bound of half that tells a cancel from
	// a wait, and no loaded machine takes it.
	if !failed || !strings.Contains(text, "cancelled") || time.Since(start) > 30*time.Second {
		t.Errorf("cancel (failed=%v, %v):\n%s", failed, time.Since(start), text)
	}
	pid := testutil.ReadPIDs(t, pidFile, 1)[0]
	testutil.Eventually(t, 30*time.Second, func() bool { return testutil.ProcessGone(pid) }, "the background sleep %d outlived cancel", pid)
	text, _ = f.call("status", map[string]any{"operation_id": id}, nil)
	if !strings.Contains(text, "cancelled") {
		t.Errorf("status after cancel:\n%s", text)
	}
	text, failed = f.call("await", map[string]any{"operation_id": "op-999-abcdef"}, nil)
	if !failed || !strings.Contains(text, "no operation") {
		t.Errorf("await of an unknown id:\n%s", text)
	}
}

// A call's timeout kills the command; a synchronous call's request being
// cancelled kills it too.
func TestTimeouts(t *testing.T) {
	f := newFixture(t)
	start := time.Now()
	// Each command would sleep a minute; the timeouts are 1 s, and the
	// bounds (45 s) tell a kill from a wait without timing anything close.
	text, _ := f.call("shell", map[string]any{"command": "echo before; sleep 60", "timeout_seconds": 1}, nil)
	if strings.Contains(text, "Operation op-") {
		text, _ = f.call("await", map[string]any{"operation_id": opIDOf(t, text)}, nil)
	}
	if !strings.Contains(text, "timeout") || !strings.Contains(text, "before") || time.Since(start) > 45*time.Second {
		t.Errorf("timeout (%v):\n%s", time.Since(start), text)
	}
	// git_log is synchronous; a definition's own timeout applies too.
	os.WriteFile(filepath.Join(f.dir, "slow.json"), []byte(`{"name": "slow", "command": "sleep", "synchronous": true,
		"timeout_seconds": 1, "description": "Sleeps.", "positional_args": [{"name": "seconds", "type": "integer", "required": true}]}`), 0o644)
	f.srv.Reload()
	start = time.Now()
	text, failed := f.call("slow", map[string]any{"seconds": 60}, nil)
	if !failed || !strings.Contains(text, "killed after 1s (timeout)") || time.Since(start) > 45*time.Second {
		t.Errorf("slow (%v):\n%s", time.Since(start), text)
	}
	// A cancelled request stops its synchronous command.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start = time.Now()
	_, err := f.cs.CallTool(ctx, &sdk.CallToolParams{Name: "slow", Arguments: map[string]any{"seconds": 60}})
	if err == nil || time.Since(start) > 45*time.Second {
		t.Errorf("a cancelled call: err %v after %v", err, time.Since(start))
	}
}

// Definitions: a bad file is rejected with its file, path and reason,
// while the good ones load; hot reload is seen by a connected client.
func TestDefinitionsAndHotReload(t *testing.T) {
	f := newFixture(t)
	good := `{"name": "hello", "command": "echo", "synchronous": true, "description": "Says hello.",
		"options": [{"name": "no-newline", "type": "boolean", "flag": "-n"}],
		"positional_args": [{"name": "words", "type": "array", "default": ["hello"]}]}`
	bad := `{"name": "broken", "command": "echo", "description": "x", "options": [{"name": "n", "type": "integer", "default": "two"}]}`
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(f.dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("hello.json", good)
	write("broken.json", bad)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.srv.Watch(ctx)
	waitFor := func(what string, ok func(map[string]*sdk.Tool) bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if ok(f.tools()) {
				return
			}
			select {
			case <-f.changed:
			case <-time.After(200 * time.Millisecond):
			}
		}
		t.Fatalf("timed out waiting for %s", what)
	}
	waitFor("hello", func(m map[string]*sdk.Tool) bool { return m["hello"] != nil })
	f.mustCall("hello", nil, "hello")
	f.mustCall("hello", map[string]any{"words": []string{"a", "b c"}}, "a b c")
	problems := f.srv.Problems()
	if len(problems) != 1 || problems[0].File != filepath.Join(f.dir, "broken.json") || problems[0].Path != "$.options[0].default" ||
		!strings.Contains(problems[0].Reason, `the default "two" does not fit the parameter (type integer)`) {
		t.Errorf("problems: %+v", problems)
	}
	if f.tools()["broken"] != nil {
		t.Error("the broken definition was loaded")
	}

	// Edited: the new version replaces the old (the client hears of it).
	drain(f.changed)
	write("hello.json", strings.Replace(good, "Says hello.", "Says hello again.", 1))
	waitFor("the new description", func(m map[string]*sdk.Tool) bool {
		return m["hello"] != nil && strings.HasPrefix(m["hello"].Description, "Says hello again.")
	})
	// Broken: the previous good version stays.
	write("hello.json", `{"name": "hello", "command": `)
	testutil.Eventually(t, 30*time.Second, func() bool { return len(f.srv.Problems()) == 2 }, "the broken edit was not reported")
	if m := f.tools(); m["hello"] == nil || !strings.HasPrefix(m["hello"].Description, "Says hello again.") {
		t.Error("a broken edit dropped the previous good version")
	}
	if p := f.srv.Problems(); len(p) != 2 || !strings.Contains(p[1].Reason+p[0].Reason, "not JSON") {
		t.Errorf("problems: %+v", p)
	}
	// Fixed, by an editor's rename over it.
	tmp := filepath.Join(f.dir, ".hello.json.swp")
	os.WriteFile(tmp, []byte(strings.Replace(good, "Says hello.", "Renamed in.", 1)), 0o644)
	os.Rename(tmp, filepath.Join(f.dir, "hello.json"))
	waitFor("the renamed version", func(m map[string]*sdk.Tool) bool {
		return m["hello"] != nil && strings.HasPrefix(m["hello"].Description, "Renamed in.")
	})
	// A new file adds, a removed one takes away, and a person's file of a
	// built-in's name replaces it.
	write("git.json", `{"name": "git", "command": "git", "description": "Only status.", "synchronous": true,
		"sandbox_read": ["~/.gitconfig"], "subcommands": [{"name": "status", "description": "Status.", "annotations": {"read_only": true}}]}`)
	waitFor("git replaced", func(m map[string]*sdk.Tool) bool { return m["git_status"] != nil && m["git_log"] == nil })
	os.Remove(filepath.Join(f.dir, "hello.json"))
	os.Remove(filepath.Join(f.dir, "git.json"))
	waitFor("hello gone, git back", func(m map[string]*sdk.Tool) bool { return m["hello"] == nil && m["git_log"] != nil })
}

func drain(c chan struct{}) {
	for {
		select {
		case <-c:
		default:
			return
		}
	}
}

// The definition checks the schema cannot express, each with its place.
func TestDefinitionProblems(t *testing.T) {
	for _, c := range []struct{ doc, path, reason string }{
		{`{"name": "x", "description": "d"}`, "$", "anyOf"},
		{`{"name": "x", "description": "d", "command": "ls", "extra": 1}`, "$", `unknown key "extra"`},
		{`{"name": "x", "description": "d", "command": "ls", "options": [{"name": "a", "type": "float"}]}`, "$.options[0]", "float"},
		{`{"name": "x", "description": "d", "command": "ls", "subcommands": [{"name": "a", "description": "d", "flag": "-a"}]}`, "$.subcommands[0]", `unknown key "flag"`},
		{`{"name": "x", "description": "d", "command": "bash", "args": ["-c"], "positional_args": [{"name": "s", "type": "string", "required": true}]}`, "$.command", "is a shell"},
		{`{"name": "x", "description": "d", "command": "ls", "options": [{"name": "working_directory", "type": "string"}]}`, "$.options[0].name", "meta parameter"},
		{`{"name": "x", "description": "d", "command": "ls", "options": [{"name": "a", "type": "string", "enum": ["x", "y"], "default": "z"}]}`, "$.options[0].default", "one of its enum"},
		{`{"name": "x", "description": "d", "command": "ls", "options": [{"name": "a", "type": "integer", "format": "path"}]}`, "$.options[0].format", "path"},
		{`{"name": "x", "description": "d", "command": "ls", "positional_args": [{"name": "a", "type": "array"}, {"name": "b", "type": "string"}]}`, "$.positional_args[0]", "last"},
		{`{"name": "x", "description": "d", "command": "ls", "sandbox_read": ["~/.ssh"]}`, "$.sandbox_read[0]", "secrets"},
		{`{"name": "x", "description": "d", "command": "ls", "subcommands": [{"name": "a", "description": "d"}, {"name": "a", "description": "d"}]}`, "$", "two subcommands"},
		{`{"name": "x", "description": "d", "command": "ls", "env": {"LD_PRELOAD": "/x.so"}}`, "$.env.LD_PRELOAD", "may not"},
		{`{"name": "x",`, "$", "not JSON"},
	} {
		_, _, err := Parse("t.json", []byte(c.doc))
		var de *DefError
		if !errorsAs(err, &de) {
			t.Errorf("%s: want a DefError, got %v", c.doc, err)
			continue
		}
		found := false
		for _, p := range de.Problems {
			if p.Path == c.path && strings.Contains(p.Reason, c.reason) && p.File == "t.json" {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: want a problem at %s saying %q, got %v", c.doc, c.path, c.reason, de)
		}
	}
	// Subcommand names: nested with _, default is its parent's.
	_, tools, err := Parse("t.json", []byte(`{"name": "cargo", "command": "cargo", "description": "d", "subcommands": [
		{"name": "build", "description": "b"},
		{"name": "nextest", "description": "n", "subcommands": [{"name": "run", "description": "r"}, {"name": "default", "description": "n"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name+"="+strings.Join(tl.Args, " "))
	}
	if got := strings.Join(names, ","); got != "cargo_build=build,cargo_nextest_run=nextest run,cargo_nextest=nextest" {
		t.Errorf("tools: %s", got)
	}
}

// An array option repeats its flag; values are separate argv elements.
func TestArgv(t *testing.T) {
	_, tools, err := Parse("t.json", []byte(`{"name": "x", "command": "prog", "args": ["--fixed"], "description": "d",
		"options": [{"name": "tag", "type": "array", "flag": "-t"}, {"name": "n", "type": "integer", "flag": "-n", "joined": true},
			{"name": "v", "type": "boolean", "flag": "-v"}, {"name": "ratio", "type": "number"}],
		"positional_args": [{"name": "rev", "type": "string"}, {"name": "files", "type": "array", "end_of_options": true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	scope := t.TempDir()
	args, err := tools[0].callArgs(json.RawMessage(`{"tag": ["a b", "c;rm -rf /"], "n": 3, "v": true, "ratio": 0.5, "rev": "HEAD", "files": ["-x", "$(id)"], "working_directory": ".", "timeout_seconds": 5}`))
	if err != nil {
		t.Fatal(err)
	}
	call, err := tools[0].prepare(args, scope, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--fixed", "-t", "a b", "-t", "c;rm -rf /", "-n=3", "-v", "--ratio", "0.5", "HEAD", "--", "-x", "$(id)"}
	if strings.Join(call.Job.Args, "|") != strings.Join(want, "|") || call.Job.Timeout != 5*time.Second {
		t.Errorf("argv %q timeout %v, want %q", call.Job.Args, call.Job.Timeout, want)
	}
}

func errorsAs(err error, target **DefError) bool {
	de, ok := err.(*DefError)
	if ok {
		*target = de
	}
	return ok
}

// Without Landlock the server refuses to start, saying how to fix it;
// --no-sandbox starts it anyway.
func TestNoLandlockRefuses(t *testing.T) {
	t.Setenv("DECKHAND_TEST_NO_LANDLOCK", "1")
	_, err := New(Options{Scope: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "Landlock") || !strings.Contains(err.Error(), "--no-sandbox") {
		t.Fatalf("want a refusal naming Landlock and --no-sandbox, got %v", err)
	}
	s, err := New(Options{Scope: t.TempDir(), NoSandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// Sequences run their steps in order; a failed availability check keeps a
// tool out (with its install instructions); a missing program's fallback
// stands in under the tool's name.
func TestSequenceAvailabilityFallback(t *testing.T) {
	f := newFixture(t)
	os.WriteFile(filepath.Join(f.dir, "more.json"), []byte(`{"name": "more", "description": "More.", "synchronous": true, "subcommands": [
		{"name": "check", "description": "Status then list.", "sequence": [{"tool": "git_status"}, {"tool": "files_list", "args": {"paths": ["src"]}}]},
		{"name": "failing", "description": "Stops early.", "sequence": [{"tool": "files_read", "args": {"path": "missing.txt"}}, {"tool": "git_status"}]},
		{"name": "gated", "command": "echo", "description": "Never offered.", "availability_check": {"command": "false"},
			"install_instructions": "Install the gate."},
		{"name": "alt", "command": "no-such-program-here", "description": "Falls back.",
			"positional_args": [{"name": "w", "type": "string"}],
			"fallback": {"name": "alt", "command": "echo", "args": ["fallback:"], "description": "Echoes.",
				"positional_args": [{"name": "w", "type": "string"}]}}]}`), 0o644)
	f.srv.Reload()
	f.mustCall("more_check", nil, "$ git --no-pager status --short --branch", "## main", "$ ls -la -- src", "main.go")
	text, failed := f.call("more_failing", nil, nil)
	if !failed || !strings.Contains(text, "step 1 of 2 failed") || strings.Contains(text, "## main") {
		t.Errorf("more_failing (failed=%v):\n%s", failed, text)
	}
	f.mustCall("more_alt", map[string]any{"w": "yes"}, "fallback: yes")
	if f.tools()["more_gated"] != nil {
		t.Error("a tool whose availability check fails is offered")
	}
	if why := f.whyNot("more_gated"); !strings.Contains(why, "availability check `false` failed") || !strings.Contains(why, "Install the gate.") {
		t.Errorf("why more_gated is not offered: %q", why)
	}
}
