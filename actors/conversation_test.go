package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/testutil"
	"deckhand/transport/llm"
)

// chat is a conversation under test: its events, and the scripted model.
type chat struct {
	t       testing.TB
	sys     *System
	conv    *actor.PID
	watcher *actor.PID
	model   *testutil.ModelServer
	events  chan any
	seen    []any
}

func startChat(t testing.TB, model *testutil.ModelServer, inproc map[string]*sdk.Server, tweak ...func(*config.Config)) *chat {
	t.Helper()
	return startChatWith(t, nil, model, inproc, tweak...)
}

// startChatWith is startChat with a change to the system's options (a log,
// secrets).
func startChatWith(t testing.TB, opts func(*Options), model *testutil.ModelServer, inproc map[string]*sdk.Server, tweak ...func(*config.Config)) *chat {
	t.Helper()
	cfg := &config.Config{}
	cfg.Model = config.Model{BaseURL: model.URL, Name: "scripted", StreamTimeout: 10 * time.Second}
	for _, f := range tweak {
		f(cfg)
	}
	cfg.ApplyDefaults()
	o := Options{Config: cfg, InProcess: inproc}
	if opts != nil {
		opts(&o)
	}
	sys := Start(o)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		sys.Shutdown(ctx)
	})
	ch := &chat{t: t, sys: sys, model: model, events: make(chan any, 10000)}
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if _, err := sys.ServerStatuses(ctx, true); err != nil {
		t.Fatal(err)
	}
	watcher := sys.Root.Spawn(propsFunc(func(m any) {
		switch m.(type) {
		case *actor.Started, *actor.Stopping, *actor.Stopped:
		default:
			ch.events <- m
		}
	}))
	conv, _, err := sys.StartConversation(ctx, conversation.ConversationOptions{Watchers: []*actor.PID{watcher}})
	if err != nil {
		t.Fatal(err)
	}
	ch.conv, ch.watcher = conv, watcher
	// Wait until every in-process server is ready and its tools are in
	// the catalog (any tool at all was not enough: when the wait for the
	// servers above ran out on a loaded machine, a view's call found its
	// server's tools missing). The conversation asks the registry for
	// the catalog as it opens, after this.
	if len(inproc) > 0 {
		testutil.Eventually(t, wait, func() bool {
			// Not ctx: the wait for the servers above may have used
			// most of it on a loaded machine.
			statuses, err := sys.ServerStatuses(t.Context(), false)
			if err != nil {
				return false
			}
			cat, _ := sys.Catalog(t.Context())
			ready := 0
			for _, st := range statuses {
				if _, ok := inproc[st.Alias]; !ok {
					continue
				}
				if st.State != servers.StateReady || (st.Tools > 0 && len(cat.Server(st.Alias)) == 0) {
					return false
				}
				ready++
			}
			return ready == len(inproc)
		}, "not every in-process server ready with its tools in the catalog")
	}
	return ch
}

func (c *chat) send(text string) { c.sys.Root.Send(c.conv, &conversation.UserMessage{Text: text}) }

// answer answers req as the person would, straight to the run that waits.
func (c *chat) answer(req *conversation.ApprovalRequested, ans approval.Answer) {
	c.t.Helper()
	if err := req.Reply(ans, ""); err != nil {
		c.t.Fatalf("answering %s: %v", req.ID, err)
	}
}

// restart replaces the conversation with a fresh one (same watcher).
func (c *chat) restart() {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	c.sys.Root.Stop(c.conv)
	conv, _, err := c.sys.StartConversation(ctx, conversation.ConversationOptions{Watchers: []*actor.PID{c.watcher}})
	if err != nil {
		c.t.Fatal(err)
	}
	c.conv = conv
}

// expect waits for the next event of type T, keeping the others seen.
func expect[T any](c *chat) T {
	c.t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case m := <-c.events:
			c.seen = append(c.seen, m)
			if v, ok := m.(T); ok {
				return v
			}
		case <-deadline:
			var zero T
			c.t.Fatalf("no %T within %v; seen: %s", zero, wait, describe(c.seen))
			return zero
		}
	}
}

