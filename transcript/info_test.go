package transcript

import (
	"encoding/json"
	"testing"
	"time"

	"deckhand/store"
)

// A chat reopened from its log tells, on an answer's header, what it told
// when the answer came: the model, the tokens (marked ~ when Deckhand
// estimated them, the server having sent no usage) and the speed.
func TestInfoFromEvents(t *testing.T) {
	t0 := time.UnixMilli(1_700_000_000_000)
	tests := []struct {
		name   string
		answer string // the assistant.message's data
		want   string
	}{
		{"usage from the server", `{"text":"a","usage":{"input_tokens":10,"output_tokens":20}}`,
			"m1 · 10 in, 20 out tokens · 10.0 tokens/s"},
		{"usage estimated", `{"text":"a","usage":{"input_tokens":506,"output_tokens":4},"estimated":true}`,
			"m1 · ~506 in, ~4 out tokens · 2.0 tokens/s"},
		{"no usage", `{"text":"a"}`, "m1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := []store.Event{
				{RunID: "r1", Kind: store.KindRunStarted, Data: json.RawMessage(`{"text":"q","parent":"","model":"m1"}`), Time: t0},
				{RunID: "r1", Kind: store.KindAssistantDelta, Data: json.RawMessage(`{"text":"a"}`), Time: t0.Add(time.Second)},
				{RunID: "r1", Kind: store.KindAssistantMessage, Data: json.RawMessage(tt.answer), Time: t0.Add(3 * time.Second)},
				{RunID: "r1", Kind: store.KindRunSucceeded, Data: json.RawMessage(`{}`), Time: t0.Add(3 * time.Second)},
			}
			tr := FromEvents(events)
			got := ""
			for i := range tr.Len() {
				if r := tr.Row(i); r.Kind == Header && r.Role == "assistant" {
					got = r.Info
				}
			}
			if got != tt.want {
				t.Errorf("FromEvents: the answer's Info = %q, want %q", got, tt.want)
			}
		})
	}
}
