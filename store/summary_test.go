package store

import (
	"encoding/json"
	"testing"
)

// The newer kinds read as sentences in timelines, and say nothing of an
// elicitation's answers beyond the fields' names.
func TestSummaryOfNewKinds(t *testing.T) {
	ev := func(kind string, data map[string]any) Event {
		raw, _ := json.Marshal(data)
		return Event{Kind: kind, Data: raw}
	}
	for _, tc := range []struct {
		e    Event
		want string
	}{
		{ev(KindRunRemoved, map[string]any{"text": "what time is it"}), `"what time is it" taken out of the conversation`},
		{ev(KindElicitationAsked, map[string]any{"server": "ev", "mode": "form", "message": "Your name?", "fields": []string{"name"}}), `ev asks "Your name?" (fields: name)`},
		{ev(KindElicitationAsked, map[string]any{"server": "ev", "mode": "url", "host": "example.com", "message": "Sign the form"}), `ev asks to open a page on example.com: "Sign the form"`},
		{ev(KindElicitationAnswered, map[string]any{"action": "accept", "reason": "answered", "fields": []string{"name"}}), `accept (fields: name)`},
		{ev(KindElicitationAnswered, map[string]any{"action": "decline", "reason": "no answer within 2m0s"}), `decline: no answer within 2m0s`},
		{ev(KindToolTask, map[string]any{"call": "c1", "tool": "ev.simulate-research-query", "task": "t-9", "status": "working"}), `ev.simulate-research-query task t-9: working`},
	} {
		if got := Summary(tc.e); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.e.Kind, got, tc.want)
		}
	}
}

// Counts read in words: one of a thing is singular.
func TestSummaryCounts(t *testing.T) {
	ev := func(kind string, data map[string]any) Event {
		raw, _ := json.Marshal(data)
		return Event{Kind: kind, Data: raw}
	}
	for _, tc := range []struct {
		name string
		e    Event
		want string
	}{
		{"one of each", ev(KindPromptBuilt, map[string]any{"messages": 1, "tools": 1, "estimated_tokens": 10}), "1 message, 1 tool, ~10 tokens"},
		{"two of each", ev(KindPromptBuilt, map[string]any{"messages": 2, "tools": 2, "estimated_tokens": 10}), "2 messages, 2 tools, ~10 tokens"},
		{"one request", ev(KindRunSucceeded, map[string]any{"requests": 1, "input_tokens": 5, "output_tokens": 6}), "1 request, 5 in / 6 out, $0.0000"},
		{"one turn", ev(KindContextCompacted, map[string]any{"turns": 1, "tokens_before": 900, "tokens_after": 100}), "1 turn summarised, 900 tokens to 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Summary(tc.e); got != tc.want {
				t.Errorf("Summary(%s) = %q, want %q", tc.e.Kind, got, tc.want)
			}
		})
	}
}
