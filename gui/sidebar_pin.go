package gui

import (
	"context"

	"github.com/asynkron/protoactor-go/actor"
)

// Pinning a chat to the top of the sidebar, from its row's menu. The log
// keeps it (store.PinSession), so a pinned chat stays first after a
// restart; the list marks it.

// pinMark is what a pinned chat's title begins with in the sidebar.
const pinMark = "📌 "

// uiPinSession pins (or unpins) a session.
type uiPinSession struct {
	id     string
	pinned bool
}

type sessionPinned struct {
	id     string
	pinned bool
	err    error
}

func (m *uiPinSession) handleSidebar(b *bridge, c actor.Context) {
	if b.db == nil {
		b.notices = append(b.notices, "Could not pin the chat: this Deckhand keeps no log.")
		return
	}
	self, root, db, sys := c.Self(), c.ActorSystem().Root, b.db, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), manageTimeout)
		defer cancel()
		// The session's row must be on disk: a chat written in a moment
		// ago may still be in the store actor's batch.
		err := sys.SyncLog(ctx)
		if err == nil {
			err = db.PinSession(ctx, m.id, m.pinned)
		}
		root.Send(self, &sessionPinned{id: m.id, pinned: m.pinned, err: err})
	}()
}

func (m *sessionPinned) handleSidebar(b *bridge, c actor.Context) {
	if m.err != nil {
		verb := "pin"
		if !m.pinned {
			verb = "unpin"
		}
		b.notices = append(b.notices, "Could not "+verb+" the chat: "+m.err.Error())
		return
	}
	b.loadSessions(c) // in the log's order: pinned first
	if st := b.search(); st.query != "" {
		(&uiSearchSessions{query: st.query}).handleSidebar(b, c)
	}
}

func boolOrder(b bool) int {
	if b {
		return 1
	}
	return 0
}
