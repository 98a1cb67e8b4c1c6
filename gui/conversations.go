package gui

import (
	"context"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/store"
	"deckhand/transcript"
)

// newChat starts a conversation and, unless it is the quick prompt's, shows
// it. It returns the conversation's id. A new chat the person has not
// written in yet is shown again rather than joined by another: it is not
// in the sidebar, and would be lost.
func (b *bridge) newChat(c actor.Context, quick bool) string {
	// A new chat ends a search: the list shows every chat again, the new
	// one among them. It stayed hidden until Escape in the search box.
	b.endSearch(c)
	if !quick {
		for id, cs := range b.convs {
			if !cs.quick && cs.unsent() {
				b.show(id)
				return id
			}
		}
	}
	id := conversation.NewConversationID()
	cs := &convState{id: id, tr: transcript.New(), quick: quick, starting: true}
	b.convs[id] = cs
	c.Request(b.sys.Conversations, &conversation.StartConversation{Options: conversation.ConversationOptions{ID: id, Watchers: []*actor.PID{c.Self()}}})
	if !quick {
		b.show(id)
	}
	b.sessDirty = true
	return id
}

// open shows a session: at once when its conversation is open, else after
// reading it from the log.
func (b *bridge) open(c actor.Context, id string) {
	if _, ok := b.convs[id]; ok {
		b.show(id)
		return
	}
	if b.db == nil {
		return
	}
	self, root, db, closed := c.Self(), c.ActorSystem().Root, b.db, b.closed(id)
	go func() {
		if closed != nil {
			<-closed // closed as idle a moment ago: its log is complete then
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		events, err := db.Events(ctx, store.Filter{SessionID: id})
		var breaks []store.Break
		if err == nil {
			breaks, err = db.VerifySession(ctx, id)
		}
		var tr *transcript.Transcript
		if err == nil {
			tr = readBack(db, id, events)
		}
		root.Send(self, &sessionLoaded{id: id, events: events, err: err, breaks: breaks, tr: tr})
	}()
}

// readBack is the transcript of session id from its events, a tool's
// images read back from their files beside the log, checked against the
// SHA-256 the log names (store.DB.KeptImage). It reads files: called where
// the log was read, never in the bridge's Receive.
func readBack(db *store.DB, id string, events []store.Event) *transcript.Transcript {
	return transcript.FromEventsImages(events, func(sum string) []byte { return db.KeptImage(id, sum) })
}

func (b *bridge) opened(c actor.Context, m *sessionLoaded) {
	if m.err != nil {
		b.notices = append(b.notices, "Could not open the session: "+m.err.Error())
		return
	}
	if cs := b.convs[m.id]; cs != nil && m.reopen {
		// A conversation that failed goes on from what its log holds; the
		// transcript on screen stays.
		opts := conversation.Rebuild(m.events)
		opts.ID, opts.Watchers = m.id, []*actor.PID{c.Self()}
		c.Request(b.sys.Conversations, &conversation.StartConversation{Options: opts})
		return
	}
	if _, ok := b.convs[m.id]; ok {
		b.show(m.id)
		return
	}
	opts := conversation.Rebuild(m.events)
	opts.ID, opts.Watchers = m.id, []*actor.PID{c.Self()}
	cs := &convState{id: m.id, tr: m.tr, starting: true}
	for _, s := range b.sessions {
		if s.ID == m.id {
			cs.title, cs.usage = s.Title, s.Usage
		}
	}
	if len(m.breaks) > 0 {
		cs.tr.Note("Warning: "+store.Tampered(m.breaks)+".", true)
	}
	b.convs[m.id] = cs
	c.Request(b.sys.Conversations, &conversation.StartConversation{Options: opts})
	b.show(m.id)
}

func (b *bridge) started(c actor.Context, m *conversation.ConversationStarted) {
	cs := b.convs[m.ID]
	if cs == nil {
		return
	}
	if m.Err != nil {
		cs.tr.Note("Could not start the conversation: "+m.Err.Error(), true)
		return
	}
	cs.pid, cs.starting = m.PID, false
	for _, text := range cs.queued {
		c.Send(cs.pid, &conversation.UserMessage{Text: text})
	}
	cs.queued = nil
}

func (b *bridge) send(c actor.Context, id, text string) {
	cs := b.convs[id]
	if cs == nil || strings.TrimSpace(text) == "" {
		return
	}
	if cs.title == "" {
		cs.title = text // a session now: it joins the sidebar
		b.sessDirty = true
	}
	if cs.failed {
		cs.failed, cs.starting = false, true
		b.reopen(c, id)
	}
	if cs.pid == nil {
		cs.queued = append(cs.queued, text)
		return
	}
	c.Send(cs.pid, &conversation.UserMessage{Text: text})
}

// reopen starts a failed conversation again from its log, once everything
// it recorded is on disk. Without a log it starts afresh under the same id.
func (b *bridge) reopen(c actor.Context, id string) {
	if b.db == nil {
		c.Request(b.sys.Conversations, &conversation.StartConversation{Options: conversation.ConversationOptions{ID: id, Watchers: []*actor.PID{c.Self()}}})
		return
	}
	self, root, db, sys := c.Self(), c.ActorSystem().Root, b.db, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		err := sys.SyncLog(ctx)
		var events []store.Event
		if err == nil {
			events, err = db.Events(ctx, store.Filter{SessionID: id})
		}
		var tr *transcript.Transcript
		if err == nil {
			tr = readBack(db, id, events)
		}
		root.Send(self, &sessionLoaded{id: id, events: events, err: err, reopen: true, tr: tr})
	}()
}

func (b *bridge) show(id string) {
	if b.current != id {
		b.current, b.reset = id, true
		b.statusDirty, b.sessDirty = true, true
	}
}
