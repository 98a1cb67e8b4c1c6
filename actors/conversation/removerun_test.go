package conversation

import (
	"log/slog"
	"strings"
	"testing"

	"deckhand/config"
	"deckhand/transport/llm"
)

// A run of a conversation resumed from the log can still be taken out: its
// messages leave the history and the marks of the runs after it move up.
func TestRemoveRunFromResumedHistory(t *testing.T) {
	opts := ConversationOptions{
		ID:      "conv-x",
		Resumed: true,
		History: []llm.Message{
			{Role: llm.RoleUser, Content: "q2"}, {Role: llm.RoleAssistant, Content: "a2 again"},
			{Role: llm.RoleUser, Content: "q3"}, {Role: llm.RoleAssistant, Content: "a3"},
		},
		Runs: []RunMark{{Run: "run-2", Text: "q2", At: 0}, {Run: "run-3", Text: "q3", At: 2}},
	}
	resumed := newConversation(opts, convDeps{log: slog.New(slog.DiscardHandler), cfg: &config.Config{}})
	resumed.removeRun(nil, opts.Runs[0].Run) // no watchers: nothing is sent
	var us []string
	for _, m := range resumed.history {
		if m.Role == "user" {
			us = append(us, m.Content)
		}
	}
	if strings.Join(us, "|") != "q3" || resumed.marks[0].At != 0 {
		t.Errorf("after removing q2 from the resumed history: %q, marks %+v", us, resumed.marks)
	}
}
