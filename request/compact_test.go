package request

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"deckhand/transport/llm"
)

func TestPlanCompaction(t *testing.T) {
	u := func(n int) llm.Message { return llm.Message{Role: llm.RoleUser, Content: strings.Repeat("x", n)} } // 4 + n/4 tokens
	a := llm.Message{Role: llm.RoleAssistant, Content: "a"}                                                  // 5 tokens
	even := []llm.Message{u(400), a, u(400), a, u(400), a, u(400), a}                                        // four turns of 109 tokens
	tests := []struct {
		name   string
		view   []llm.Message
		turns  []int
		prior  int
		budget int
		want   Compaction
		ok     bool
	}{
		{name: "it fits: nothing to summarise", view: even, turns: []int{0, 2, 4, 6}, budget: 436},
		{name: "one turn too big: nothing to summarise (Fit drops inside it)", view: []llm.Message{u(4000), a}, turns: []int{0}, budget: 100},
		{
			name: "the oldest turns go until the rest fits in half the budget", view: []llm.Message{u(2000), a, u(4), a, u(4), a},
			turns: []int{0, 2, 4}, budget: 500,
			// 509 + 10 + 10 tokens; a summary of 125 and the two small turns are within 250.
			want: Compaction{Turns: 1, At: 2, Before: 529, After: 145}, ok: true,
		},
		{
			name: "never the current turn, even when the rest does not reach half", view: even, turns: []int{0, 2, 4, 6}, budget: 400,
			want: Compaction{Turns: 3, At: 6, Before: 436, After: 209}, ok: true,
		},
		{
			name: "an earlier summary counts, and goes into the new one", view: []llm.Message{u(4), a, u(4), a, u(4), a}, turns: []int{0, 2, 4},
			prior: 100, budget: 120,
			want: Compaction{Turns: 1, At: 2, Before: 130, After: 50}, ok: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := PlanCompaction(tt.view, tt.turns, tt.prior, tt.budget)
			if ok != tt.ok {
				t.Fatalf("PlanCompaction() ok = %v, want %v (%+v)", ok, tt.ok, got)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PlanCompaction() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSummaryRequest(t *testing.T) {
	big := strings.Repeat("é", 3000) // 6,000 bytes
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: "list the files"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "fs__list", Arguments: `{"path":"/w"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", Content: "a.txt\n" + big},
		{Role: llm.RoleAssistant, Content: "There is a.txt."},
	}
	t.Run("tool results are capped, the rest whole", func(t *testing.T) {
		req := SummaryRequest("", msgs, 100000, 300)
		if len(req.Tools) != 0 || req.MaxTokens != 300 || len(req.Messages) != 2 || req.Messages[0].Content != SummaryPrompt {
			t.Fatalf("SummaryRequest() = %d tools, max %d, %d messages; want none, 300, the prompt and the transcript", len(req.Tools), req.MaxTokens, len(req.Messages))
		}
		body := req.Messages[1].Content
		for _, want := range []string{"User: list the files", `[called fs__list with {"path":"/w"}]`, "Tool result: a.txt", "more bytes cut]", "Assistant: There is a.txt."} {
			if !strings.Contains(body, want) {
				t.Errorf("the transcript lacks %q:\n%.300s", want, body)
			}
		}
		if len(body) > ToolResultCap+500 {
			t.Errorf("the transcript is %d bytes: the tool result was not capped at %d", len(body), ToolResultCap)
		}
		if !strings.Contains(body, "é … [") {
			t.Errorf("the cut is not on a character boundary")
		}
	})
	t.Run("the earlier summary first; the oldest messages out when too long", func(t *testing.T) {
		req := SummaryRequest("they asked for the files", msgs, EstimateTokens(SummaryPrompt)+100, 300)
		body := req.Messages[1].Content
		if !strings.HasPrefix(body, "A summary of what came before:\nthey asked for the files") {
			t.Errorf("the transcript does not begin with the earlier summary:\n%.200s", body)
		}
		if !strings.Contains(body, "[the 3 oldest messages are left out") || strings.Contains(body, "list the files") || !strings.Contains(body, "There is a.txt.") {
			t.Errorf("want the 3 oldest messages left out and the last kept:\n%s", body)
		}
	})
}

func TestLoadedUnloadsIdleTools(t *testing.T) {
	// Each step is a model request: the tools unloaded before it is made
	// (after 3 requests without a call), then those its answer loads or
	// calls.
	steps := []struct {
		unloaded []string
		use      []string
	}{
		{use: []string{"fs.read"}},       // 1: tool_search finds fs.read
		{},                               // 2
		{use: []string{"k8s.logs"}},      // 3
		{use: []string{"fs.read"}},       // 4: fs.read called: its count starts again
		{},                               // 5
		{},                               // 6
		{unloaded: []string{"k8s.logs"}}, // 7: offered in 4, 5, 6 and never called
		{unloaded: []string{"fs.read"}},  // 8
		{},                               // 9
	}
	l := NewLoaded()
	for i, s := range steps {
		l.Request()
		got := l.Idle(3)
		if diff := cmp.Diff(s.unloaded, got); diff != "" {
			t.Errorf("request %d: Idle(3) (-want +got):\n%s", i+1, diff)
		}
		for _, n := range s.use {
			l.Use(n)
		}
	}

	never := NewLoaded("fs.read")
	for range 50 {
		never.Request()
		if got := never.Idle(0); got != nil {
			t.Fatalf("Idle(0) = %v, want nothing unloaded ever", got)
		}
	}
	reopened := NewLoaded("fs.read", "a.b")
	reopened.Request()
	if got := reopened.Idle(1); got != nil {
		t.Errorf("a reopened conversation's first request: Idle(1) = %v, want its tools kept", got)
	}
	if got := reopened.Reset(); !cmp.Equal(got, []string{"a.b", "fs.read"}) || len(reopened.Set()) != 0 {
		t.Errorf("Reset() = %v, leaving %v; want every tool, sorted, and none left", got, reopened.Set())
	}
}
