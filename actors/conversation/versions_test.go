package conversation

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"deckhand/config"
	"deckhand/store"
	"deckhand/transport/llm"
)

// said is a history's messages, role and text.
func said(h []llm.Message) string {
	var out []string
	for _, m := range h {
		out = append(out, string(m.Role)+":"+m.Content)
	}
	return strings.Join(out, " ")
}

// A conversation reopened from a log with two versions of a message sends
// the model the version shown; choosing the other puts that version and
// the runs that followed it in the history, and back again.
func TestChooseVersionOfResumed(t *testing.T) {
	var events []store.Event
	t0 := time.UnixMilli(1_700_000_000_000)
	for i, e := range [][3]string{
		{"r1", store.KindRunStarted, `{"text":"q1","parent":""}`},
		{"r1", store.KindAssistantMessage, `{"text":"a1"}`},
		{"r2", store.KindRunStarted, `{"text":"q2","parent":"r1"}`},
		{"r2", store.KindAssistantMessage, `{"text":"a2"}`},
		{"r3", store.KindRunStarted, `{"text":"q3","parent":"r2"}`},
		{"r3", store.KindAssistantMessage, `{"text":"a3"}`},
		{"r4", store.KindRunStarted, `{"text":"q2 edited","parent":"r1"}`},
		{"r4", store.KindAssistantMessage, `{"text":"a4"}`},
	} {
		events = append(events, store.Event{RunID: e[0], Kind: e[1], Data: json.RawMessage(e[2]), Time: t0.Add(time.Duration(i))})
	}
	opts := Rebuild(events)
	a := newConversation(opts, convDeps{log: slog.New(slog.DiscardHandler), cfg: &config.Config{}})
	steps := []struct {
		choose, want string
	}{
		{"", "user:q1 assistant:a1 user:q2 edited assistant:a4"},
		{"r2", "user:q1 assistant:a1 user:q2 assistant:a2 user:q3 assistant:a3"},
		{"r4", "user:q1 assistant:a1 user:q2 edited assistant:a4"},
	}
	for _, s := range steps {
		if s.choose != "" {
			a.chooseVersion(nil, s.choose) // no watchers: nothing is sent
		}
		if got := said(a.history); got != s.want {
			t.Errorf("after choosing %q the model sees %q, want %q", s.choose, got, s.want)
		}
		if n := len(a.marks); n == 0 || a.marks[n-1].At >= len(a.history) {
			t.Errorf("after choosing %q the marks are %+v", s.choose, a.marks)
		}
	}
}
