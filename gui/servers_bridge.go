package gui

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/config"
	serverspanel "deckhand/gui/servers"
	"deckhand/tools"
	"deckhand/transcript"
)

// The servers panel (gui/servers): the bridge's half, what the panel asks
// (serverspanel.Ask: reconnect, disconnect, a server changed in the
// config, sign in and out), and the UI as the panel's Host.

// serversAsk does what the servers panel asks.
func (b *bridge) serversAsk(c actor.Context, m serverspanel.Ask) {
	switch m := m.(type) {
	case *serverspanel.Reconnect:
		b.reconnect(c, m.Alias)
	case *serverspanel.Disconnect:
		b.disconnect(c, m.Alias)
	case *serverspanel.Changed:
		b.serverChanged(c, m)
	case *serverspanel.SignIn:
		c.Send(b.sys.Servers, &servers.SignIn{Alias: m.Alias})
	case *serverspanel.SignOut:
		b.signOut(c, m.Alias)
	}
}

// serverChanged stops the old server, forgets it if the config no longer
// has it (a disconnected server has no status to clear), and starts the
// new one.
func (b *bridge) serverChanged(c actor.Context, m *serverspanel.Changed) {
	if m.Old != "" {
		if _, configured := b.cfg.MCP.Servers[m.Old]; !configured {
			delete(b.servers, m.Old)
			b.serversDirty, b.statusDirty = true, true
		}
	}
	self, root, sys := c.Self(), c.ActorSystem().Root, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if m.Old != "" {
			sys.RemoveServer(ctx, m.Old) // no server of that name: it was disconnected
		}
		if m.Server == nil {
			return
		}
		// A server replaced under the same alias starts once its old
		// actor has stopped (AddServer waits for that); an actor that
		// cannot start at all is an error (servers.ErrNotStarted).
		if err := sys.AddServer(ctx, m.Alias, *m.Server); err != nil {
			root.Send(self, &serverCommandFailed{fmt.Errorf("connecting %q: %w", m.Alias, err)})
		}
	}()
}

// reconnect drops a server's connection and connects again; a server that
// was disconnected (or disabled in the config) is started from its config.
func (b *bridge) reconnect(c actor.Context, alias string) {
	st, ok := b.servers[alias]
	if !ok {
		return
	}
	if st.State != servers.StateStopped {
		c.Send(b.sys.Servers, &servers.ReconnectServer{Alias: alias})
		return
	}
	srv, ok := b.cfg.MCP.Servers[alias]
	if !ok {
		return
	}
	srv.Disabled = false
	self, root, sys := c.Self(), c.ActorSystem().Root, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		sys.RemoveServer(ctx, alias) // a disabled server has a status to clear; a disconnected one has none
		if err := sys.AddServer(ctx, alias, srv); err != nil {
			root.Send(self, &serverCommandFailed{fmt.Errorf("connecting %q: %w", alias, err)})
		}
	}()
}

// disconnect stops a server for this session (the config keeps it).
func (b *bridge) disconnect(c actor.Context, alias string) {
	self, root, sys := c.Self(), c.ActorSystem().Root, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := sys.RemoveServer(ctx, alias); err != nil {
			root.Send(self, &serverCommandFailed{fmt.Errorf("disconnecting %q: %w", alias, err)})
		}
	}()
}

// runByHand starts a chat of its own for a call the person runs, shows it
// in the main window, and brings that to the front (the approval shows
// there).
func (u *UI) runByHand(run *conversation.ToolRun) {
	u.tell(bridgeDo(func(b *bridge, c actor.Context) {
		id := conversation.NewConversationID()
		b.convs[id] = &convState{id: id, tr: transcript.New(), starting: true}
		c.Request(b.sys.Conversations, &conversation.StartConversation{Options: conversation.ConversationOptions{
			ID: id, Watchers: []*actor.PID{c.Self()}, Run: run}})
		b.show(id)
		b.sessDirty = true
	}))
	// The chat it makes is where it goes on (its approval, its card):
	// shown in place of the Tools page it was run from.
	u.toChat()
	u.win.Show()
	u.win.RequestFocus()
}

// signOut forgets a server's sign-in and disconnects it.
func (b *bridge) signOut(c actor.Context, alias string) {
	self, root, sys := c.Self(), c.ActorSystem().Root, b.sys
	go func() {
		// The keyring may take its time (or ask to be unlocked).
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := sys.SignOut(ctx, alias); err != nil {
			root.Send(self, &serverCommandFailed{fmt.Errorf("signing out of %q: %w", alias, err)})
		}
	}()
}

// showServers opens the servers panel.
func (u *UI) showServers() {
	if u.serversW == nil {
		u.serversW = serverspanel.New(serversHost{u})
	}
	u.serversW.Show()
}

// serversHost is the window as the servers panel's host.
type serversHost struct{ u *UI }

func (h serversHost) App() fyne.App                        { return h.u.app }
func (h serversHost) Quit()                                { h.u.quit() }
func (h serversHost) Icon() fyne.Resource                  { return h.u.d.Icon }
func (h serversHost) NewPanel(title string) fyne.Window    { return h.u.newPanel(title) }
func (h serversHost) Post(f func())                        { h.u.post(f) }
func (h serversHost) Tell(msg any)                         { h.u.tell(msg) }
func (h serversHost) Logger() *slog.Logger                 { return h.u.log }
func (h serversHost) Config() *config.Config               { return h.u.cfg }
func (h serversHost) SetConfig(cfg *config.Config)         { h.u.setConfig(cfg) }
func (h serversHost) Statuses() []servers.ServerStatus     { return h.u.servers }
func (h serversHost) Catalog() *tools.Catalog              { return h.u.catalog }
func (h serversHost) LookupEnv(name string) (string, bool) { return h.u.lookupEnv(name) }
func (h serversHost) RunByHand(run *conversation.ToolRun)  { h.u.runByHand(run) }
func (h serversHost) OpenURL(link *url.URL) error          { return h.u.openURL(link) }

func (h serversHost) System() serverspanel.System {
	if h.u.d.System == nil {
		return nil
	}
	return h.u.d.System
}

// AttachResource attaches a server's resource to the next message; Back
// (or Escape) on the resources then goes to the chat, where the
// attachment waits, not to the servers.
func (h serversHost) AttachResource(alias, uri string) {
	h.u.comp.AttachResource(alias, uri)
	if p := h.u.panel; p != nil {
		p.under = nil
		p.labelBack()
	}
}

// lookupEnv reads the environment the servers are started with: the
// window's (Deps.LookupEnv), then Deckhand's own.
func (u *UI) lookupEnv(name string) (string, bool) {
	if u.d.LookupEnv != nil {
		if v, ok := u.d.LookupEnv(name); ok {
			return v, true
		}
	}
	return os.LookupEnv(name)
}
