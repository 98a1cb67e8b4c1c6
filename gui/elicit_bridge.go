package gui

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
	"deckhand/clean"
	"deckhand/transcript"
)

// serverAskMsg is a message from the window about what servers ask of the
// person: the answer to a question (elicitation), signing in and out. The
// bridge hands it its context.
type serverAskMsg interface {
	handleServerAsk(b *bridge, c actor.Context)
}

// uiElicitAnswer answers a server's question.
type uiElicitAnswer struct {
	id, action string
	content    map[string]any
	stop       bool // and refuse the rest of the server's questions for the session
}

func (m *uiElicitAnswer) handleServerAsk(b *bridge, c actor.Context) {
	c.Send(b.sys.Servers, &servers.ElicitationAnswer{ID: m.id, Action: m.action, Content: m.content, Stop: m.stop})
}

// elicitItem is a server's question as the window shows it: the request,
// and what the bridge knows of where it came from.
type elicitItem struct {
	req   *servers.ElicitationRequested
	tool  string // the tool call it came during (alias.tool), when known
	conv  string // that call's conversation's title
	quick bool   // the quick prompt's conversation

	e *elicitor // set when it joins the window's questions
}

// elicitEvent passes the servers' questions to the window as they come and
// go (they are rare: no need to wait for a frame). A question that closes
// unanswered leaves a note in its conversation, as an approval does.
func (b *bridge) elicitEvent(msg any) {
	switch m := msg.(type) {
	case *servers.ElicitationRequested:
		it := &elicitItem{req: m}
		if cs := b.convs[m.Conversation]; cs != nil && m.Conversation != "" {
			it.tool, it.conv, it.quick = callTool(cs.tr, m.Call), cs.title, cs.quick
		}
		b.ui.post(func() { b.ui.elicitor.add(it) })
	case *servers.ElicitationClosed:
		if !m.Reason.IsAnswered() {
			if cs := b.convs[m.Conversation]; cs != nil && m.Conversation != "" {
				cs.tr.Note(fmt.Sprintf("%s's question closed (%s): %s.", m.Server, clean.Line(string(m.Reason)), elicitPast(m.Action)), false)
				if m.Conversation == b.current {
					b.statusDirty = true
				}
			}
		}
		b.ui.post(func() { b.ui.elicitor.closed(m.ID) })
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
