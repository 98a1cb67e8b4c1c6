package transcript

import (
	"encoding/json"
	"testing"
	"time"

	"deckhand/store"
)

// Read back after Deckhand stopped mid-call, a call sent whose result never
// came says its outcome is unknown and how long the log saw it running (it
// said "failed after <1 ms"): from its sending to the run's last event,
// not to run.interrupted, written at the next start. A result that came
// later (its task followed) makes it an ordinary card again.
func TestUnknownOutcomeRanAtLeast(t *testing.T) {
	t0 := time.UnixMilli(1_700_000_000_000)
	ev := func(ms int, kind, data string) store.Event {
		return store.Event{RunID: "r1", Kind: kind, Data: json.RawMessage(data), Time: t0.Add(time.Duration(ms) * time.Millisecond)}
	}
	begin := []store.Event{
		ev(0, store.KindRunStarted, `{"text":"ambig quit midway","parent":""}`),
		ev(800, store.KindAssistantMessage, `{"text":"","tool_calls":[{"id":"a","name":"e__research"}]}`),
		ev(900, store.KindApprovalAsked, `{"call":"a","tool":"e.research"}`),
		ev(3000, store.KindToolInvoked, `{"call":"a","tool":"e.research"}`),
		ev(3100, store.KindToolTask, `{"call":"a","tool":"e.research","task":"task-1","status":"working"}`),
		ev(8000, store.KindToolTask, `{"call":"a","tool":"e.research","task":"task-1","status":"input_required"}`),
		ev(120_000, store.KindRunInterrupted, `{}`),
	}
	tests := []struct {
		name string
		more []store.Event
		want string // the card's state, durations as time.Duration says them
	}{
		{name: "interrupted", want: "outcome unknown · ran at least 5s"},
		{name: "its task expired", more: []store.Event{ev(121_000, store.KindToolTask, `{"call":"a","tool":"e.research","task":"task-1","status":"expired"}`)},
			want: "outcome unknown · ran at least 5s"},
		{name: "its task failed later", more: []store.Event{ev(125_000, store.KindToolFailed, `{"call":"a","tool":"e.research","output":"boom","elapsed_ms":2000}`)},
			want: "failed after 2s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := FromEvents(append(append([]store.Event(nil), begin...), tt.more...))
			r, ok := tr.Card("r1", "a")
			if !ok {
				t.Fatal("no card for the call")
			}
			if got := r.FailedState(time.Duration.String); r.State != Failed || got != tt.want {
				t.Errorf("the card is %v, %q; want failed, %q", r.State, got, tt.want)
			}
		})
	}
	if got := (Row{State: Failed, Unknown: true}).FailedState(time.Duration.String); got != "outcome unknown" {
		t.Errorf("no time seen: %q, want no duration", got)
	}
}
