package gui

import (
	"context"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/store"
)

// keepIdle is how many idle conversations stay open besides the one shown.
// Each open conversation holds its actor, its history and its transcript,
// images included (up to 48 MiB of them), for as long as it is open; a
// person clicking through past sessions opens one per click. Going back to
// one of the last few is instant; going back to an older one reads it
// from the log again, which takes milliseconds. A count bounds the memory
// whatever the person does, where a time limit would let a quick walk
// through the sidebar hold everything it passed, and would wake an idle
// window to check.
const keepIdle = 3

// idleConvs is what the bridge knows for closing idle conversations.
type idleConvs struct {
	tick    int                      // counts uses
	used    map[string]int           // when each open conversation was last shown or running
	asking  map[string]int           // servers' questions open, by conversation
	closing map[string]chan struct{} // closed when its actor has stopped and the log holds what it said
}

// convClosed: an idle conversation's actor has stopped and the log is
// synced.
type convClosed struct{ id string }

// closeIdle runs after each message the bridge handles: it notes what
// keeps a conversation busy, and closes the least recently used idle
// conversations beyond keepIdle. A conversation is idle when it is not
// the one shown nor the quick prompt's, has no run, no message waiting to
// start it, no approval or server's question waiting, and the log holds
// it (the sidebar lists it from there, and it is reopened from there).
// Without a log, or while the log cannot be written, nothing is closed:
// it would be lost.
func (b *bridge) closeIdle(c actor.Context) {
	ic := &b.idle
	if ic.used == nil {
		ic.used, ic.asking, ic.closing = map[string]int{}, map[string]int{}, map[string]chan struct{}{}
	}
	switch m := c.Message().(type) {
	case *servers.ElicitationRequested:
		if m.Conversation != "" {
			ic.asking[m.Conversation]++
		}
	case *servers.ElicitationClosed:
		if ic.asking[m.Conversation]--; ic.asking[m.Conversation] <= 0 {
			delete(ic.asking, m.Conversation)
		}
	case *convClosed:
		delete(ic.closing, m.id)
	}
	ic.tick++
	ic.used[b.current] = ic.tick
	for id, cs := range b.convs {
		if cs.running || cs.starting {
			ic.used[id] = ic.tick
		}
	}
	if len(b.convs) <= keepIdle+1 || b.db == nil || b.logFailing {
		return
	}
	var idle []string
	for id, cs := range b.convs {
		if b.idleConv(id, cs) {
			idle = append(idle, id)
		}
	}
	if len(idle) <= keepIdle {
		return
	}
	slices.SortFunc(idle, func(x, y string) int { return ic.used[x] - ic.used[y] })
	for _, id := range idle[:len(idle)-keepIdle] {
		b.closeConv(c, id)
	}
}

// idleConv reports whether an open conversation can be closed.
func (b *bridge) idleConv(id string, cs *convState) bool {
	if id == b.current || id == b.quick || cs.quick || cs.running || cs.starting || len(cs.queued) > 0 || b.idle.asking[id] > 0 {
		return false
	}
	if slices.ContainsFunc(b.approvals, func(a *conversation.ApprovalRequested) bool { return a.Conversation == id }) {
		return false
	}
	if cs.unsent() {
		return true // nothing said: nothing to keep
	}
	return slices.ContainsFunc(b.sessions, func(s store.Session) bool { return s.ID == id })
}

// closeConv forgets an open conversation and stops its actor. Opening it
// again waits until the actor has stopped and the log holds all it said,
// then reads it back (open).
func (b *bridge) closeConv(c actor.Context, id string) {
	cs := b.convs[id]
	delete(b.convs, id)
	delete(b.idle.used, id)
	delete(b.composer().told, id)
	done := make(chan struct{})
	b.idle.closing[id] = done
	pid, self, root, sys := cs.pid, c.Self(), c.ActorSystem().Root, b.sys
	go func() {
		defer func() { close(done); root.Send(self, &convClosed{id: id}) }()
		if pid != nil {
			// Once it has stopped, whatever it said is in the store
			// actor's mailbox, before the sync below.
			root.StopFuture(pid).Wait()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		sys.SyncLog(ctx)
	}()
}

// closed is what to wait for before reading a conversation from the log:
// its close, if one is under way.
func (b *bridge) closed(id string) <-chan struct{} {
	if done := b.idle.closing[id]; done != nil {
		return done
	}
	return nil
}
