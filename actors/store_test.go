package actors

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/store"
	"deckhand/testutil"
	"deckhand/transport/llm"
)

func openLog(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "deckhand.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func syncLog(t *testing.T, c *chat) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if err := c.sys.SyncLog(ctx); err != nil {
		t.Fatal(err)
	}
}

func kindsOf(events []store.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Kind)
	}
	return out
}

// A scripted session with tool calls, approvals, a denial, a refused call,
// a retry and a failed run writes every event kind, in order.
func TestLogEveryKind(t *testing.T) {
	db := openLog(t)
	model := testutil.NewModelServer(t,
		// run 1: streamed slowly (so text is logged while it streams), then two calls:
		// one allowed by rule, one asked and allowed once; one with bad arguments.
		testutil.ModelResponse{Body: testutil.TextChunks("Let ", "me ", "look ", "at ", "it ", "for ", "you", "."), Pace: 60 * time.Millisecond},
		calls(
			testutil.ToolCallSpec{ID: "a", Name: "mem__echo", Arguments: `{"text":"x"}`},
			testutil.ToolCallSpec{ID: "b", Name: "mem__add", Arguments: `{"a":1,"b":2}`},
			testutil.ToolCallSpec{ID: "c", Name: "mem__add", Arguments: `{"a":"one"}`},
		),
		answer("done"),
		// run 2: a denied call and a failing tool, after a 429.
		testutil.ModelResponse{Status: 429, Header: map[string]string{"Retry-After": "0.01"}, Body: `{"error":{"message":"slow down"}}`},
		calls(testutil.ToolCallSpec{ID: "d", Name: "mem__add", Arguments: `{"a":1,"b":1}`}, testutil.ToolCallSpec{ID: "e", Name: "mem__fail", Arguments: `{}`}),
		answer("ok"),
		// run 3: the model server refuses.
		testutil.ModelResponse{Status: 401, Body: `{"error":{"message":"bad key"}}`},
	)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")},
		autoApprove("mem.echo", "mem.fail"), func(cfg *config.Config) { cfg.Model.MaxRetries = ptrInt(1) })
	// Run 1 needs the first text turn to end before the calls: send it as two messages.
	c.send("look")
	expect[*conversation.RunFinished](c)
	c.send("now the tools")
	req := expect[*conversation.ApprovalRequested](c)
	c.answer(req, approval.AllowOnce)
	expect[*conversation.RunFinished](c)
	c.send("again")
	req = expect[*conversation.ApprovalRequested](c)
	c.answer(req, approval.Deny)
	expect[*conversation.RunFinished](c)
	c.send("and fail")
	expect[*conversation.RunFinished](c)
	syncLog(t, c)

	events, err := db.Events(t.Context(), store.Filter{SessionID: c.conversationID(t)})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range events {
		seen[e.Kind] = true
		if !json.Valid(e.Data) {
			t.Errorf("%s: data is not JSON: %s", e.Kind, e.Data)
		}
	}
	for _, k := range []string{
		store.KindSessionCreated, store.KindRunStarted, store.KindPromptBuilt, store.KindAssistantDelta, store.KindAssistantMessage,
		store.KindToolRequested, store.KindApprovalAsked, store.KindApprovalGranted, store.KindApprovalDenied, store.KindToolInvoked,
		store.KindToolSucceeded, store.KindToolFailed, store.KindRunSucceeded, store.KindRunFailed, store.KindNotice,
	} {
		if !seen[k] {
			t.Errorf("no %s event; kinds: %v", k, kindsOf(events))
		}
	}
	// The first run reads back in order.
	runs, _ := db.Runs(t.Context(), c.conversationID(t))
	if len(runs) != 4 || runs[0].Status != store.RunSucceeded || runs[3].Status != store.RunFailed || !strings.Contains(runs[3].Error, "bad key") {
		t.Fatalf("runs = %+v", runs)
	}
	first, _ := db.Events(t.Context(), store.Filter{RunID: runs[0].ID})
	// Streamed text is coalesced: far fewer delta rows than deltas.
	deltas := 0
	for _, e := range first {
		if e.Kind == store.KindAssistantDelta {
			deltas++
		}
	}
	if deltas == 0 || deltas > 4 {
		t.Errorf("%d assistant.delta rows for 8 deltas streamed over half a second", deltas)
	}
	want := []string{"run.started", "prompt.built", "assistant.delta", "assistant.message", "run.succeeded"}
	if diff := cmp.Diff(want, slices.Compact(kindsOf(first))); diff != "" {
		t.Errorf("first run's events (-want +got):\n%s", diff)
	}
	second, _ := db.Events(t.Context(), store.Filter{RunID: runs[1].ID})
	want = []string{
		"run.started", "prompt.built", "assistant.message",
		"tool.requested", "tool.requested", "tool.requested", "tool.failed",
		"approval.granted", "tool.invoked", "tool.succeeded",
		"approval.asked", "approval.granted", "tool.invoked", "tool.succeeded",
		"prompt.built", "assistant.delta", "assistant.message", "run.succeeded",
	}
	if diff := cmp.Diff(want, kindsOf(second)); diff != "" {
		t.Errorf("second run's events (-want +got):\n%s", diff)
	}
	// The third run's 429: its notice, then the notice that the try went,
	// which a reopened chat shows in its place.
	third, _ := db.Events(t.Context(), store.Filter{RunID: runs[2].ID})
	var notices []string
	for _, e := range third {
		if e.Kind == store.KindNotice {
			var d store.EventData
			json.Unmarshal(e.Data, &d)
			notices = append(notices, fmt.Sprintf("%s retry=%v tried=%v", d.Text, d.Retry, d.Tried))
		}
	}
	if len(notices) != 2 || !strings.Contains(notices[0], "trying again in") || !strings.HasSuffix(notices[0], "retry=true tried=false") ||
		!strings.Contains(notices[1], "tried again at") || !strings.HasSuffix(notices[1], "retry=true tried=true") {
		t.Errorf("the 429's notices in the log: %q, want the retry's, then that its try went", notices)
	}
	s, _ := db.Session(t.Context(), c.conversationID(t))
	if s.Title != "look" || s.Runs != 4 || s.Usage.InputTokens == 0 {
		t.Errorf("session = %+v", s)
	}
}

