package gui

import (
	"context"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/config"
)

// uiServerChanged says the config file changed a server: old (if not "")
// was removed or replaced, and srv (if not nil) is to run under alias. The
// window has reloaded the config (uiConfigChanged) before it sends this.
type uiServerChanged struct {
	old   string
	alias string
	srv   *config.Server
}

// serverChanged stops old, forgets it if the config no longer has it (a
// disconnected server has no status to clear), and starts srv.
func (b *bridge) serverChanged(c actor.Context, m *uiServerChanged) {
	if m.old != "" {
		if _, configured := b.cfg.MCP.Servers[m.old]; !configured {
			delete(b.servers, m.old)
			b.serversDirty, b.statusDirty = true, true
		}
	}
	self, root, sys := c.Self(), c.ActorSystem().Root, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if m.old != "" {
			sys.RemoveServer(ctx, m.old) // no server of that name: it was disconnected
		}
		if m.srv == nil {
			return
		}
		// A server replaced under the same alias starts once its old
		// actor has stopped (AddServer waits for that); an actor that
		// cannot start at all is an error (servers.ErrNotStarted).
		if err := sys.AddServer(ctx, m.alias, *m.srv); err != nil {
			root.Send(self, &serverCommandFailed{fmt.Errorf("connecting %q: %w", m.alias, err)})
		}
	}()
}