func describe(events []any) string {
	var parts []string
	if len(events) > 20 {
		parts = append(parts, fmt.Sprintf("(%d more)", len(events)-20))
		events = events[len(events)-20:]
	}
	for _, e := range events {
		name := reflect.TypeOf(e).Elem().Name()
		if v, ok := e.(*conversation.ViewCallFinished); ok {
			name += fmt.Sprintf("(%q)", v.Output) // why a view's call ended
		}
		parts = append(parts, name)
	}
	return strings.Join(parts, ", ")
}

// request returns the i-th request the model received, decoded.
func (c *chat) request(i int) (msgs []map[string]any, toolNames []string) {
	c.t.Helper()
	reqs := c.model.Requests()
	if i >= len(reqs) {
		c.t.Fatalf("only %d requests, want #%d", len(reqs), i)
	}
	var body struct {
		Messages []map[string]any `json:"messages"`
		Tools    []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	json.Unmarshal(reqs[i], &body)
	for _, t := range body.Tools {
		toolNames = append(toolNames, t.Function.Name)
	}
	return body.Messages, toolNames
}

func answer(s string) testutil.ModelResponse {
	return testutil.ModelResponse{Body: testutil.TextChunks(s)}
}

func calls(cs ...testutil.ToolCallSpec) testutil.ModelResponse {
	return testutil.ModelResponse{Body: testutil.ToolCallChunks(cs...)}
}

func autoApprove(rules ...string) func(*config.Config) {
	return func(c *config.Config) {
		c.MCP.AutoApprove = map[string]bool{}
		for _, r := range rules {
			c.MCP.AutoApprove[r] = true
		}
	}
}

func TestPlainAnswer(t *testing.T) {
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("Hello", ", ", "there.")})
	c := startChat(t, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")})
	c.send("hi")
	started := expect[*conversation.RunStarted](c)
	var streamed strings.Builder
	for {
		m := <-c.events
		c.seen = append(c.seen, m)
		if d, ok := m.(*conversation.AssistantDelta); ok {
			streamed.WriteString(d.Text)
		}
		if _, ok := m.(*conversation.RunFinished); ok {
			fin := m.(*conversation.RunFinished)
			if fin.Err != nil || fin.Text != "Hello, there." || fin.Run != started.Run || fin.Requests != 1 || fin.Usage.TotalTokens != 13 {
				t.Errorf("RunFinished = %+v", fin)
			}
			break
		}
	}
	if streamed.String() != "Hello, there." {
		t.Errorf("streamed %q", streamed.String())
	}
	msgs, toolNames := c.request(0)
	if len(msgs) != 2 || msgs[0]["role"] != "system" || strings.Contains(msgs[0]["content"].(string), "CMD:") || msgs[1]["content"] != "hi" {
		t.Errorf("messages = %v", msgs)
	}
	if !strings.Contains(strings.Join(toolNames, ","), "mem__echo") {
		t.Errorf("tools = %v, want mem__echo among them", toolNames)
	}
}

func TestToolLoop(t *testing.T) {
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "call_1", Name: "mem__echo", Arguments: `{"text":"ping"}`}),
		answer("The server said ping."))
	c := startChat(t, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")}, autoApprove("mem.echo"))
	c.send("echo ping")
	st := expect[*conversation.ToolCallStarted](c)
	if st.Tool != "mem.echo" || st.Call != "call_1" || string(st.Arguments) != `{"text":"ping"}` {
		t.Errorf("ToolCallStarted = %+v", st)
	}
	fin := expect[*conversation.ToolCallFinished](c)
	if fin.Output != "Echo: ping" || fin.IsError {
		t.Errorf("ToolCallFinished = %+v", fin)
	}
	done := expect[*conversation.RunFinished](c)
	if done.Text != "The server said ping." || done.Requests != 2 {
		t.Errorf("RunFinished = %+v", done)
	}
	msgs, _ := c.request(1)
	want := []string{"system", "user", "assistant", "tool"}
	for i, m := range msgs {
		if i < len(want) && m["role"] != want[i] {
			t.Errorf("message %d role = %v, want %s", i, m["role"], want[i])
		}
	}
	if len(msgs) != 4 || msgs[3]["tool_call_id"] != "call_1" || msgs[3]["content"] != "Echo: ping" {
		t.Errorf("second request messages = %v", msgs)
	}
	calls := msgs[2]["tool_calls"].([]any)
	if fn := calls[0].(map[string]any)["function"].(map[string]any); fn["name"] != "mem__echo" {
		t.Errorf("assistant tool call = %v", calls)
	}
}