// A fast answer (every chunk at once) has its streamed text in the log as
// Bosun's event list has it: one coalesced assistant.delta before the
// assistant.message, not one row per token, and none for a turn that only
// calls tools.
func TestFastAnswerDelta(t *testing.T) {
	db := openLog(t)
	words := strings.Fields("a fast answer streamed in twenty small pieces without any pause between them at all ok")
	for i := range words {
		words[i] += " "
	}
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks(words...)})
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, nil)
	c.send("hi")
	expect[*conversation.RunFinished](c)
	syncLog(t, c)
	events, err := db.Events(t.Context(), store.Filter{SessionID: c.conversationID(t)})
	if err != nil {
		t.Fatal(err)
	}
	var deltas []string
	for _, e := range events {
		if e.Kind == store.KindAssistantDelta {
			d, _ := e.Decode()
			deltas = append(deltas, d.Text)
		}
	}
	if want := []string{strings.Join(words, "")}; !cmp.Equal(want, deltas) {
		t.Errorf("assistant.delta rows = %q, want %q; kinds: %v", deltas, want, kindsOf(events))
	}
	want := []string{"session.created", "run.started", "prompt.built", "assistant.delta", "assistant.message", "run.succeeded"}
	if diff := cmp.Diff(want, kindsOf(events)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func ptrInt(v int) *int { return &v }

// conversationID asks the log for the one session it holds.
func (c *chat) conversationID(t *testing.T) string {
	t.Helper()
	return c.conv.Id[strings.LastIndexByte(c.conv.Id, '/')+1:]
}

// Secrets never reach the log file: the API key and a value a tool read from
// the environment.
func TestLogHoldsNoSecrets(t *testing.T) {
	const secret = "sk-planted-3f7a9c1e5b"
	t.Setenv("DECKHAND_PLANTED", secret)
	db := openLog(t)
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "a", Name: "mem__getenv", Arguments: `{"name":"DECKHAND_PLANTED"}`}),
		answer("the value is "+secret),
	)
	c := startChatWith(t, func(o *Options) { o.Log = db; o.Secrets = []string{secret} }, model,
		map[string]*sdk.Server{"mem": testutil.NewServer("mem")}, autoApprove("mem.*"),
		func(cfg *config.Config) { cfg.Model.APIKeyEnv = "DECKHAND_PLANTED" })
	c.send("what is " + secret + "?")
	f := expect[*conversation.ToolCallFinished](c)
	if strings.Contains(f.Output, secret) || !strings.Contains(f.Output, "DECKHAND_PLANTED=[redacted]") {
		t.Fatalf("the tool's result reached the person and the model as %q; want the secret redacted", f.Output)
	}
	expect[*conversation.RunFinished](c)
	// The request after the call holds the result without the secret (the
	// person's own message, which quotes it, is theirs to send).
	msgs, _ := c.request(1)
	for _, m := range msgs {
		if m["role"] == "tool" && strings.Contains(fmt.Sprint(m["content"]), secret) {
			t.Errorf("the model was sent the secret in a tool result: %v", m["content"])
		}
	}
	syncLog(t, c)
	if h := model.Headers()[0].Get("Authorization"); h != "Bearer "+secret {
		t.Fatalf("the key was not sent to the model: %q", h)
	}
	logLacks(t, db, secret, "the secret")
	events, _ := db.Events(t.Context(), store.Filter{SessionID: c.conversationID(t)})
	found := false
	for _, e := range events {
		found = found || strings.Contains(string(e.Data), "[redacted]")
	}
	if !found {
		t.Errorf("no event shows [redacted]")
	}
}

