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

// An answer stopped and continued (Continue) tells the speed of its
// continuation: its tokens over the time from its own first text to its
// end, live and reopened from the log. (New-user pass 8: a continued
// answer that streamed for seconds showed no speed.)
func TestInfoOfAContinuedAnswer(t *testing.T) {
	t0 := time.UnixMilli(1_700_000_000_000)
	live := New()
	live.StartRun("r1")
	live.User("q", t0)
	live.Delta("Once upon a time", t0.Add(time.Second))
	live.Delta(" there was", t0.Add(2*time.Second))
	live.Assistant("Once upon a time there was", t0.Add(2*time.Second)) // what was said when stopped
	live.Continue("r2")
	t1 := t0.Add(time.Minute)
	live.Delta(" a fox", t1)
	live.Delta(" in a wood.", t1.Add(time.Second))
	live.Assistant(" a fox in a wood.", t1.Add(2*time.Second))
	live.SetInfo("m1", 10, 20, false, time.Time{}, t1.Add(2*time.Second))

	events := []store.Event{
		{RunID: "r1", Kind: store.KindRunStarted, Data: json.RawMessage(`{"text":"q","parent":"","model":"m1"}`), Time: t0},
		{RunID: "r1", Kind: store.KindAssistantDelta, Data: json.RawMessage(`{"text":"Once upon a time there was"}`), Time: t0.Add(time.Second)},
		{RunID: "r1", Kind: store.KindAssistantMessage, Data: json.RawMessage(`{"text":"Once upon a time there was","incomplete":true}`), Time: t0.Add(2 * time.Second)},
		{RunID: "r1", Kind: store.KindRunStopped, Data: json.RawMessage(`{}`), Time: t0.Add(2 * time.Second)},
		{RunID: "r2", Kind: store.KindRunStarted, Data: json.RawMessage(`{"text":"","parent":"r1","continues":"r1","model":"m1"}`), Time: t1},
		{RunID: "r2", Kind: store.KindAssistantDelta, Data: json.RawMessage(`{"text":" a fox"}`), Time: t1},
		{RunID: "r2", Kind: store.KindAssistantMessage, Data: json.RawMessage(`{"text":" a fox in a wood.","usage":{"input_tokens":10,"output_tokens":20}}`), Time: t1.Add(2 * time.Second)},
		{RunID: "r2", Kind: store.KindRunSucceeded, Data: json.RawMessage(`{}`), Time: t1.Add(2 * time.Second)},
	}
	for name, tr := range map[string]*Transcript{"live": live, "reopened": FromEvents(events)} {
		var infos []string
		for i := range tr.Len() {
			if r := tr.Row(i); r.Kind == Header && r.Role == "assistant" {
				infos = append(infos, r.Info)
			}
		}
		if want := "m1 · 10 in, 20 out tokens · 10.0 tokens/s"; len(infos) != 1 || infos[0] != want {
			t.Errorf("%s: the answers' Info = %q, want one, %q", name, infos, want)
		}
	}
}

// An answer's info says its speed whenever it streamed: tokens per second
// over a stream long enough to measure, else that it came all at once.
func TestAnswerInfoSpeed(t *testing.T) {
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		out      int
		from, to time.Time
		want     string
	}{
		{"streamed", 40, at, at.Add(2 * time.Second), "gpt-4o · 351 in, 40 out tokens · 20.0 tokens/s"},
		{"in one burst", 6, at, at.Add(20 * time.Millisecond), "gpt-4o · 351 in, 6 out tokens · all at once"},
		{"not streamed", 6, time.Time{}, at, "gpt-4o · 351 in, 6 out tokens"},
		{"no tokens out", 0, at, at.Add(time.Second), "gpt-4o · 351 in, 0 out tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AnswerInfo("gpt-4o", 351, tt.out, false, tt.from, tt.to); got != tt.want {
				t.Errorf("AnswerInfo() = %q, want %q", got, tt.want)
			}
		})
	}
}
