package conversation

import (
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"deckhand/config"
	"deckhand/policy"
	"deckhand/request"
	"deckhand/tools"
	"deckhand/transport/llm"
)

// The summary stands in for the turns before its run while that run is
// on the conversation's path; another version of an earlier message shown
// (its run gone from the marks) gets the whole history.
func TestModelView(t *testing.T) {
	u := func(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }
	a := func(s string) llm.Message { return llm.Message{Role: llm.RoleAssistant, Content: s} }
	history := []llm.Message{u("q1"), a("a1"), u("q2"), a("a2"), u("q3")}
	marks := []RunMark{{Run: "r1", At: 0}, {Run: "r2", At: 2}, {Run: "r3", At: 4}}
	sum := &request.Summary{Text: "they asked q1", From: "r2"}
	tests := []struct {
		name    string
		summary *request.Summary
		marks   []RunMark
		want    []string
		at      int
	}{
		{"no summary: the history", nil, marks, []string{"q1", "a1", "q2", "a2", "q3"}, 0},
		{"the summary, then the turns from its run", sum, marks, []string{request.SummaryHeading, "q2", "a2", "q3"}, 2},
		{"its run not on the path: the history", sum, []RunMark{{Run: "r1", At: 0}, {Run: "r2b", At: 2}, {Run: "r3", At: 4}}, []string{"q1", "a1", "q2", "a2", "q3"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{history: history, marks: tt.marks, summary: tt.summary}
			view, at := r.modelView()
			var got []string
			for _, m := range view {
				s := m.Content
				if m.Role == llm.RoleSystem {
					s = s[:len(request.SummaryHeading)]
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || at != tt.at {
				t.Errorf("modelView() at %d, want %d (-want +got):\n%s", at, tt.at, diff)
			}
		})
	}
}

// A Continue is part of the turn it continues (as the log reads it back):
// a summary never begins with one, so that a reopened conversation finds
// the run it begins with.
func TestTurnMarks(t *testing.T) {
	marks := []RunMark{{Run: "r1", At: 0}, {Run: "r2", At: 2}, {Run: "c2", At: 4}, {Run: "r3", At: 6}}
	got := turnMarks(marks, map[string]bool{"c2": true})
	want := []RunMark{{Run: "r1", At: 0}, {Run: "r2", At: 2}, {Run: "r3", At: 6}}
	if diff := cmp.Diff(want, got); diff != "" || len(marks) != 4 {
		t.Errorf("turnMarks() (-want +got):\n%s", diff)
	}
}

// After a compaction, a current turn that still does not fit loses its
// oldest calls, never the summary or the person's question.
func TestRequestKeepsSummaryAndQuestion(t *testing.T) {
	cfg := &config.Config{Model: config.Model{BaseURL: "http://127.0.0.1:9/v1", Name: "m", MaxContextTokens: 1200, MaxOutputTokens: 100}}
	cfg.ApplyDefaults()
	cat := tools.NewCatalog(nil)
	var shared atomic.Pointer[view]
	shared.Store(&view{cfg: cfg, pol: policy.New(cfg, func(string) (string, bool) { return "", false }), catalog: cat, surface: request.Plan(cat, cfg)})
	big := strings.Repeat("x", 2400) // 600 tokens: one fits
	call := func(id string) []llm.Message {
		return []llm.Message{
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "fs__read", Arguments: "{}"}}},
			{Role: llm.RoleTool, ToolCallID: id, Content: big},
		}
	}
	history := []llm.Message{{Role: llm.RoleUser, Content: "q1"}, {Role: llm.RoleAssistant, Content: "a1"}, {Role: llm.RoleUser, Content: "the question"}}
	history = append(append(append(history, call("c1")...), call("c2")...), call("c3")...)
	r := &run{view: &shared, history: history, loaded: request.NewLoaded(), log: slog.New(slog.DiscardHandler),
		marks: []RunMark{{Run: "r1", At: 0}, {Run: "r2", At: 2}}, summary: &request.Summary{Text: "q1 was asked", From: "r2"}}
	req, _ := r.request(shared.Load())
	var got []string
	for _, m := range req.Messages[1:] {
		switch {
		case m.Role == llm.RoleSystem:
			got = append(got, "summary")
		case m.Role == llm.RoleTool:
			got = append(got, "result "+m.ToolCallID)
		case len(m.ToolCalls) > 0:
			got = append(got, "call "+m.ToolCalls[0].ID)
		default:
			got = append(got, m.Content)
		}
	}
	if diff := cmp.Diff([]string{"summary", "the question", "call c3", "result c3"}, got); diff != "" {
		t.Errorf("request messages (-want +got):\n%s", diff)
	}
}