// Rebuilding a session from its events gives exactly the messages the
// conversation sends the model.
func TestRebuild(t *testing.T) {
	db := openLog(t)
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "a", Name: "mem__echo", Arguments: `{"text":"x"}`}, testutil.ToolCallSpec{ID: "b", Name: "mem__nope", Arguments: `{}`}),
		answer("one\nCMD: echo from the shell"),
		answer("two"),
		calls(testutil.ToolCallSpec{ID: "c", Name: "mem__add", Arguments: `{"a":1,"b":2}`}),
		answer("three"),
		testutil.ModelResponse{Body: testutil.TextChunks("cut"), Delay: time.Minute},
		answer("final"),
	)
	c := startChatWith(t, func(o *Options) { o.Log = db }, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")},
		autoApprove("mem.echo"), func(cfg *config.Config) { cfg.Policy.AllowExec = true })
	c.send("first")
	cmd := expect[*conversation.ApprovalRequested](c) // a command is asked each time
	c.answer(cmd, approval.AllowOnce)
	expect[*conversation.RunFinished](c)
	c.send("second")
	req := expect[*conversation.ApprovalRequested](c)
	c.answer(req, approval.AllowSession)
	expect[*conversation.RunFinished](c)
	c.send("third")
	testutil.Receive(t, model.Arrived(), wait, "a request")
	for len(model.Requests()) < 6 {
		testutil.Receive(t, model.Arrived(), wait, "the slow request")
	}
	c.sys.Root.Send(c.conv, &conversation.StopRun{})
	expect[*conversation.RunFinished](c)
	c.send("fourth")
	expect[*conversation.RunFinished](c)
	syncLog(t, c)

	// What the conversation sent last, without the system prompt and the
	// last question, is its history before that question.
	var body struct {
		Messages []llm.Message `json:"messages"`
	}
	reqs := model.Requests()
	json.Unmarshal(reqs[len(reqs)-1], &body)
	want := body.Messages[1 : len(body.Messages)-1]
	events, _ := db.Events(t.Context(), store.Filter{SessionID: c.conversationID(t)})
	opts := conversation.Rebuild(events)
	got, grants := opts.History, opts.Grants
	got = got[:len(got)-2] // "fourth" and its answer came after
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Rebuild (-sent +rebuilt):\n%s", diff)
	}
	if !grants["mem.add"] || len(grants) != 1 {
		t.Errorf("grants = %v, want mem.add for the session", grants)
	}
}

// logLacks fails the test if a file of the log (the database and its
// journal) holds secret, named what in the message.
func logLacks(t *testing.T, db *store.DB, secret, what string) {
	t.Helper()
	files, _ := filepath.Glob(db.Path() + "*")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("%s contains %s", f, what)
		}
	}
}
