package conversation

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"deckhand/request"
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
