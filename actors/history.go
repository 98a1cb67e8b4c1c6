package actors

import (
	"deckhand/approval"
	"deckhand/store"
	"deckhand/transport/llm"
)

// Rebuild reads a session's events back into what its conversation held:
// the messages, in the form they were sent to the model, the tools allowed
// "for this session", and the lazy tools it had loaded. A call whose result
// never reached the log (the process died first) is answered with a note, so
// the history stays well formed for the next request. The caller sets the
// options' ID and Watchers.
func Rebuild(events []store.Event) ConversationOptions {
	var (
		history  []llm.Message
		grants   = approval.Grants{}
		loaded   []string
		calls    []llm.ToolCall    // of the last assistant message
		outputs  map[string]string // call id -> what the model got
		commands []string          // outputs of local.exec, in order
	)
	settle := func() {
		for _, c := range calls {
			out, ok := outputs[c.ID]
			if !ok {
				out = "Not run: Deckhand stopped before this call finished."
			}
			history = append(history, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: out})
		}
		if len(commands) > 0 {
			history = append(history, commandsMessage(commands))
		}
		calls, outputs, commands = nil, nil, nil
	}
	for _, e := range events {
		d, err := e.Decode()
		if err != nil {
			continue
		}
		switch e.Kind {
		case store.KindRunStarted:
			settle()
			history = append(history, llm.Message{Role: llm.RoleUser, Content: d.Text})
		case store.KindAssistantMessage:
			settle()
			m := llm.Message{Role: llm.RoleAssistant, Content: d.Text}
			for _, tc := range d.ToolCalls {
				m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
			}
			history = append(history, m)
			calls, outputs = m.ToolCalls, map[string]string{}
		case store.KindToolSucceeded, store.KindToolFailed, store.KindCapabilityDenied:
			if d.Tool == "local.exec" {
				commands = append(commands, d.Output)
			} else if outputs != nil {
				outputs[d.Call] = d.Output
			}
		case store.KindApprovalGranted:
			if d.Scope == "session" {
				grants[d.Tool] = true
			}
		case store.KindToolsLoaded:
			loaded = append(loaded, d.Loaded...)
		case store.KindRunSucceeded, store.KindRunFailed, store.KindRunStopped, store.KindRunInterrupted:
			settle()
		}
	}
	settle()
	return ConversationOptions{Resumed: true, History: history, Grants: grants, Loaded: loaded}
}