// Calls the gate must ask about: allow once, allow for the session, deny,
// and no answer in time.
func TestApprovals(t *testing.T) {
	echo := func(id, s string) testutil.ModelResponse {
		return calls(testutil.ToolCallSpec{ID: id, Name: "mem__echo", Arguments: fmt.Sprintf(`{"text":%q}`, s)})
	}
	model := testutil.NewModelServer(t,
		echo("a", "once"), answer("ok 1"),
		echo("b", "session"), answer("ok 2"),
		echo("c", "no ask now"), answer("ok 3"),
		calls(testutil.ToolCallSpec{ID: "d", Name: "mem__add", Arguments: `{"a":1,"b":2}`}), answer("ok 4"),
		calls(testutil.ToolCallSpec{ID: "e", Name: "mem__add", Arguments: `{"a":1,"b":2}`}), answer("ok 5"),
	)
	c := startChat(t, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")}, func(cfg *config.Config) {
		cfg.MCP.ApprovalTimeout = 200 * time.Millisecond
	})
	reply := func(a approval.Answer) {
		req := expect[*conversation.ApprovalRequested](c)
		c.answer(req, a)
	}

	c.send("1")
	req := expect[*conversation.ApprovalRequested](c)
	if req.Request.Display != "mem.echo" || req.Request.Server != "mem" || string(req.Request.Arguments) != `{"text":"once"}` || req.Request.Description != "Echo the text back" || req.Deadline.IsZero() {
		t.Errorf("ApprovalRequested = %+v", req)
	}
	c.answer(req, approval.AllowOnce)
	if cl := expect[*conversation.ApprovalClosed](c); cl.Answer != approval.AllowOnce {
		t.Errorf("ApprovalClosed = %+v", cl)
	}
	if f := expect[*conversation.ToolCallFinished](c); f.Output != "Echo: once" {
		t.Errorf("allowed once: %+v", f)
	}
	expect[*conversation.RunFinished](c)

	c.send("2")
	reply(approval.AllowSession)
	if f := expect[*conversation.ToolCallFinished](c); f.Output != "Echo: session" {
		t.Errorf("allowed for the session: %+v", f)
	}
	expect[*conversation.RunFinished](c)

	c.send("3") // granted for the session: no question
	if f := expect[*conversation.ToolCallFinished](c); f.Output != "Echo: no ask now" {
		t.Errorf("session grant: %+v", f)
	}
	for _, e := range c.seen {
		if r, ok := e.(*conversation.ApprovalRequested); ok && strings.Contains(string(r.Request.Arguments), "no ask now") {
			t.Errorf("asked again after a session grant")
		}
	}
	expect[*conversation.RunFinished](c)

	c.send("4")
	reply(approval.Deny)
	if f := expect[*conversation.ToolCallFinished](c); !f.Denied || !strings.Contains(f.Output, "denied") {
		t.Errorf("denied: %+v", f)
	}
	expect[*conversation.RunFinished](c)
	msgs, _ := c.request(7)
	if last := msgs[len(msgs)-1]; last["role"] != "tool" || !strings.Contains(last["content"].(string), "The user denied this tool call") {
		t.Errorf("the model was not told of the denial: %v", last)
	}

	c.send("5") // nobody answers
	expect[*conversation.ApprovalRequested](c)
	cl := expect[*conversation.ApprovalClosed](c)
	if cl.Answer != approval.Deny || cl.Reason != approval.TimedOut(200*time.Millisecond) || !cl.Reason.IsTimedOut() {
		t.Errorf("timeout: %+v", cl)
	}
	if f := expect[*conversation.ToolCallFinished](c); !f.Denied {
		t.Errorf("timed out call: %+v", f)
	}
	expect[*conversation.RunFinished](c)
}

