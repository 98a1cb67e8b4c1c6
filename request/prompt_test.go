package request

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"deckhand/transport/llm"
)

func TestFitContext(t *testing.T) {
	big := strings.Repeat("x", 400) // about 100 tokens
	u := func(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }
	as := func(s string) llm.Message { return llm.Message{Role: llm.RoleAssistant, Content: s} }
	call := func(id string) llm.Message {
		return llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "t", Arguments: big}}}
	}
	res := func(id string) llm.Message { return llm.Message{Role: llm.RoleTool, ToolCallID: id, Content: big} }
	history := []llm.Message{
		u("q1 " + big), as("a1 " + big),
		u("q2"), call("c1"), res("c1"), as("a2"),
		u("q3 " + big), call("c2"), res("c2"), call("c3"), res("c3"), as("a3"),
	}
	tests := []struct {
		name    string
		budget  int
		want    []string // the first 12 characters of each kept message, or its tool call id
		dropped int
	}{
		{"everything fits", 10000, nil, 0},
		{"the oldest turn goes first", 800, []string{"q2", "c1", "c1", "a2", "q3", "c2", "c2", "c3", "c3", "a3"}, 2},
		{"then whole turns", 650, []string{"q3", "c2", "c2", "c3", "c3", "a3"}, 6},
		{"then units inside the current turn, keeping its question", 350, []string{"q3", "c3", "c3", "a3"}, 8},
		{"the question and the latest unit always stay", 10, []string{"q3", "a3"}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, dropped := Fit(history, tt.budget)
			if tt.want == nil {
				if len(kept) != len(history) || dropped != 0 {
					t.Errorf("Fit kept %d of %d", len(kept), len(history))
				}
				return
			}
			var got []string
			for _, m := range kept {
				switch {
				case m.ToolCallID != "":
					got = append(got, m.ToolCallID)
				case len(m.ToolCalls) > 0:
					got = append(got, m.ToolCalls[0].ID)
				default:
					got = append(got, strings.Fields(m.Content)[0])
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || dropped != tt.dropped {
				t.Errorf("Fit(budget %d) dropped %d (want %d); kept (-want +got):\n%s", tt.budget, dropped, tt.dropped, diff)
			}
			// A tool result never loses its call, nor a call its result.
			for i, m := range kept {
				if m.Role == llm.RoleTool && (i == 0 || (kept[i-1].Role != llm.RoleTool && len(kept[i-1].ToolCalls) == 0)) {
					t.Errorf("tool result %s kept without its call", m.ToolCallID)
				}
			}
		})
	}
}

func TestSystemPrompt(t *testing.T) {
	if p := System(true, ""); !strings.Contains(p, "CMD:") || len(p) > 1200 || strings.Contains(p, "tool_search") {
		t.Errorf("System(true) = %d bytes, %q", len(p), p)
	}
	if p := System(false, ""); strings.Contains(p, "CMD:") {
		t.Errorf("System(false) mentions CMD:")
	}
	if p := System(false, "- fs (3 tools): a, b, c"); !strings.Contains(p, "tool_search") || !strings.Contains(p, "- fs (3 tools): a, b, c") {
		t.Errorf("System with a lazy index = %q", p)
	}
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		name      string
		turn      llm.Turn
		estimate  int
		want      llm.Usage
		estimated bool
	}{
		{"the server's figures", llm.Turn{Text: "hi", Usage: &llm.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12}}, 99,
			llm.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12}, false},
		{"estimated from the text", llm.Turn{Text: "12345678"}, 50, llm.Usage{PromptTokens: 50, CompletionTokens: 2, TotalTokens: 52}, true},
		{"estimated with tool calls", llm.Turn{ToolCalls: []llm.ToolCall{{Name: "fs__read", Arguments: `{"path":"/a"}`}}}, 10,
			llm.Usage{PromptTokens: 10, CompletionTokens: 6, TotalTokens: 16}, true},
	} {
		got, estimated := Usage(tc.turn, tc.estimate)
		if got != tc.want || estimated != tc.estimated {
			t.Errorf("%s: Usage() = %+v, %v; want %+v, %v", tc.name, got, estimated, tc.want, tc.estimated)
		}
	}
}
