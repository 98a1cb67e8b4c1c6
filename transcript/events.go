package transcript

import "deckhand/store"

// FromEvents rebuilds a session's transcript from its logged events.
func FromEvents(events []store.Event) *Transcript {
	t := New()
	for _, e := range events {
		d, err := e.Decode()
		if err != nil {
			continue
		}
		switch e.Kind {
		case store.KindRunStarted:
			t.Calls()
			t.User(d.Text, e.Time)
		case store.KindAssistantMessage:
			if d.Text != "" {
				t.Assistant(d.Text, e.Time)
			}
		case store.KindToolRequested:
			t.ToolRequested(d.Call, d.Tool, d.Arguments)
		case store.KindToolInvoked:
			t.ToolStarted(d.Call, d.Tool, d.Arguments)
		case store.KindToolSucceeded, store.KindToolFailed, store.KindCapabilityDenied:
			t.ToolFinished(d.Call, d.Tool, nil, d.Output, e.Kind != store.KindToolSucceeded, d.Denied, msDuration(d.ElapsedMS))
		case store.KindNotice:
			t.Note(d.Text, false)
		case store.KindRunFailed:
			t.Note("The run failed: "+d.Error, true)
		case store.KindRunStopped:
			t.Note("Stopped.", false)
		case store.KindRunInterrupted:
			t.Note("Deckhand stopped while this run was in progress.", true)
		}
	}
	t.Changes() // a fresh view draws everything anyway
	return t
}