func TestAlwaysGrant(t *testing.T) {
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "a", Name: "mem__add", Arguments: `{"a":1,"b":1}`}), answer("2"),
	)
	c := startChat(t, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")})
	c.send("add")
	req := expect[*conversation.ApprovalRequested](c)
	c.answer(req, approval.AllowAlways)
	expect[*conversation.RunFinished](c)

	// A new conversation in the same process no longer asks.
	model.Add(calls(testutil.ToolCallSpec{ID: "b", Name: "mem__add", Arguments: `{"a":2,"b":2}`}), answer("4"))
	events := make(chan any, 100)
	w := c.sys.Root.Spawn(propsFunc(func(m any) { events <- m }))
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	conv2, _, err := c.sys.StartConversation(ctx, conversation.ConversationOptions{Watchers: []*actor.PID{w}})
	if err != nil {
		t.Fatal(err)
	}
	c.sys.Root.Send(conv2, &conversation.UserMessage{Text: "add again"})
	for m := range events {
		if _, ok := m.(*conversation.ApprovalRequested); ok {
			t.Fatal("asked despite an always grant")
		}
		if f, ok := m.(*conversation.RunFinished); ok {
			if f.Text != "4" {
				t.Errorf("RunFinished = %+v", f)
			}
			break
		}
	}
}

// A call with bad arguments or an unknown tool goes back to the model as an
// error and never reaches a server.
func TestInvalidCalls(t *testing.T) {
	var served atomic.Int32
	srv := sdk.NewServer(&sdk.Implementation{Name: "counting", Version: "1"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "add", Description: "Add"}, func(context.Context, *sdk.CallToolRequest, testutil.AddIn) (*sdk.CallToolResult, any, error) {
		served.Add(1)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "sum"}}}, nil, nil
	})
	model := testutil.NewModelServer(t,
		calls(
			testutil.ToolCallSpec{ID: "bad_type", Name: "cnt__add", Arguments: `{"a":"one","b":2}`},
			testutil.ToolCallSpec{ID: "bad_json", Name: "cnt__add", Arguments: `{"a":1,`},
			testutil.ToolCallSpec{ID: "unknown", Name: "cnt__adds", Arguments: `{}`},
			testutil.ToolCallSpec{ID: "good", Name: "cnt__add", Arguments: `{"a":1,"b":2}`},
		),
		answer("done"))
	c := startChat(t, model, map[string]*sdk.Server{"cnt": srv}, autoApprove("cnt.*"))
	c.send("go")
	expect[*conversation.RunFinished](c)
	if n := served.Load(); n != 1 {
		t.Errorf("the server saw %d calls, want only the valid one", n)
	}
	msgs, _ := c.request(1)
	results := map[string]string{}
	var order []string
	for _, m := range msgs {
		if m["role"] == "tool" {
			id := m["tool_call_id"].(string)
			results[id] = m["content"].(string)
			order = append(order, id)
		}
	}
	if strings.Join(order, ",") != "bad_type,bad_json,unknown,good" {
		t.Errorf("tool messages in order %v, want the model's order", order)
	}
	for id, want := range map[string]string{
		"bad_type": "do not match the tool's input schema",
		"bad_json": "not a JSON object",
		"unknown":  `there is no tool named "cnt__adds"`,
		"good":     "sum",
	} {
		if !strings.Contains(results[id], want) {
			t.Errorf("result for %s = %q, want it to contain %q", id, results[id], want)
		}
	}
	if !strings.Contains(results["unknown"], "cnt.add") {
		t.Errorf("unknown tool result %q should suggest cnt.add", results["unknown"])
	}
}

