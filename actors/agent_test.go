package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/store"
	"deckhand/testutil"
	"deckhand/tools"
)

const wait = 30 * time.Second // safety net for things that should happen promptly

func start(t *testing.T, servers map[string]config.Server, tweak ...func(*config.Config)) *System {
	t.Helper()
	return startWithLog(t, nil, servers, tweak...)
}

// startWithLog is start recording to db (nil: no log).
func startWithLog(t *testing.T, db *store.DB, servers map[string]config.Server, tweak ...func(*config.Config)) *System {
	t.Helper()
	cfg := &config.Config{MCP: config.MCP{Servers: servers, Reconnect: config.Backoff{Initial: 50 * time.Millisecond, Max: 200 * time.Millisecond}}}
	for _, f := range tweak {
		f(cfg)
	}
	cfg.ApplyDefaults()
	sys := Start(Options{Config: cfg, LookupEnv: func(k string) (string, bool) {
		v, ok := map[string]string{"LMCP_TOKEN": "lmcp-secret-token", "WRONG_TOKEN": "not-the-token-9"}[k]
		return v, ok
	}, Paths: &noLoginShell, Log: db})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		if err := sys.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown() = %v", err)
		}
	})
	return sys
}

var noLoginShell = mcpPaths()

func stdio(t *testing.T, args ...string) config.Server { return testutil.StdioServer(t, args...) }

func statuses(t *testing.T, sys *System, settled bool) map[string]servers.ServerStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	list, err := sys.ServerStatuses(ctx, settled)
	if err != nil {
		t.Fatalf("ServerStatuses() = %v", err)
	}
	out := map[string]servers.ServerStatus{}
	for _, s := range list {
		out[s.Alias] = s
	}
	return out
}

// watch returns every status change from now on.
func watch(t *testing.T, sys *System) <-chan *servers.ServerStatus {
	ch := make(chan *servers.ServerStatus, 100)
	pid := sys.Root.Spawn(propsFunc(func(m any) {
		if st, ok := m.(*servers.ServerStatus); ok {
			ch <- st
		}
	}))
	t.Cleanup(func() { sys.Root.Stop(pid) })
	sys.Root.Send(sys.Servers, &servers.WatchServers{PID: pid})
	return ch
}

// next waits for alias to reach state, skipping other changes.
func next(t *testing.T, ch <-chan *servers.ServerStatus, alias string, state servers.State) *servers.ServerStatus {
	t.Helper()
	for {
		st := testutil.Receive(t, ch, wait, fmt.Sprintf("%s to become %s", alias, state))
		if st.Alias == alias && st.State == state {
			return st
		}
	}
}

func waitState(t *testing.T, sys *System, alias string, want servers.State) servers.ServerStatus {
	t.Helper()
	var st servers.ServerStatus
	testutil.Eventually(t, wait, func() bool {
		st = statuses(t, sys, false)[alias]
		return st.State == want
	}, "server %s never became %s (last: %+v)", alias, want, &st)
	return st
}

func call(t *testing.T, sys *System, tool, args string) *servers.ToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	res, err := sys.CallTool(ctx, tool, json.RawMessage(args), nil)
	if err != nil {
		t.Fatalf("CallTool(%s) = %v", tool, err)
	}
	return res
}

func text(t *testing.T, res *servers.ToolResult) string {
	t.Helper()
	if res.Err != nil {
		t.Fatalf("%s: %v", res.Tool, res.Err)
	}
	return tools.RenderResult(res.Result)
}

