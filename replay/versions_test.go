package replay

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"deckhand/store"
)

// runEvents builds a log from run, kind, data triples.
func runEvents(triples ...string) []store.Event {
	var out []store.Event
	t0 := time.UnixMilli(1_700_000_000_000)
	for i := 0; i < len(triples); i += 3 {
		out = append(out, store.Event{RunID: triples[i], Kind: triples[i+1], Data: json.RawMessage(triples[i+2]), Time: t0.Add(time.Duration(i) * time.Millisecond)})
	}
	return out
}

// shown is a session's branch: each run's message and answers.
func shown(s Session) string {
	var out []string
	for _, r := range s.Runs {
		line := r.Text + ":"
		for _, st := range r.Steps {
			if st.Answer != nil {
				line += st.Answer.Text
			}
		}
		if len(r.Versions) > 0 {
			line += " " + strings.Join(r.Versions, ",")
		}
		out = append(out, line)
	}
	return strings.Join(out, " | ")
}

// A message's versions are read back from the log: the newest shows unless
// another was chosen, with the runs that followed it; a log written before
// versions (no parent) reads as one run after another, a deleted run left
// out; a Continue extends the answer it continues.
func TestVersionsReadBack(t *testing.T) {
	for _, tc := range []struct {
		name  string
		log   []store.Event
		want  string
		other int
	}{
		{
			name: "an edit is a new version, the newest shown",
			log: runEvents(
				"r1", store.KindRunStarted, `{"text":"q1","parent":""}`,
				"r1", store.KindAssistantMessage, `{"text":"a1"}`,
				"r2", store.KindRunStarted, `{"text":"q2","parent":"r1"}`,
				"r2", store.KindAssistantMessage, `{"text":"a2"}`,
				"r3", store.KindRunStarted, `{"text":"q3","parent":"r2"}`,
				"r3", store.KindAssistantMessage, `{"text":"a3"}`,
				"r4", store.KindRunStarted, `{"text":"q2 edited","parent":"r1"}`,
				"r4", store.KindAssistantMessage, `{"text":"a4"}`,
			),
			want:  "q1:a1 | q2 edited:a4 r2,r4",
			other: 2,
		},
		{
			name: "the first version chosen again, with what followed it",
			log: runEvents(
				"r1", store.KindRunStarted, `{"text":"q1","parent":""}`,
				"r1", store.KindAssistantMessage, `{"text":"a1"}`,
				"r2", store.KindRunStarted, `{"text":"q2","parent":"r1"}`,
				"r2", store.KindAssistantMessage, `{"text":"a2"}`,
				"r3", store.KindRunStarted, `{"text":"q3","parent":"r2"}`,
				"r3", store.KindAssistantMessage, `{"text":"a3"}`,
				"r4", store.KindRunStarted, `{"text":"q2","parent":"r1"}`,
				"r4", store.KindAssistantMessage, `{"text":"a4"}`,
				"r2", store.KindRunChosen, `{}`,
			),
			want:  "q1:a1 | q2:a2 r2,r4 | q3:a3",
			other: 1,
		},
		{
			name: "a log from before versions",
			log: runEvents(
				"r1", store.KindRunStarted, `{"text":"q1"}`,
				"r1", store.KindAssistantMessage, `{"text":"a1"}`,
				"r2", store.KindRunStarted, `{"text":"q2"}`,
				"r2", store.KindAssistantMessage, `{"text":"a2"}`,
				"r2", store.KindRunRemoved, `{"text":"q2"}`,
				"r3", store.KindRunStarted, `{"text":"q3"}`,
				"r3", store.KindAssistantMessage, `{"text":"a3"}`,
			),
			want: "q1:a1 | q3:a3",
		},
		{
			name: "a stopped answer continued",
			log: runEvents(
				"r1", store.KindRunStarted, `{"text":"q1","parent":""}`,
				"r1", store.KindAssistantMessage, `{"text":"word word","incomplete":true}`,
				"r1", store.KindRunStopped, `{}`,
				"r2", store.KindRunStarted, `{"text":"Continue from where you stopped.","parent":"r1","continues":"r1"}`,
				"r2", store.KindAssistantDelta, `{"text":" the rest"}`,
				"r2", store.KindAssistantMessage, `{"text":" the rest"}`,
				"r2", store.KindRunSucceeded, `{}`,
				"r3", store.KindRunStarted, `{"text":"q3","parent":"r2"}`,
				"r3", store.KindAssistantMessage, `{"text":"a3"}`,
			),
			want: "q1:word word the rest | q3:a3",
		},
		{
			name: "a continuation stopped and continued",
			log: runEvents(
				"r1", store.KindRunStarted, `{"text":"q1","parent":""}`,
				"r1", store.KindAssistantMessage, `{"text":"It ends here.","incomplete":true}`,
				"r1", store.KindRunStopped, `{}`,
				"r2", store.KindRunStarted, `{"text":"go on","parent":"r1","continues":"r1"}`,
				"r2", store.KindAssistantMessage, `{"text":"Next the quick bro","incomplete":true}`,
				"r2", store.KindRunStopped, `{}`,
				"r3", store.KindRunStarted, `{"text":"go on","parent":"r2","continues":"r2"}`,
				"r3", store.KindAssistantMessage, `{"text":"wn fox."}`,
				"r3", store.KindRunSucceeded, `{}`,
			),
			want: "q1:It ends here. Next the quick brown fox.",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Read(tc.log)
			if diff := cmp.Diff(tc.want, shown(s)); diff != "" {
				t.Errorf("Read: runs shown (-want +got):\n%s", diff)
			}
			if len(s.Other) != tc.other {
				t.Errorf("Read: %d runs of other versions, want %d", len(s.Other), tc.other)
			}
		})
	}
}

// Deleting a run hands what followed it to the run before.
func TestTreeRemove(t *testing.T) {
	tr := NewTree()
	tr.Add("a", "")
	tr.Add("b", "a")
	tr.Add("c", "b")
	tr.Add("b2", "a") // a version of b
	tr.Choose("b")
	tr.Remove("b")
	if got := strings.Join(tr.Path(), ","); got != "a,c" {
		t.Errorf("Path after removing b = %q, want a,c", got)
	}
}

// Choosing a run shows its branch: the versions it follows are chosen too
// (a search's match may be in a run after an earlier version).
func TestTreeChooseFollowsItsBranch(t *testing.T) {
	tests := []struct {
		name, choose, want string
	}{
		{"the newest by default", "", "a,b2"},
		{"a version", "b", "a,b,c"},
		{"a run after an earlier version", "c", "a,b,c"},
		{"back to the newest", "b2", "a,b2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewTree()
			tr.Add("a", "")
			tr.Add("b", "a")
			tr.Add("c", "b")
			tr.Add("b2", "a") // a version of b, chosen
			if tc.choose != "" {
				tr.Choose(tc.choose)
			}
			if got := strings.Join(tr.Path(), ","); got != tc.want {
				t.Errorf("Path after Choose(%q) = %q, want %s", tc.choose, got, tc.want)
			}
		})
	}
}