// Errors reach the model as errors: an isError result, and a transport
// failure.
func TestToolErrors(t *testing.T) {
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "f", Name: "mem__fail", Arguments: `{}`}),
		answer("it failed"))
	c := startChat(t, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")}, autoApprove("mem.*"))
	c.send("fail")
	f := expect[*conversation.ToolCallFinished](c)
	if !f.IsError || !strings.HasPrefix(f.Output, "The tool reported an error:\n") || !strings.Contains(f.Output, "failed on purpose") {
		t.Errorf("isError result: %+v", f)
	}
	expect[*conversation.RunFinished](c)
}

// Consecutive read-only calls run together; other calls one at a time.
func TestParallelDispatch(t *testing.T) {
	for _, readOnly := range []bool{true, false} {
		t.Run(fmt.Sprintf("read-only=%v", readOnly), func(t *testing.T) {
			var specs []testutil.ToolCallSpec
			for i := range 4 {
				specs = append(specs, testutil.ToolCallSpec{ID: fmt.Sprintf("c%d", i), Name: "mem__slow", Arguments: `{"ms":50}`})
			}
			model := testutil.NewModelServer(t, calls(specs...), answer("done"))
			c := startChat(t, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")}, autoApprove("mem.*"), func(cfg *config.Config) {
				if readOnly {
					cfg.MCP.Servers = map[string]config.Server{"mem": {ReadOnly: config.ReadOnly{Tools: []string{"slow"}}}}
				}
			})
			c.send("go")
			expect[*conversation.RunFinished](c)
			var order []string
			for _, e := range c.seen {
				switch e := e.(type) {
				case *conversation.ToolCallStarted:
					order = append(order, "start")
					if e.Parallel != readOnly {
						t.Errorf("ToolCallStarted.Parallel = %v", e.Parallel)
					}
				case *conversation.ToolCallFinished:
					order = append(order, "end")
				}
			}
			want := "start,end,start,end,start,end,start,end"
			if readOnly {
				want = "start,start,start,start,end,end,end,end"
			}
			if got := strings.Join(order, ","); got != want {
				t.Errorf("events %s, want %s", got, want)
			}
			// Results go back in the model's order whatever the finishing order.
			msgs, _ := c.request(1)
			var ids []string
			for _, m := range msgs {
				if m["role"] == "tool" {
					ids = append(ids, m["tool_call_id"].(string))
				}
			}
			if strings.Join(ids, ",") != "c0,c1,c2,c3" {
				t.Errorf("tool results in order %v", ids)
			}
		})
	}
}

func TestDepthLimit(t *testing.T) {
	loop := calls(testutil.ToolCallSpec{ID: "x", Name: "mem__echo", Arguments: `{"text":"again"}`})
	model := testutil.NewModelServer(t, loop, loop, loop, loop)
	c := startChat(t, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")}, autoApprove("mem.*"), func(cfg *config.Config) {
		cfg.MCP.MaxToolDepth = 2
	})
	c.send("loop")
	n := expect[*conversation.Notice](c)
	if !strings.Contains(n.Text, "tool-call depth limit reached") {
		t.Errorf("Notice = %q", n.Text)
	}
	fin := expect[*conversation.RunFinished](c)
	if fin.Requests != 3 || fin.Err != nil {
		t.Errorf("RunFinished = %+v, want 3 requests (2 tool rounds)", fin)
	}
	// The next run starts from a well-formed history.
	model.Add(answer("fine"))
	c.send("next")
	expect[*conversation.RunFinished](c)
	msgs, _ := c.request(3)
	for i, m := range msgs {
		if m["role"] == "assistant" && m["tool_calls"] != nil {
			if i+1 >= len(msgs) || msgs[i+1]["role"] != "tool" {
				t.Errorf("assistant tool call at %d not followed by its result: %v", i, msgs)
			}
		}
	}
}

func TestStopDuringStream(t *testing.T) {
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("late"), Delay: time.Minute}, answer("after"))
	c := startChat(t, model, nil)
	c.send("slow")
	expect[*conversation.RunStarted](c)
	testutil.Receive(t, model.Arrived(), wait, "the request")
	c.sys.Root.Send(c.conv, &conversation.StopRun{})
	fin := expect[*conversation.RunFinished](c)
	if !fin.Stopped {
		t.Errorf("RunFinished = %+v, want Stopped", fin)
	}
	c.send("again")
	if fin := expect[*conversation.RunFinished](c); fin.Text != "after" {
		t.Errorf("the next run: %+v", fin)
	}
}