// Ten servers, one unreachable and one whose command does not exist: every
// one is listed with the right state, the healthy ones are callable, and a
// server that hangs at start delays none of them.
func TestTenServers(t *testing.T) {
	h := testutil.ServeHTTP(t, testutil.NewServer("inproc"))
	l := testutil.NewLMCP(t, "lmcp-secret-token")
	srvs := map[string]config.Server{
		"s1":      stdio(t),
		"s2":      stdio(t),
		"s3":      stdio(t),
		"s4":      stdio(t),
		"http":    {URL: h.StreamableURL},
		"sse":     {URL: h.SSEURL},
		"lmcp":    {URL: l.URL, AuthEnv: "LMCP_TOKEN"},
		"hanging": {Command: stdio(t).Command, Args: []string{"-hang"}, ConnectTimeout: 10 * time.Minute},
		"down":    {URL: "http://127.0.0.1:1/mcp"},
		"missing": {Command: "deckhand-no-such-server"},
	}
	sys := start(t, srvs)
	healthy := []string{"s1", "s2", "s3", "s4", "http", "sse", "lmcp"}
	var st map[string]servers.ServerStatus
	testutil.Eventually(t, wait, func() bool {
		st = statuses(t, sys, false)
		for _, a := range append(healthy, "down", "missing") {
			if !st[a].Settled() {
				return false
			}
		}
		return true
	}, "servers never settled: %v", st)
	if len(st) != 10 {
		t.Errorf("listed %d servers, want 10", len(st))
	}
	for _, a := range healthy {
		if st[a].State != servers.StateReady || st[a].Tools == 0 {
			t.Errorf("%s: %+v, want ready with tools", a, st[a])
		}
	}
	if st["hanging"].State != servers.StateConnecting {
		t.Errorf("hanging: %s, want connecting", st["hanging"].State)
	}
	if got := st["down"]; got.State != servers.StateFailed || !strings.Contains(got.Reason, "not reachable: nothing is listening there (connection refused). Is the server running at http") {
		t.Errorf("down: %s %q, want failed: not reachable, in plain words", got.State, got.Reason)
	}
	if got := st["missing"]; got.State != servers.StateFailed || got.Reason != `exec: "deckhand-no-such-server": executable file not found in $PATH` {
		t.Errorf("missing: %s %q, want failed with exec's not-found error", got.State, got.Reason)
	}
	wantTransport := map[string]string{"s1": "stdio", "http": "streamable", "sse": "sse", "lmcp": "json"}
	for a, want := range wantTransport {
		if st[a].Transport != want {
			t.Errorf("%s transport = %q, want %q", a, st[a].Transport, want)
		}
	}
	for _, a := range healthy {
		tool := a + ".echo"
		if got := text(t, call(t, sys, tool, `{"text":"hi"}`)); !strings.HasSuffix(got, "hi") {
			t.Errorf("%s = %q", tool, got)
		}
	}
}

func TestKilledServerComesBack(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	sys := start(t, map[string]config.Server{"s": stdio(t, "-pidfile", pidfile)})
	waitState(t, sys, "s", servers.StateReady)
	pid := readPid(t, pidfile)

	progress := make(chan *servers.ToolProgress, 100)
	results := make(chan *servers.ToolResult, 1)
	go func() {
		res, err := sys.CallTool(context.Background(), "s.slow", json.RawMessage(`{"ms": 600000, "steps": 6000}`), func(p *servers.ToolProgress) { progress <- p })
		if err != nil {
			res = &servers.ToolResult{Err: err}
		}
		results <- res
	}()
	p := testutil.Receive(t, progress, wait, "progress")
	if p.Tool != "s.slow" || p.Progress.Total != 6000 {
		t.Errorf("progress = %+v, want s.slow of 6000", p)
	}
	changes := watch(t, sys)
	os.Remove(pidfile)
	syscall.Kill(pid, syscall.SIGKILL)

	res := testutil.Receive(t, results, wait, "the interrupted call")
	if res.Err == nil || !strings.Contains(res.Err.Error(), "server s disconnected") || !strings.Contains(res.Err.Error(), "signal: killed") {
		t.Errorf("interrupted call = %v, want a disconnect error saying the process was killed", res.Err)
	}
	lost := next(t, changes, "s", servers.StateReconnecting)
	if !strings.Contains(lost.Reason, "signal: killed") {
		t.Errorf("reconnecting because %q, want the kill", lost.Reason)
	}
	st := next(t, changes, "s", servers.StateReady)
	if newPid := readPid(t, pidfile); newPid == pid {
		t.Errorf("server was not restarted (pid %d)", pid)
	}
	if st.Attempts != 0 {
		t.Errorf("Attempts after recovery = %d, want 0", st.Attempts)
	}
	if got := text(t, call(t, sys, "s.echo", `{"text":"back"}`)); got != "Echo: back" {
		t.Errorf("echo after restart = %q", got)
	}
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	return testutil.ReadPIDs(t, file, 1)[0]
}

func TestShutdownLeavesNoProcess(t *testing.T) {
	dir := t.TempDir()
	cfg := &config.Config{MCP: config.MCP{Servers: map[string]config.Server{
		"a": stdio(t, "-spawn", "-pidfile", filepath.Join(dir, "a")),
		"b": stdio(t, "-pidfile", filepath.Join(dir, "b")),
	}}}
	cfg.ApplyDefaults()
	sys := Start(Options{Config: cfg})
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if _, err := sys.ServerStatuses(ctx, true); err != nil {
		t.Fatal(err)
	}
	pids := append(testutil.ReadPIDs(t, filepath.Join(dir, "a"), 2), testutil.ReadPIDs(t, filepath.Join(dir, "b"), 1)...)
	if err := sys.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown() = %v", err)
	}
	for _, pid := range pids {
		if !testutil.ProcessGone(pid) {
			t.Errorf("process %d still running after Shutdown", pid)
		}
	}
}

