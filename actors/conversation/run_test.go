package conversation

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation/conversationtest"
	"deckhand/actors/servers"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/policy"
	"deckhand/request"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// loopCase is one run of the loop: the calls the model asks for in its
// first answer, how the person answers each question, and what the run's
// events say, in order.
type loopCase struct {
	name  string
	rules map[string]bool // auto_approve
	calls []llm.ToolCall
	// answer answers the question about call (approval.Deny when absent
	// from the map and answers is set; no answer at all when answers is
	// nil: the timeout decides).
	answers map[string]approval.Answer
	// stopAt cancels the run at an event: "asked" (mid-approval), "called"
	// (mid-call).
	stopAt string
	// depth is the depth limit (0: the default).
	depth int
	want  []string
}

func call(id, tool string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: tool, Arguments: `{"text":"hi"}`}
}

// TestRunLoopDecisions drives one run's goroutine (run.loop) with a
// scripted model, a stand-in for the router and a scripted person, inside
// a synctest bubble so that the approval timeout passes at once, and
// compares the events it emits.
func TestRunLoopDecisions(t *testing.T) {
	for _, tc := range []loopCase{
		{
			name:  "a rule allows: no question, the call runs",
			rules: map[string]bool{"fs.write": true},
			calls: []llm.ToolCall{call("c1", "fs__write")},
			want: []string{
				"requested c1 fs.write",
				"decided c1 allowed rule (auto_approve fs.write)",
				"started c1",
				"finished c1: wrote hi",
				"run finished",
			},
		},
		{
			name:    "asked and allowed once",
			calls:   []llm.ToolCall{call("c1", "fs__write")},
			answers: map[string]approval.Answer{"c1": approval.AllowOnce},
			want: []string{
				"requested c1 fs.write",
				"asked c1",
				"decided c1 allowed once (the person)",
				"closed allow once (answered)",
				"started c1",
				"finished c1: wrote hi",
				"run finished",
			},
		},
		{
			name:    "asked and denied: the call never runs",
			calls:   []llm.ToolCall{call("c1", "fs__write")},
			answers: map[string]approval.Answer{"c1": approval.Deny},
			want: []string{
				"requested c1 fs.write",
				"asked c1",
				"decided c1 denied  (the person)",
				"closed deny (answered)",
				"finished c1 denied: " + "The user denied this tool call; it was not run.",
				"run finished",
			},
		},
		{
			name:  "no answer: the timeout denies",
			calls: []llm.ToolCall{call("c1", "fs__write")},
			want: []string{
				"requested c1 fs.write",
				"asked c1",
				"decided c1 denied  (no answer within 2m0s)",
				"closed deny (no answer within 2m0s)",
				"finished c1 denied: " + "Denied (no answer within 2m0s); the call was not run.",
				"run finished",
			},
		},
		{
			name:    "allowed for the session: the next call of the tool in the turn is not asked",
			calls:   []llm.ToolCall{call("c1", "fs__write"), call("c2", "fs__write")},
			answers: map[string]approval.Answer{"c1": approval.AllowSession},
			want: []string{
				"requested c1 fs.write",
				"requested c2 fs.write",
				"asked c1",
				"decided c1 allowed session (the person)",
				"closed allow for this session (answered)",
				"started c1",
				"finished c1: wrote hi",
				"decided c2 allowed grant (allowed for this session)",
				"started c2",
				"finished c2: wrote hi",
				"run finished",
			},
		},
		{
			name:  "read-only calls run together",
			rules: map[string]bool{"fs.*": true},
			calls: []llm.ToolCall{call("r1", "fs__read"), call("r2", "fs__read"), call("c3", "fs__write")},
			want: []string{
				"requested r1 fs.read",
				"requested r2 fs.read",
				"requested c3 fs.write",
				"decided r1 allowed rule (auto_approve fs.*)",
				"decided r2 allowed rule (auto_approve fs.*)",
				"started r1 parallel",
				"started r2 parallel",
				"finished r1: read hi together",
				"finished r2: read hi together",
				"decided c3 allowed rule (auto_approve fs.*)",
				"started c3",
				"finished c3: wrote hi",
				"run finished",
			},
		},
		{
			name:  "an unknown tool never reaches the gate",
			calls: []llm.ToolCall{call("c1", "fs__nope"), call("c2", "fs__write")},
			rules: map[string]bool{"fs.write": true},
			want: []string{
				"requested c1 fs__nope",
				"requested c2 fs.write",
				"finished c1 refused error: …",
				"decided c2 allowed rule (auto_approve fs.write)",
				"started c2",
				"finished c2: wrote hi",
				"run finished",
			},
		},
		{
			name:   "Stop mid-approval closes the question and cancels the calls",
			calls:  []llm.ToolCall{call("c1", "fs__write"), call("c2", "fs__write")},
			stopAt: "asked",
			want: []string{
				"requested c1 fs.write",
				"requested c2 fs.write",
				"asked c1",
				"closed deny (the run was stopped)",
				"finished c1 error: " + "Cancelled: the user stopped the run before this call finished.",
				"finished c2 error: " + "Cancelled: the user stopped the run before this call finished.",
				"run finished stopped",
			},
		},
		{
			name:   "Stop mid-call cancels it",
			rules:  map[string]bool{"fs.write": true},
			calls:  []llm.ToolCall{call("c1", "fs__write")},
			stopAt: "called",
			want: []string{
				"requested c1 fs.write",
				"decided c1 allowed rule (auto_approve fs.write)",
				"started c1",
				"finished c1 error: " + "Cancelled: the user stopped the run before this call finished.",
				"run finished stopped",
			},
		},
		{
			name:  "the depth limit answers the calls without running them",
			rules: map[string]bool{"fs.write": true},
			calls: []llm.ToolCall{call("c1", "fs__write")},
			depth: -1, // reached at once
			want: []string{
				"requested c1 fs.write",
				"finished c1 refused error: …",
				"notice",
				"run finished",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				got := runLoop(t, tc)
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// runLoop runs tc's run to its end and returns its events, summed up.
func runLoop(t *testing.T, tc loopCase) []string {
	cfg := &config.Config{Model: config.Model{BaseURL: "http://127.0.0.1:9/v1", Name: "m"}}
	cfg.MCP.AutoApprove = tc.rules
	cfg.ApplyDefaults()
	if tc.depth < 0 {
		cfg.MCP.MaxToolDepth = 0
	}
	str := map[string]any{"type": "string"}
	schema := map[string]any{"type": "object", "properties": map[string]any{"text": str}}
	cat := tools.NewCatalog(map[string]tools.Source{"fs": {
		Tools:    []*sdk.Tool{{Name: "write", InputSchema: schema}, {Name: "read", InputSchema: schema}},
		ReadOnly: func(name string) bool { return name == "read" },
	}})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	w := conversationtest.New()
	// The person: answers each question as the case says (or never).
	send := func(_ *actor.PID, m any) {
		w.Put(m)
		if q, ok := m.(*ApprovalRequested); ok {
			switch {
			case tc.stopAt == "asked":
				cancel()
			case tc.answers != nil:
				if err := q.Reply(tc.answers[q.Request.ID], approval.Answered); err != nil {
					t.Errorf("answering %s: %v", q.Request.ID, err)
				}
			}
		}
	}
	// The model: the case's calls, then a last answer.
	turns := []llm.Turn{{ToolCalls: tc.calls}, {Text: "done"}}
	stream := func(ctx context.Context, _ *view, _ string, _ *llm.Request, _ <-chan int, report func(any)) (llm.Turn, error) {
		turn := turns[0]
		turns = turns[1:]
		report(&streamText{text: turn.Text})
		return turn, nil
	}
	// The servers: a write answers at once; reads wait for each other (a
	// read that ran alone would say so), a fake moment apart.
	var reads atomic.Int32
	both := make(chan struct{})
	dispatch := func(ctx context.Context, m *servers.CallTool, _ func(*servers.ToolProgress)) (*servers.ToolResult, error) {
		if tc.stopAt == "called" {
			cancel()
			<-ctx.Done()
			return nil, ctx.Err()
		}
		text := "wrote hi"
		if m.Tool == "fs.read" {
			text = "read hi alone"
			if reads.Add(1) == 2 {
				close(both)
			}
			select {
			case <-both:
				text = "read hi together"
			case <-time.After(time.Second):
			}
			if strings.HasSuffix(m.ID, "r2") {
				time.Sleep(time.Millisecond) // r1 answers first
			}
		}
		return &servers.ToolResult{ID: m.ID, Tool: m.Tool, Result: &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}}, nil
	}
	v := &view{cfg: cfg, pol: policy.New(cfg, func(string) (string, bool) { return "", false }), catalog: cat,
		surface: request.Plan(cat, cfg), watchers: []*actor.PID{{Id: "watcher"}}}
	var shared atomic.Pointer[view]
	shared.Store(v)
	r := &run{
		id: "run-1", conv: "conv-1", model: "m", log: slog.New(slog.DiscardHandler),
		deps: convDeps{cfg: cfg, validator: tools.NewValidator(16), always: &approval.Always{}, stream: stream, call: dispatch},
		view: &shared, send: send,
		history: []llm.Message{{Role: llm.RoleUser, Content: "go"}}, grants: approval.Grants{}, loaded: request.NewLoaded(),
	}
	end := r.loop(ctx)
	if end.failed != nil {
		t.Fatalf("the run failed: %v", end.failed)
	}
	// Every call has its tool message, so that the next request is well
	// formed.
	for _, c := range tc.calls {
		if !hasResult(end.history, c.ID) {
			t.Errorf("no tool message for %s in the history", c.ID)
		}
	}
	var got []string
	for _, m := range w.Drain() {
		if s := summary(m); s != "" {
			got = append(got, s)
		}
	}
	return got
}

func hasResult(history []llm.Message, id string) bool {
	for _, m := range history {
		if m.Role == llm.RoleTool && m.ToolCallID == id {
			return true
		}
	}
	return false
}

// summary is one line per event the loop's decisions show in.
func summary(m any) string {
	flags := func(pairs ...any) string {
		var b strings.Builder
		for i := 0; i < len(pairs); i += 2 {
			if pairs[i+1].(bool) {
				b.WriteString(" " + pairs[i].(string))
			}
		}
		return b.String()
	}
	switch m := m.(type) {
	case *ToolCallRequested:
		return fmt.Sprintf("requested %s %s", m.Call, m.Tool)
	case *ApprovalRequested:
		return "asked " + m.Request.ID
	case *ApprovalDecided:
		verdict := "denied"
		if m.Allowed {
			verdict = "allowed"
		}
		return fmt.Sprintf("decided %s %s %s (%s)", m.Call, verdict, m.Scope, m.By)
	case *ApprovalClosed:
		return fmt.Sprintf("closed %s (%s)", m.Answer, m.Reason)
	case *ToolCallStarted:
		return "started " + m.Call + flags("parallel", m.Parallel)
	case *ToolCallFinished:
		out := m.Output
		if m.Refused {
			out = "…" // the refusal's words are toolcall's
		}
		return fmt.Sprintf("finished %s%s: %s", m.Call, flags("refused", m.Refused, "denied", m.Denied, "error", m.IsError), out)
	case *Notice:
		return "notice"
	case *RunFinished:
		s := "run finished" + flags("stopped", m.Stopped)
		if m.Err != nil {
			s += " err " + m.Err.Error()
		}
		return s
	}
	return ""
}