func TestStopDuringToolCall(t *testing.T) {
	model := testutil.NewModelServer(t,
		calls(testutil.ToolCallSpec{ID: "s", Name: "mem__slow", Arguments: `{"ms":600000}`}),
		answer("next answer"))
	c := startChat(t, model, map[string]*sdk.Server{"mem": testutil.NewServer("mem")}, autoApprove("mem.*"))
	c.send("slow tool")
	expect[*conversation.ToolCallStarted](c)
	c.sys.Root.Send(c.conv, &conversation.StopRun{})
	f := expect[*conversation.ToolCallFinished](c)
	if !strings.Contains(f.Output, "Cancelled") || !f.Cancelled {
		t.Errorf("ToolCallFinished = %+v, want it cancelled (for the tool's view: tool-cancelled)", f)
	}
	if fin := expect[*conversation.RunFinished](c); !fin.Stopped {
		t.Errorf("RunFinished = %+v", fin)
	}
	c.send("and now?")
	expect[*conversation.RunFinished](c)
	msgs, _ := c.request(1)
	if len(msgs) != 5 || msgs[3]["role"] != "tool" || !strings.Contains(msgs[3]["content"].(string), "Cancelled") || msgs[4]["content"] != "and now?" {
		t.Errorf("messages after a stop = %v", msgs)
	}
}

func TestQueue(t *testing.T) {
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("one"), Delay: 100 * time.Millisecond}, answer("two"))
	c := startChat(t, model, nil)
	c.send("first")
	c.send("second")
	if q := expect[*conversation.RunQueued](c); q.Text != "second" || q.Position != 1 {
		t.Errorf("RunQueued = %+v", q)
	}
	if f := expect[*conversation.RunFinished](c); f.Text != "one" {
		t.Errorf("first run = %+v", f)
	}
	if s := expect[*conversation.RunStarted](c); s.Text != "second" {
		t.Errorf("second run = %+v", s)
	}
	if f := expect[*conversation.RunFinished](c); f.Text != "two" {
		t.Errorf("second run = %+v", f)
	}
}