// A server still starting when Deckhand shuts down is cleaned up too,
// children and all.
func TestShutdownDuringConnect(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	cfg := &config.Config{MCP: config.MCP{Servers: map[string]config.Server{
		"slow": stdio(t, "-hang", "-spawn", "-pidfile", pidfile),
	}}}
	cfg.ApplyDefaults()
	sys := Start(Options{Config: cfg})
	pids := testutil.ReadPIDs(t, pidfile, 2)
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if err := sys.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown() = %v", err)
	}
	for _, pid := range pids {
		if !testutil.ProcessGone(pid) {
			t.Errorf("process %d still running after Shutdown", pid)
		}
	}
}

func TestLMCPAuth(t *testing.T) {
	l := testutil.NewLMCP(t, "lmcp-secret-token")
	sys := start(t, map[string]config.Server{
		"good": {URL: l.URL, AuthEnv: "LMCP_TOKEN"},
		"bad":  {URL: l.URL, AuthEnv: "WRONG_TOKEN"},
	})
	st := statuses(t, sys, true)
	if st["good"].State != servers.StateReady || st["good"].Tools != 3 {
		t.Errorf("good: %+v, want ready with 3 tools", st["good"])
	}
	bad := st["bad"]
	if bad.State != servers.StateFailed || !strings.Contains(bad.Reason, "401 Unauthorized") {
		t.Errorf("bad: %s %q, want failed with 401", bad.State, bad.Reason)
	}
	if strings.Contains(bad.Reason, "not-the-token-9") {
		t.Errorf("bad: reason %q contains the token", bad.Reason)
	}
	if got := text(t, call(t, sys, "good.add", `{"a": 40, "b": 2}`)); got != "42" {
		t.Errorf("good.add = %q", got)
	}
	res := call(t, sys, "good.fail", `{}`)
	if res.Err != nil || !res.Result.IsError {
		t.Errorf("good.fail = %+v, want an isError result", res)
	}
}

func TestUnknownTool(t *testing.T) {
	sys := start(t, map[string]config.Server{"s": stdio(t)})
	statuses(t, sys, true)
	tests := []struct {
		tool string
		want string
	}{
		{"s.ech", `unknown tool "s.ech": server s has no tool named "ech" (did you mean s.echo`},
		{"nope.echo", `unknown tool "nope.echo": no server named "nope" (did you mean s.echo`},
		{"plain", `unknown tool "plain"`},
	}
	for _, tt := range tests {
		res := call(t, sys, tt.tool, `{}`)
		if res.Err == nil || !strings.HasPrefix(res.Err.Error(), tt.want) {
			t.Errorf("CallTool(%s) = %v, want %q", tt.tool, res.Err, tt.want)
		}
	}
	// The wire name works as well as the display name.
	if got := text(t, call(t, sys, "s__echo", `{"text":"wire"}`)); got != "Echo: wire" {
		t.Errorf("s__echo = %q", got)
	}
}

// A slow call holds up neither other calls nor a tools/list refresh.
func TestSlowCallBlocksNothing(t *testing.T) {
	sys := start(t, map[string]config.Server{"s": stdio(t)})
	statuses(t, sys, true)
	changed := make(chan *servers.CatalogChanged, 10)
	watcher := sys.Root.Spawn(propsFunc(func(m any) {
		if c, ok := m.(*servers.CatalogChanged); ok {
			changed <- c
		}
	}))
	sys.Root.Send(sys.Registry, &servers.WatchCatalog{PID: watcher})
	testutil.Receive(t, changed, wait, "the initial catalog")

	hung := make(chan *servers.ToolResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		res, _ := sys.CallTool(ctx, "s.hang", nil, nil)
		hung <- res
	}()
	if got := text(t, call(t, sys, "s.echo", `{"text":"meanwhile"}`)); got != "Echo: meanwhile" {
		t.Errorf("echo during a hung call = %q", got)
	}
	if got := text(t, call(t, sys, "s.add_tool", `{}`)); got != "added" {
		t.Errorf("add_tool = %q", got)
	}
	for {
		c := testutil.Receive(t, changed, wait, "a catalog with the new tool")
		if _, ok := c.Catalog.Lookup("s.extra"); ok {
			break
		}
	}
	if got := text(t, call(t, sys, "s.extra", `{}`)); got != "extra" {
		t.Errorf("extra = %q", got)
	}
	select {
	case res := <-hung:
		t.Errorf("the hung call returned early: %+v", res)
	default:
	}
}

