package gui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/agent"
	"deckhand/config"
	"deckhand/servers"
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
		for try := 0; ; try++ {
			if err := sys.AddServer(ctx, m.alias, *m.srv); err != nil {
				root.Send(self, &serverCommandFailed{fmt.Errorf("connecting %q: %w", m.alias, err)})
				return
			}
			// The old actor of that name may not have stopped yet when
			// the new one was spawned: then spawn it again.
			if try == 5 || !spawnClashed(ctx, sys, m.alias) {
				return
			}
			sys.RemoveServer(ctx, m.alias)
			time.Sleep(50 * time.Millisecond)
		}
	}()
}

func spawnClashed(ctx context.Context, sys *agent.System, alias string) bool {
	list, err := sys.ServerStatuses(ctx, false)
	if err != nil {
		return false
	}
	for _, st := range list {
		if st.Alias == alias {
			return st.State == servers.StateFailed && strings.HasPrefix(st.Reason, "starting its actor")
		}
	}
	return false
}