func TestModelErrors(t *testing.T) {
	t.Run("401", func(t *testing.T) {
		model := testutil.NewModelServer(t, testutil.ModelResponse{Status: 401, Body: `{"error":{"message":"Incorrect API key provided"}}`})
		c := startChat(t, model, nil)
		c.send("hi")
		fin := expect[*conversation.RunFinished](c)
		var he *llm.HTTPError
		if !errors.As(fin.Err, &he) || he.Status != 401 || !strings.Contains(fin.Err.Error(), "Incorrect API key provided") {
			t.Errorf("RunFinished.Err = %v", fin.Err)
		}
	})
	t.Run("429 then success", func(t *testing.T) {
		model := testutil.NewModelServer(t,
			testutil.ModelResponse{Status: 429, Header: map[string]string{"Retry-After": "0.05"}, Body: `{"error":{"message":"Rate limit reached"}}`},
			answer("finally"))
		c := startChat(t, model, nil)
		c.send("hi")
		if n := expect[*conversation.Notice](c); !strings.Contains(n.Text, "429") || !strings.Contains(n.Text, "trying again in") {
			t.Errorf("Notice = %q", n.Text)
		}
		if fin := expect[*conversation.RunFinished](c); fin.Err != nil || fin.Text != "finally" || fin.Requests != 1 {
			t.Errorf("RunFinished = %+v", fin)
		}
	})
	// Each retry's notice (which replaces the one before in the window)
	// says its own try and the time it goes: the same "trying again in
	// 20s" twice read as frozen (new-user pass 13, F5).
	t.Run("429 twice: each notice says its try", func(t *testing.T) {
		busy := testutil.ModelResponse{Status: 429, Header: map[string]string{"Retry-After": "0.05"}, Body: `{"error":{"message":"Rate limit reached"}}`}
		model := testutil.NewModelServer(t, busy, busy, answer("finally"))
		c := startChat(t, model, nil)
		c.send("hi")
		var texts []string
		for _, want := range []string{"(try 2 of 3, at ", "(try 3 of 3, at "} {
			n := expect[*conversation.Notice](c)
			texts = append(texts, n.Text)
			if !n.Retry || !strings.Contains(n.Text, "429") || !strings.Contains(n.Text, want) {
				t.Errorf("Notice = %q, want %q in it", n.Text, want)
			}
		}
		if texts[0] == texts[1] {
			t.Errorf("the two retries said the same: %q", texts[0])
		}
		if fin := expect[*conversation.RunFinished](c); fin.Err != nil || fin.Text != "finally" {
			t.Errorf("RunFinished = %+v", fin)
		}
	})
	t.Run("cut connection keeps the text", func(t *testing.T) {
		model := testutil.NewModelServer(t, testutil.ModelResponse{Cut: true, Body: "data: {\"choices\":[{\"delta\":{\"content\":\"partial answ\"}}]}\n\n"}, answer("whole"))
		c := startChat(t, model, nil)
		c.send("hi")
		msg := expect[*conversation.AssistantMessage](c)
		fin := expect[*conversation.RunFinished](c)
		if !msg.Incomplete || msg.Text != "partial answ" || fin.Err == nil {
			t.Errorf("AssistantMessage = %+v, RunFinished = %+v", msg, fin)
		}
		c.send("again")
		expect[*conversation.RunFinished](c)
		msgs, _ := c.request(1)
		if msgs[2]["role"] != "assistant" || msgs[2]["content"] != "partial answ" {
			t.Errorf("the partial answer is not in the history: %v", msgs)
		}
	})
	t.Run("connection closed before answering is retried", func(t *testing.T) {
		model := testutil.NewModelServer(t, testutil.ModelResponse{Hangup: true}, testutil.ModelResponse{Hangup: true}, answer("at last"))
		c := startChat(t, model, nil)
		c.send("hi")
		for range 2 {
			if n := expect[*conversation.Notice](c); !strings.Contains(n.Text, "the model server closed the connection") || !strings.Contains(n.Text, "trying again in") {
				t.Errorf("Notice = %q", n.Text)
			}
		}
		if fin := expect[*conversation.RunFinished](c); fin.Err != nil || fin.Text != "at last" || model.Count() != 3 {
			t.Errorf("RunFinished = %+v after %d requests", fin, model.Count())
		}
	})
	t.Run("connection closed on every try", func(t *testing.T) {
		model := testutil.NewModelServer(t, testutil.ModelResponse{Hangup: true}, testutil.ModelResponse{Hangup: true})
		c := startChat(t, model, nil, func(cfg *config.Config) { one := 1; cfg.Model.MaxRetries = &one })
		c.send("hi")
		fin := expect[*conversation.RunFinished](c)
		if !errors.Is(fin.Err, llm.ErrClosed) || !strings.Contains(fin.Err.Error(), "the model server closed the connection") || model.Count() != 2 {
			t.Errorf("RunFinished.Err = %v after %d requests, want ErrClosed after 2", fin.Err, model.Count())
		}
	})
	t.Run("stream cut mid-event keeps the text", func(t *testing.T) {
		body := "data: {\"choices\":[{\"delta\":{\"content\":\"half \"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"con"
		model := testutil.NewModelServer(t, testutil.ModelResponse{Cut: true, Body: body})
		c := startChat(t, model, nil)
		c.send("hi")
		msg := expect[*conversation.AssistantMessage](c)
		fin := expect[*conversation.RunFinished](c)
		if !msg.Incomplete || msg.Text != "half " {
			t.Errorf("AssistantMessage = %+v, want the partial text kept", msg)
		}
		if !errors.Is(fin.Err, llm.ErrDropped) || strings.Contains(fin.Err.Error(), "malformed") || model.Count() != 1 {
			t.Errorf("RunFinished.Err = %v after %d requests, want ErrDropped, not retried", fin.Err, model.Count())
		}
	})
	t.Run("no model configured", func(t *testing.T) {
		model := testutil.NewModelServer(t)
		c := startChat(t, model, nil, func(cfg *config.Config) { cfg.Model = config.Model{} })
		c.send("hi")
		if fin := expect[*conversation.RunFinished](c); !errors.Is(fin.Err, conversation.ErrNoModel) {
			t.Errorf("RunFinished.Err = %v", fin.Err)
		}
	})
}