func TestTimeoutAndCancel(t *testing.T) {
	srv := stdio(t)
	srv.Timeout = 100 * time.Millisecond
	sys := start(t, map[string]config.Server{"s": srv})
	statuses(t, sys, true)

	res := call(t, sys, "s.hang", `{}`)
	if res.Err == nil || res.Err.Error() != "s.hang timed out after 100ms (mcp.servers.s.timeout gives a call more time)" {
		t.Errorf("hang = %v, want a timeout", res.Err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := sys.CallTool(ctx, "s.slow", json.RawMessage(`{"ms": 60000}`), nil)
		done <- err
	}()
	cancel()
	if err := testutil.Receive(t, done, wait, "the cancelled call"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call = %v, want context.Canceled", err)
	}
	// The server is still fine.
	if got := text(t, call(t, sys, "s.echo", `{"text":"ok"}`)); got != "Echo: ok" {
		t.Errorf("echo = %q", got)
	}
}

func TestAddRemoveReconnect(t *testing.T) {
	sys := start(t, nil)
	if got := statuses(t, sys, true); len(got) != 0 {
		t.Fatalf("no servers configured, got %v", got)
	}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if err := sys.AddServer(ctx, "late", stdio(t)); err != nil {
		t.Fatalf("AddServer() = %v", err)
	}
	if err := sys.AddServer(ctx, "late", stdio(t)); err == nil {
		t.Errorf("AddServer(duplicate) succeeded")
	}
	if err := sys.AddServer(ctx, "bad.alias", stdio(t)); err == nil {
		t.Errorf("AddServer(bad alias) succeeded")
	}
	waitState(t, sys, "late", servers.StateReady)
	if got := text(t, call(t, sys, "late.echo", `{"text":"x"}`)); got != "Echo: x" {
		t.Errorf("late.echo = %q", got)
	}
	sys.Root.Send(sys.Servers, &servers.ReconnectServer{Alias: "late"})
	waitState(t, sys, "late", servers.StateReady)
	if err := sys.RemoveServer(ctx, "late"); err != nil {
		t.Fatalf("RemoveServer() = %v", err)
	}
	if res := call(t, sys, "late.echo", `{"text":"x"}`); res.Err == nil {
		t.Errorf("late.echo after removal succeeded")
	}
	cat, _ := sys.Catalog(ctx)
	if cat.Len() != 0 {
		t.Errorf("catalog after removal has %d tools", cat.Len())
	}
}

func TestDisabled(t *testing.T) {
	srv := stdio(t)
	srv.Disabled = true
	sys := start(t, map[string]config.Server{"off": srv})
	st := statuses(t, sys, true)["off"]
	if st.State != servers.StateStopped || st.Reason != "disabled in config" {
		t.Errorf("disabled server: %+v", st)
	}
}

func TestFailingServerRetries(t *testing.T) {
	sys := start(t, map[string]config.Server{"crashy": stdio(t, "-exit", "2")})
	st := statuses(t, sys, true)["crashy"]
	if st.State != servers.StateFailed || !strings.Contains(st.Reason, "exit status 2") || !strings.Contains(st.Reason, "told to exit at start") {
		t.Errorf("crashy: %s %q", st.State, st.Reason)
	}
	testutil.Eventually(t, wait, func() bool { return statuses(t, sys, false)["crashy"].Attempts >= 3 }, "no retries")
	if st := statuses(t, sys, false)["crashy"]; st.State != servers.StateFailed || st.NextRetry.IsZero() {
		t.Errorf("crashy after retries: %+v", st)
	}
}

func ExampleSystem_CallTool() {
	cfg := &config.Config{}
	cfg.ApplyDefaults()
	sys := Start(Options{Config: cfg})
	defer sys.Shutdown(context.Background())
	res, _ := sys.CallTool(context.Background(), "fs.read_text_file", json.RawMessage(`{"path":"/etc/hostname"}`), nil)
	fmt.Println(res.Err)
	// Output: unknown tool "fs.read_text_file": no server named "fs"
}

// Tokens never reach the log, even at debug level; protoactor's own log
// lines arrive through the same logger.
func TestLogsHoldNoSecrets(t *testing.T) {
	const good, bad = "good-token-5b2e71", "bad-token-90fa3c"
	l := testutil.NewLMCP(t, good)
	var buf testutil.LockedBuffer
	cfg := &config.Config{MCP: config.MCP{Servers: map[string]config.Server{
		"good": {URL: l.URL, AuthToken: good},
		"bad":  {URL: l.URL, AuthEnv: "BAD"},
	}}}
	cfg.ApplyDefaults()
	sys := Start(Options{
		Config:    cfg,
		Logger:    slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})),
		LookupEnv: func(string) (string, bool) { return bad, true },
	})
	st := statuses(t, sys, true)
	if st["good"].State != servers.StateReady || st["bad"].State != servers.StateFailed {
		t.Fatalf("states: %+v", st)
	}
	text(t, call(t, sys, "good.echo", `{"text": "x"}`))
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	sys.Shutdown(ctx)
	logs := buf.String()
	for _, secret := range []string{good, bad} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log contains the token %q:\n%s", secret, logs)
		}
	}
	if !strings.Contains(logs, "component=protoactor") || !strings.Contains(logs, "401 Unauthorized") {
		t.Errorf("the log lacks protoactor's lines or the 401:\n%s", logs)
	}
}
