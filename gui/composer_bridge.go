package gui

import (
	"context"
	"errors"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/gui/composer"
	"deckhand/transcript"
)

// The bridge's half of the composer (package composer): which model each
// open conversation was given, what its actor has been told, and sending a
// message with its attachments; and the UI as the composer's Host.

// composerMsg is a message from the composer to the bridge.
type composerMsg interface {
	handleComposer(b *bridge, c actor.Context)
}

type (
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

// composerBridge is the composer's state on the bridge (bridge.comp),
// touched only in its Receive.
type composerBridge struct {
	chosen  map[string]string // conversation → its model, when not the configured one
	told    map[string]string // what its actor has been told, since it opened
	resumed map[string]string // the last run's model of a session reopened from the log
	posted  pickerState       // what the picker was last told
}

// composer is the composer's state, made when first needed.
func (b *bridge) composer() *composerBridge {
	if b.comp == nil {
		b.comp = &composerBridge{chosen: map[string]string{}, told: map[string]string{}, resumed: map[string]string{}}
	}
	return b.comp
}

// startWait and startPatience bound how long a message waits for its
// conversation to start.
const (
	startWait     = 20 * time.Millisecond
	startPatience = 1500 // 30 s
)

// setModel is a model chosen in the picker.
func (b *bridge) setModel(c actor.Context, m *composer.SetModel) {
	cb := b.composer()
	if m.Name == "" {
		delete(cb.chosen, m.Conv)
	} else {
		cb.chosen[m.Conv] = m.Name
	}
	b.statusDirty = true
	if cs := b.convs[m.Conv]; cs != nil && cs.pid != nil {
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
		ui.post(func() { ui.comp.ShowModel(st.conv, st.model, st.resumed) })
	}
	if st.model != "" {
		return st.model
	}
	return b.cfg.Model.Name
}

// composerHost is the window as the composer's host.
type composerHost struct{ u *UI }

var _ composer.Host = composerHost{}

func (h composerHost) Config() *config.Config               { return h.u.cfg }
func (h composerHost) LookupEnv(name string) (string, bool) { return h.u.d.LookupEnv(name) }
func (h composerHost) Window() fyne.Window                  { return h.u.win }
func (h composerHost) Post(f func())                        { h.u.post(f) }
func (h composerHost) Tell(msg any)                         { h.u.tell(msg) }
func (h composerHost) ShowError(msg string)                 { h.u.showError(msg) }
func (h composerHost) KeepFocus() func()                    { return h.u.keepFocus() }
func (h composerHost) Relayout() {
	// A container's refresh does not reach its parents: without this the
	// chips showed only once something else moved.
	if c, ok := h.u.chatArea.(*fyne.Container); ok {
		c.Refresh()
	}
}
func (h composerHost) ServerStatuses(ctx context.Context) ([]servers.ServerStatus, error) {
	return h.u.d.System.ServerStatuses(ctx, false)
}
func (h composerHost) Resources(ctx context.Context, alias string) (*servers.ResourceListing, error) {
	return h.u.d.System.Resources(ctx, alias)
}
func (h composerHost) ReadResource(ctx context.Context, alias, uri string) (*servers.ResourceRead, error) {
	return h.u.d.System.ReadResource(ctx, alias, uri)
}
func (h composerHost) Subscribe(ctx context.Context, alias, uri string, off bool) error {
	if h.u.bridge == nil {
		return errors.New("the window is not started")
	}
	return h.u.d.System.Subscribe(ctx, alias, uri, h.u.bridge, off)
}
func (h composerHost) Prompts(ctx context.Context, alias string) (*servers.PromptListing, error) {
	return h.u.d.System.Prompts(ctx, alias)
}
func (h composerHost) GetPrompt(ctx context.Context, alias, name string, args map[string]string) (*servers.PromptResult, error) {
	return h.u.d.System.GetPrompt(ctx, alias, name, args)
}
