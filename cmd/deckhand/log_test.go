package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"deckhand/store"
	"deckhand/testutil"
)

func modelConfig(t *testing.T, model *testutil.ModelServer, extra string) string {
	return writeConfig(t, fmt.Sprintf(`
[model]
base_url = %q
name = "scripted"
price = { input_per_mtok = 2.5, output_per_mtok = 10 }

[mcp.servers.s]
command = %q
%s`, model.URL, stdioServerBin(t), extra))
}

func openDB(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// sessions, logs and approvals read what chat wrote.
func TestLogCommands(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c1", Name: "s__echo", Arguments: `{"text":"logged"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("All ", "done.")},
	)
	cfg := modelConfig(t, model, "")
	dbPath := filepath.Join(t.TempDir(), "log.db")
	dh := func(args ...string) result {
		return deckhand(t, nil, "", append([]string{"--config", cfg, "--db", dbPath}, args...)...)
	}
	if r := dh("chat", "-p", "use the echo tool please", "--approve=auto", "--wait", "60s"); r.code != exitOK || r.stdout != "All done.\n" {
		t.Fatalf("chat: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}

	r := dh("sessions", "--json")
	var sessions []struct {
		ID           string  `json:"id"`
		Title        string  `json:"title"`
		Runs         int     `json:"runs"`
		InputTokens  int     `json:"input_tokens"`
		OutputTokens int     `json:"output_tokens"`
		CostUSD      float64 `json:"cost_usd"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &sessions); err != nil || len(sessions) != 1 {
		t.Fatalf("sessions --json = %q (%v)", r.stdout, err)
	}
	s := sessions[0]
	// The scripted model reports 20+10 and 10+2 tokens.
	if s.Title != "use the echo tool please" || s.Runs != 1 || s.InputTokens != 30 || s.OutputTokens != 12 || s.CostUSD != (30*2.5+12*10)/1e6 {
		t.Errorf("session = %+v", s)
	}
	r = dh("sessions")
	for _, want := range []string{"LAST ACTIVITY", s.ID, "30/12", "$0.0002", "use the echo tool please"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("sessions lacks %q:\n%s", want, r.stdout)
		}
	}

	r = dh("logs", "--session", s.ID[:len(s.ID)-3])
	for _, want := range []string{"session.created", "run.started", `"use the echo tool please"`, "tool.requested", `s.echo {"text":"logged"}`,
		"approval.granted", "s.echo: allowed (once, --approve=auto)", "tool.succeeded", `"Echo: logged"`, "run.succeeded", "2 requests, 30 in / 12 out, $0.0002"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("logs --session lacks %q:\n%s", want, r.stdout)
		}
	}
	db := openDB(t, dbPath)
	runs, _ := db.Runs(t.Context(), s.ID)
	r = dh("logs", "--run", runs[0].ID, "--json")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var first struct {
		Kind string          `json:"kind"`
		Run  string          `json:"run"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first.Kind != "run.started" || first.Run != runs[0].ID || string(first.Data) != `{"model":"scripted","parent":"","text":"use the echo tool please"}` {
		t.Errorf("logs --json first line = %s (%v)", lines[0], err)
	}
	if r := dh("logs", "--run", "nope"); r.code != exitFailure || !strings.Contains(r.stderr, `no run "nope"`) {
		t.Errorf("logs --run nope: exit %d, %q", r.code, r.stderr)
	}
	if r := dh("logs"); r.code != exitUsage {
		t.Errorf("logs without a target: exit %d", r.code)
	}
}

// An "always allow" answered at the terminal is kept in the log, listed,
// and revoked: then the tool is asked again.
func TestAlwaysAllowPersists(t *testing.T) {
	call := testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c", Name: "s__add", Arguments: `{"a":1,"b":2}`})}
	model := testutil.NewModelServer(t, call, testutil.ModelResponse{Body: testutil.TextChunks("3")}, call, testutil.ModelResponse{Body: testutil.TextChunks("3 again")})
	cfg := modelConfig(t, model, "")
	dbPath := filepath.Join(t.TempDir(), "log.db")

	// Answer "a" at a (simulated) terminal.
	out, say, exited := terminalChat(t, "--config", cfg, "--db", dbPath, "chat", "--wait", "60s")
	say("add")
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "Allow s.add?") }, "not asked:\n%s", out)
	say("a")
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "\n3\n") }, "no answer:\n%s", out)
	say(":quit")
	testutil.Receive(t, exited, wait, "chat to quit")

	r := deckhand(t, nil, "", "--db", dbPath, "approvals", "list")
	if !strings.Contains(r.stdout, "s.add") || !strings.Contains(r.stdout, "always") {
		t.Fatalf("approvals list:\n%s", r.stdout)
	}
	// The next process does not ask.
	if r := deckhand(t, nil, "", "--config", cfg, "--db", dbPath, "chat", "-p", "add", "--wait", "60s"); r.code != exitOK || r.stdout != "3 again\n" || strings.Contains(r.stderr, "denied") {
		t.Errorf("chat after an always grant: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	if r := deckhand(t, nil, "", "--db", dbPath, "approvals", "revoke", "s.add"); r.code != exitOK || !strings.Contains(r.stdout, "Revoked: s.add") {
		t.Errorf("approvals revoke: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := deckhand(t, nil, "", "--db", dbPath, "approvals", "list"); !strings.Contains(r.stdout, "No \"always allow\" grants.") {
		t.Errorf("approvals list after revoke:\n%s", r.stdout)
	}
}

// killMidRun starts `deckhand chat -p` against model, waits until the log
// holds an event of kind, and kills the process with SIGKILL. It returns
// the session's id.
func killMidRun(t *testing.T, cfg, dbPath, kind string) string {
	t.Helper()
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	cmd := exec.Command(bin, "--config", cfg, "--db", dbPath, "chat", "-p", "start something long", "--approve=auto", "--wait", "60s")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	db := openDB(t, dbPath)
	var session string
	testutil.Eventually(t, wait, func() bool {
		list, _ := db.Sessions(t.Context(), 1)
		if len(list) == 0 {
			return false
		}
		session = list[0].ID
		events, _ := db.Events(t.Context(), store.Filter{SessionID: session})
		for _, e := range events {
			if e.Kind == kind {
				return true
			}
		}
		return false
	}, "no %s in the log", kind)
	cmd.Process.Signal(syscall.SIGKILL)
	testutil.Receive(t, exited, wait, "deckhand to die")
	if check, err := db.IntegrityCheck(t.Context()); check != "ok" || err != nil {
		t.Fatalf("integrity_check after SIGKILL = %q, %v", check, err)
	}
	return session
}

// resumedRequest resumes session with one more message and returns the
// messages of the model request it made.
func resumedRequest(t *testing.T, model *testutil.ModelServer, cfg, dbPath, session string) []map[string]any {
	t.Helper()
	model.Add(testutil.ModelResponse{Body: testutil.TextChunks("Picking up where we left off.")})
	r := deckhand(t, nil, "", "--config", cfg, "--db", dbPath, "chat", "--resume", session, "-p", "go on")
	if r.code != exitOK || r.stdout != "Picking up where we left off.\n" {
		t.Fatalf("chat --resume: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	reqs := model.Requests()
	json.Unmarshal(reqs[len(reqs)-1], &body)
	return body.Messages
}

func roles(msgs []map[string]any) string {
	var out []string
	for _, m := range msgs {
		out = append(out, fmt.Sprint(m["role"]))
	}
	return strings.Join(out, ",")
}

// Killing deckhand while a tool call runs loses nothing that was flushed and
// leaves a sound file; with nothing else started, sessions and logs show the
// run as interrupted (logs --follow ends) and count what it used; resume
// tells the model the call was sent with its outcome unknown.
func TestKilledMidRun(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "long", Name: "s__slow", Arguments: `{"ms":600000}`})},
	)
	cfg := modelConfig(t, model, "")
	dbPath := filepath.Join(t.TempDir(), "log.db")
	session := killMidRun(t, cfg, dbPath, store.KindToolInvoked)
	db := openDB(t, dbPath)

	runs, _ := db.Runs(t.Context(), session)
	if len(runs) != 1 || runs[0].Status != store.RunInterrupted {
		t.Fatalf("runs after the kill = %+v, want one interrupted", runs)
	}
	r := deckhand(t, nil, "", "--db", dbPath, "sessions", "--json")
	var list []struct {
		ID           string `json:"id"`
		Model        string `json:"model"`
		LastRun      string `json:"last_run"`
		InputTokens  int    `json:"input_tokens"`
		OutputTokens int    `json:"output_tokens"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions --json: %v\n%s", err, r.stdout)
	}
	if s := list[0]; s.LastRun != store.RunInterrupted || s.Model != "scripted" || s.InputTokens == 0 || s.OutputTokens == 0 {
		t.Errorf("sessions --json = %+v, want the run interrupted, model scripted, its usage counted", s)
	}
	if r := deckhand(t, nil, "", "--db", dbPath, "sessions"); !strings.Contains(r.stdout, "interrupted") {
		t.Errorf("sessions:\n%s", r.stdout)
	}
	if r := deckhand(t, nil, "", "--db", dbPath, "logs", "--session", session, "--follow"); r.code != exitOK || !strings.Contains(r.stdout, "run.interrupted") {
		t.Errorf("logs --follow on the dead session: exit %d\n%s", r.code, r.stdout)
	}

	msgs := resumedRequest(t, model, cfg, dbPath, session)
	runs, _ = db.Runs(t.Context(), session)
	if len(runs) != 2 || runs[0].Status != store.RunInterrupted || runs[1].Status != store.RunSucceeded {
		t.Errorf("runs after resume = %+v", runs)
	}
	// The model saw the old conversation, the call it made answered
	// honestly: sent, outcome unknown.
	if roles(msgs) != "system,user,assistant,tool,user" || msgs[1]["content"] != "start something long" ||
		!strings.Contains(fmt.Sprint(msgs[3]["content"]), "Outcome unknown: the call was sent") {
		t.Errorf("the resumed request = %v", msgs)
	}
}

// Killing deckhand while the answer streams: resume gives the model the
// part of the answer the person had seen.
func TestKilledMidStream(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("Half of ", "the answer", " and the rest", " much later"), Pace: 3 * time.Second},
	)
	cfg := modelConfig(t, model, "")
	dbPath := filepath.Join(t.TempDir(), "log.db")
	session := killMidRun(t, cfg, dbPath, store.KindAssistantDelta)
	msgs := resumedRequest(t, model, cfg, dbPath, session)
	if roles(msgs) != "system,user,assistant,user" || !strings.HasPrefix(fmt.Sprint(msgs[2]["content"]), "Half of ") ||
		!strings.Contains(fmt.Sprint(msgs[2]["content"]), "cut off") {
		t.Errorf("the resumed request = %v", msgs)
	}
}

// Two deckhand processes writing to one log at once: both work, and the file
// stays sound.
func TestTwoProcessesOneLog(t *testing.T) {
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	model := testutil.NewModelServer(t)
	model.Fallback = func(req map[string]any) testutil.ModelResponse {
		msgs, _ := req["messages"].([]any)
		if len(msgs) < 12 { // five tool rounds, then an answer
			return testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: fmt.Sprint("c", len(msgs)), Name: "s__echo", Arguments: `{"text":"x"}`})}
		}
		return testutil.ModelResponse{Body: testutil.TextChunks("finished")}
	}
	cfg := modelConfig(t, model, "")
	dbPath := filepath.Join(t.TempDir(), "log.db")
	var wg sync.WaitGroup
	outputs := make([]string, 4)
	errs := make([]error, 4)
	for i := range outputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			out, err := exec.CommandContext(ctx, bin, "--config", cfg, "--db", dbPath, "chat", "-p", fmt.Sprint("process ", i), "--approve=auto", "--wait", "60s").CombinedOutput()
			outputs[i], errs[i] = string(out), err
		}()
	}
	wg.Wait()
	for i := range outputs {
		if errs[i] != nil || !strings.Contains(outputs[i], "finished") {
			t.Errorf("process %d: %v\n%s", i, errs[i], outputs[i])
		}
	}
	db := openDB(t, dbPath)
	if check, _ := db.IntegrityCheck(t.Context()); check != "ok" {
		t.Fatalf("integrity_check = %q", check)
	}
	sessions, _ := db.Sessions(t.Context(), 0)
	if len(sessions) != 4 {
		t.Fatalf("%d sessions, want 4", len(sessions))
	}
	for _, s := range sessions {
		events, _ := db.Events(t.Context(), store.Filter{SessionID: s.ID})
		succeeded := 0
		for _, e := range events {
			if e.Kind == store.KindToolSucceeded {
				succeeded++
			}
		}
		if succeeded != 5 || events[len(events)-1].Kind != store.KindRunSucceeded {
			t.Errorf("session %s: %d tool results, last event %s", s.Title, succeeded, events[len(events)-1].Kind)
		}
	}
}

// logs --follow prints a session's events as they come.
func TestLogsFollow(t *testing.T) {
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("slow ", "answer"), Pace: 300 * time.Millisecond})
	cfg := modelConfig(t, model, "")
	dbPath := filepath.Join(t.TempDir(), "log.db")
	chatDone := make(chan result, 1)
	go func() { chatDone <- deckhand(t, nil, "", "--config", cfg, "--db", dbPath, "chat", "-p", "follow me") }()
	db := openDB(t, dbPath)
	var session string
	testutil.Eventually(t, wait, func() bool {
		list, _ := db.Sessions(t.Context(), 1)
		if len(list) > 0 {
			session = list[0].ID
		}
		return session != ""
	}, "no session")

	ctx, cancel := context.WithCancel(t.Context())
	var out testutil.LockedBuffer
	followed := make(chan int, 1)
	go func() {
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, getenv: func(string) (string, bool) { return "", false }}
		followed <- run(ctx, []string{"--db", dbPath, "logs", "--session", session, "--follow"}, e)
	}()
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "run.succeeded") }, "--follow never showed the end of the run:\n%s", &out)
	cancel()
	if code := testutil.Receive(t, followed, wait, "logs --follow to stop"); code != exitOK {
		t.Errorf("logs --follow: exit %d", code)
	}
	if r := testutil.Receive(t, chatDone, wait, "chat"); r.stdout != "slow answer\n" {
		t.Errorf("chat: %+v", r)
	}
	if !strings.Contains(out.String(), `assistant.message  "slow answer"`) {
		t.Errorf("--follow output:\n%s", out.String())
	}
}