func TestCommandLines(t *testing.T) {
	model := testutil.NewModelServer(t, answer("Let me look.\nCMD: echo hello from the shell\n```\nCMD: rm -rf / (an example, not run)\n```"), answer("It printed hello."))
	c := startChat(t, model, nil, allowExec)
	c.send("run something")
	req := expect[*conversation.ApprovalRequested](c)
	if req.Request.Display != "local.exec" || string(req.Request.Arguments) != `{"command":"echo hello from the shell"}` {
		t.Errorf("ApprovalRequested = %+v", req.Request)
	}
	c.answer(req, approval.AllowOnce)
	f := expect[*conversation.ToolCallFinished](c)
	if !strings.Contains(f.Output, "$ echo hello from the shell\nhello from the shell\n[exit status 0") {
		t.Errorf("ToolCallFinished = %q", f.Output)
	}
	if fin := expect[*conversation.RunFinished](c); fin.Text != "It printed hello." {
		t.Errorf("RunFinished = %+v", fin)
	}
	msgs, _ := c.request(1)
	last := msgs[len(msgs)-1]
	if last["role"] != "user" || !strings.Contains(last["content"].(string), "hello from the shell") {
		t.Errorf("the command's output did not reach the model: %v", last)
	}
	for _, e := range c.seen {
		if r, ok := e.(*conversation.ApprovalRequested); ok && strings.Contains(string(r.Request.Arguments), "rm -rf") {
			t.Errorf("a CMD: line inside a code block was offered")
		}
	}
}

// A server that reports no usage gets an estimate, marked as such, and the
// run's cost follows the configured price.
func TestEstimatedUsage(t *testing.T) {
	body := "data: {\"choices\":[{\"delta\":{\"content\":\"no usage from me\"}}]}\n\ndata: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: body}, answer("with usage"))
	c := startChat(t, model, nil, func(cfg *config.Config) {
		cfg.Model.Prices = map[string]config.Price{"scripted": {InputPerMTok: 1000, OutputPerMTok: 2000}}
	})
	c.send("hi")
	msg := expect[*conversation.AssistantMessage](c)
	fin := expect[*conversation.RunFinished](c)
	if !msg.Estimated || !fin.Estimated || fin.Usage.PromptTokens < 50 || fin.Usage.CompletionTokens != 4 {
		t.Errorf("AssistantMessage = %+v, RunFinished = %+v; want an estimate", msg, fin)
	}
	if want := float64(fin.Usage.PromptTokens)*1000/1e6 + 4*2000/1e6; fin.CostUSD != want {
		t.Errorf("CostUSD = %v, want %v", fin.CostUSD, want)
	}
	c.send("again")
	if fin := expect[*conversation.RunFinished](c); fin.Estimated || fin.Usage.TotalTokens != 11 {
		t.Errorf("with the server's usage: %+v", fin)
	}
}

func allowExec(cfg *config.Config) { cfg.Policy.AllowExec = true }

// A conversation watched twice by the same actor (a window's bridge that
// watches again) delivers each event once.
func TestConversationWatchedTwiceDeliversOnce(t *testing.T) {
	c := startChat(t, testutil.NewModelServer(t, answer("hi")), nil)
	c.sys.Root.Send(c.conv, &conversation.WatchConversation{PID: c.watcher})
	c.send("hello")
	expect[*conversation.RunFinished](c)
	// A second run's events mark the end of what the first could have
	// delivered twice.
	c.model.Add(answer("again"))
	c.send("more")
	for {
		switch m := (<-c.events).(type) {
		case *conversation.RunFinished:
			if m.Text == "hi" {
				t.Fatal("the first run finished twice: the watcher was added again")
			}
			return
		}
	}
}
