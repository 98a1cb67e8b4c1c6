package conversation

import (
	"deckhand/replay"
	"deckhand/request"
	"deckhand/store"
	"deckhand/toolcall"
	"deckhand/transport/llm"
)

// Rebuild reads a session's events back into what its conversation held:
// the messages, in the form they were sent to the model, the tools allowed
// "for this session", and the lazy tools it had loaded. What Deckhand did
// not live to finish is told as it was: an answer cut off mid-stream is
// kept as far as the person saw it, and each call says whether it finished
// (with its result), was sent with its outcome unknown, or was never made.
// The caller sets the options' ID and Watchers.
func Rebuild(events []store.Event) ConversationOptions {
	s := replay.Read(events)
	history, runs := historyOf(s)
	stash := map[string]RunMessages{}
	for _, r := range s.Other {
		h, _ := historyOf(replay.Session{Runs: []replay.Run{r}})
		stash[r.ID] = RunMessages{Text: r.Text, Messages: h}
	}
	opts := ConversationOptions{Resumed: true, History: history, Runs: runs, Grants: s.Grants, Loaded: s.Loaded, Tree: s.Tree, Stash: stash, Tasks: pendingTasks(s)}
	if s.Summary != nil {
		// The summary stands in for the turns before its run, for the
		// model; the window shows them all.
		opts.Summary = &request.Summary{Text: s.Summary.Text, From: s.Summary.From}
	}
	return opts
}

// History is the model's side of a session read back from its log.
func History(s replay.Session) []llm.Message {
	h, _ := historyOf(s)
	return h
}

// historyOf is History, with where each run's messages begin.
func historyOf(s replay.Session) ([]llm.Message, []RunMark) {
	var history []llm.Message
	var runs []RunMark
	for _, run := range s.Runs {
		runs = append(runs, RunMark{Run: run.ID, Text: run.Text, At: len(history)})
		history = append(history, llm.Message{Role: llm.RoleUser, Content: run.Text})
		for _, step := range run.Steps {
			a := step.Answer
			if a == nil {
				continue
			}
			m := llm.Message{Role: llm.RoleAssistant, Content: a.Text}
			if a.Partial && run.End.Status != store.RunStopped && run.End.Status != store.RunFailed {
				m.Content += cutOffNote
			}
			for _, tc := range a.ToolCalls {
				m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
			}
			if m.Content == "" && len(m.ToolCalls) == 0 {
				continue
			}
			history = append(history, m)
			for _, tc := range a.ToolCalls {
				history = append(history, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Content: a.CallFor(tc.ID).Result()})
			}
			var outputs []string
			for _, c := range a.Calls {
				if c.Command() {
					outputs = append(outputs, c.Result())
				}
			}
			if len(outputs) > 0 {
				history = append(history, toolcall.CommandsMessage(outputs))
			}
		}
	}
	return history, runs
}

// RunMark is where a run's messages begin in a conversation's history.
type RunMark struct {
	Run, Text string
	At        int
}

// cutOffNote ends an answer that Deckhand stopped writing down mid-stream.
const cutOffNote = "\n\n[cut off: Deckhand stopped while this answer was streaming]"
