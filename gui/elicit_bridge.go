package gui

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/gui/dialogs"
	"deckhand/transcript"
)

// answerQuestion sends the servers the person's answer to a question.
func answerQuestion(b *bridge, c actor.Context, m *dialogs.QuestionAnswer) {
	c.Send(b.sys.Servers, &servers.ElicitationAnswer{ID: m.ID, Action: m.Action, Content: m.Content, Stop: m.Stop})
}

// elicitEvent passes the servers' questions to the window as they come and
// go (they are rare: no need to wait for a frame). A question that closes
// unanswered leaves a note in its conversation, as an approval does.
func (b *bridge) elicitEvent(msg any) {
	switch m := msg.(type) {
	case *servers.ElicitationRequested:
		it := &dialogs.Question{Req: m}
		if cs := b.convs[m.Conversation]; cs != nil && m.Conversation != "" {
			it.Tool, it.Conv, it.Quick = callTool(cs.tr, m.Call), cs.title, cs.quick
		}
		b.ui.post(func() { b.ui.dialogs.Questions.Add(it) })
	case *servers.ElicitationClosed:
		if !m.Reason.IsAnswered() {
			if cs := b.convs[m.Conversation]; cs != nil && m.Conversation != "" {
				cs.tr.Note(fmt.Sprintf("%s's question closed (%s): %s.", m.Server, clean.Line(string(m.Reason)), elicitPast(m.Action)), false)
				if m.Conversation == b.current {
					b.statusDirty = true
				}
			}
		}
		b.ui.post(func() { b.ui.dialogs.Questions.Closed(m.ID) })
	}
}

// callTool is the tool of a call in a transcript, or "".
func callTool(tr *transcript.Transcript, call string) string {
	if call == "" {
		return ""
	}
	for i := tr.Len() - 1; i >= 0; i-- {
		if r := tr.Row(i); r.Kind == transcript.Tool && r.Call == call {
			return r.Tool
		}
	}
	return ""
}

// elicitPast says what an elicitation's action did.
func elicitPast(action string) string {
	switch action {
	case servers.ElicitAccept:
		return "accepted"
	case servers.ElicitDecline:
		return "declined"
	}
	return "cancelled"
}
