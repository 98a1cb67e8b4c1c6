package gui

import (
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/transcript"
)

// The bridge's half of the composer (composer.go): which model each open
// conversation was given, what its actor has been told, and sending a
// message with its attachments.

// composerMsg is a message from the composer to the bridge.
type composerMsg interface {
	handleComposer(b *bridge, c actor.Context)
}

type (
	// uiSetModel chooses conv's model ("": the configured one).
	uiSetModel struct{ conv, name string }
	// uiComposerSend sends the message box's text and attachments to the
	// current conversation (conv, once the bridge has read it).
	uiComposerSend struct {
		conv, text  string
		attachments []conversation.Attachment
		tries       int // times it waited for the conversation to start
	}
)

// pickerState is what the bridge tells the picker: the current
// conversation, the model chosen for it, and its last run's model when it
// was reopened from the log.
type pickerState struct {
	conv, model, resumed string
	cfg                  string // the configured model and endpoint, so that a change redraws the picker
}

// composerBridge belongs to the bridge actor.
type composerBridge struct {
	chosen  map[string]string // conversation → its model, when not the configured one
	told    map[string]string // what its actor has been told, since it opened
	resumed map[string]string // the last run's model of a session reopened from the log
	posted  pickerState       // what the picker was last told
}

func newComposerBridge() *composerBridge {
	return &composerBridge{chosen: map[string]string{}, told: map[string]string{}, resumed: map[string]string{}}
}

func (b *bridge) composer() *composerBridge { return b.ui.comp.bridge }

// startWait and startPatience bound how long a message waits for its
// conversation to start.
const (
	startWait     = 20 * time.Millisecond
	startPatience = 1500 // 30 s
)

func (m *uiSetModel) handleComposer(b *bridge, c actor.Context) {
	cb := b.composer()
	if m.name == "" {
		delete(cb.chosen, m.conv)
	} else {
		cb.chosen[m.conv] = m.name
	}
	b.statusDirty = true
	if cs := b.convs[m.conv]; cs != nil && cs.pid != nil {
		b.tellModel(c, cs)
	}
}

func (m *uiComposerSend) handleComposer(b *bridge, c actor.Context) {
	if m.conv == "" {
		m.conv = b.current
	}
	cs := b.convs[m.conv]
	cb := b.composer()
	if cs == nil {
		return
	}
	if len(m.attachments) == 0 && cb.chosen[m.conv] == cb.told[m.conv] {
		b.send(c, m.conv, m.text) // a plain message
		return
	}
	if strings.TrimSpace(m.text) == "" && len(m.attachments) == 0 {
		return
	}
	if cs.title == "" {
		cs.title = m.text // a session now: it joins the sidebar
		if strings.TrimSpace(m.text) == "" {
			cs.title = m.attachments[0].Name
		}
		b.sessDirty = true
	}
	if cs.failed {
		cs.failed, cs.starting = false, true
		b.reopen(c, m.conv)
	}
	if cs.pid == nil {
		// The conversation is starting: this waits for it.
		if m.tries++; m.tries > startPatience {
			b.notices = append(b.notices, "The conversation did not start, so the message was not sent.")
			return
		}
		self, root := c.Self(), c.ActorSystem().Root
		time.AfterFunc(startWait, func() { root.Send(self, m) })
		return
	}
	b.tellModel(c, cs)
	c.Send(cs.pid, &conversation.UserMessage{Text: m.text, Attachments: m.attachments})
}

// tellModel tells a conversation the model chosen for it, if it has not
// been told yet; messages sent after it use it.
func (b *bridge) tellModel(c actor.Context, cs *convState) {
	cb := b.composer()
	if name := cb.chosen[cs.id]; name != cb.told[cs.id] {
		c.Send(cs.pid, &conversation.SetModel{Name: name})
		cb.told[cs.id] = name
	}
}

// composerOpened: a conversation's actor started (new, reopened, or again
// after a failure), with the configured model.
func (b *bridge) composerOpened(c actor.Context, m *conversation.ConversationOpened) {
	cb := b.composer()
	delete(cb.told, m.Conversation)
	if m.Resumed {
		for _, s := range b.sessions {
			if s.ID == m.Conversation && s.Model != "" {
				cb.resumed[m.Conversation] = s.Model
			}
		}
	}
	b.statusDirty = true
	b.conversationEvent(c, m)
}

// composerRunStarted is RunStarted, with the files attached to the
// person's message named under it.
func (b *bridge) composerRunStarted(c actor.Context, m *conversation.RunStarted) {
	b.conversationEvent(c, m)
	if cs := b.convs[m.Conversation]; cs != nil && len(m.Attachments) > 0 {
		files := make([]transcript.Attachment, len(m.Attachments))
		for i, at := range m.Attachments {
			files[i] = transcript.Attachment{Name: at.Name, Size: at.Size}
		}
		cs.tr.Attached(files)
	}
}

// statusModel is the current conversation's model, for the status line;
// when it or the conversation changed, the picker is told too.
func (b *bridge) statusModel() string {
	cb := b.composer()
	m := b.cfg.Model
	st := pickerState{conv: b.current, model: cb.chosen[b.current], resumed: cb.resumed[b.current], cfg: m.Name + "\x00" + m.BaseURL + "\x00" + m.APIKeyEnv}
	if st != cb.posted {
		cb.posted = st
		ui := b.ui
		ui.post(func() { ui.comp.show(st) })
	}
	if st.model != "" {
		return st.model
	}
	return b.cfg.Model.Name
}
