package gui

import (
	"fmt"
	"slices"
	"strings"

	"deckhand/actors/conversation"
	"deckhand/actors/servers"
	"deckhand/gui/sidebar"
	"deckhand/gui/tray"
	"deckhand/store"
	"deckhand/tools"
	"deckhand/transcript"
)

// update is one frame's changes, from the bridge to the window. Nil and
// zero fields did not change.
type update struct {
	conv    string // the conversation shown
	reset   bool   // a different conversation, or redraw all: rows holds every row
	rows    []transcript.Row
	n       int                    // the row count
	changed map[int]transcript.Row // rows changed since the last frame
	running bool

	status       string
	servers      []servers.ServerStatus
	catalog      *tools.Catalog
	sessions     []sidebar.Item
	sessionsSet  bool
	title        string // the current conversation's, with sessions
	approvals    []*conversation.ApprovalRequested
	approvalsSet bool
	quickConv    string // the quick prompt's conversation
	quick        *tray.Update
	notices      []string
}

func (u *update) empty() bool {
	return u.conv == "" && u.status == "" && u.servers == nil && u.catalog == nil && !u.sessionsSet &&
		!u.approvalsSet && u.quick == nil && len(u.notices) == 0
}

// flush hands what changed since the last frame to the window, in one
// fyne.Do.
func (b *bridge) flush() {
	u := &update{}
	if cs := b.convs[b.current]; cs != nil {
		u.running = cs.running || cs.starting && len(cs.queued) > 0
		if b.reset {
			u.reset = true
			cs.tr.Changes()
			u.rows = make([]transcript.Row, cs.tr.Len())
			for i := range u.rows {
				u.rows[i] = cs.tr.Row(i)
			}
			b.reset = false
		} else {
			u.n, u.changed = cs.tr.Changes()
		}
		if u.reset || u.changed != nil || u.n != b.shownRows || u.running != b.shownRunning {
			u.conv = cs.id
			b.shownRows, b.shownRunning = u.n, u.running
			if u.reset {
				b.shownRows = len(u.rows)
			}
		}
	}
	if b.statusDirty {
		u.status = b.status()
		b.statusDirty = false
	}
	if b.serversDirty {
		u.servers = make([]servers.ServerStatus, 0, len(b.servers))
		for _, s := range b.servers {
			u.servers = append(u.servers, s)
		}
		slices.SortFunc(u.servers, func(x, y servers.ServerStatus) int { return strings.Compare(x.Alias, y.Alias) })
		b.serversDirty = false
	}
	if b.catalogDirty {
		u.catalog, b.catalogDirty = b.catalog, false
	}
	if b.sessDirty {
		u.sessions, u.sessionsSet = b.sidebar(), true
		u.title = b.title()
		b.sessDirty = false
	}
	u.quickConv = b.quick
	if b.apprDirty {
		u.approvals, u.approvalsSet = slices.Clone(b.approvals), true
		b.apprDirty = false
	}
	if b.quickDirty {
		if cs := b.convs[b.quick]; cs != nil {
			u.quick = &tray.Update{Text: cs.answer.String(), Running: cs.running || cs.starting, Status: cs.result}
			u.quick.Asked, u.quick.Calls = tray.Calls(cs.tr)
		} else {
			u.quick = &tray.Update{} // its chat was deleted
		}
		b.quickDirty = false
	}
	u.notices, b.notices = b.notices, nil
	if u.empty() {
		return
	}
	b.ui.post(func() { b.ui.apply(u) })
}

// status is the status line: the model, the servers (which are still
// connecting: a chat never waits for them, their tools join as they come),
// the session's tokens and cost.
func (b *bridge) status() string {
	model := b.statusModel() // the conversation's (composer_bridge.go)
	if !b.cfg.Model.Configured() {
		model = "no model set up"
	}
	parts := append([]string{model}, serverSummary(b.servers)...)
	if cs := b.convs[b.current]; cs != nil {
		u := cs.usage
		mark := ""
		if u.Estimated {
			mark = "~"
		}
		if u.InputTokens+u.OutputTokens > 0 {
			parts = append(parts, fmt.Sprintf("%s%s tokens in, %s%s out", mark, store.Count(u.InputTokens), mark, store.Count(u.OutputTokens)))
		}
		if u.CostUSD > 0 {
			parts = append(parts, fmt.Sprintf("$%.4f", u.CostUSD))
		}
		if cs.running {
			parts = append(parts, "working…")
		}
	}
	return strings.Join(parts, "  ·  ")
}

// serverSummary says how the servers are, for the status line: how many
// are ready, then the names of those connecting and of those down.
// Servers disconnected on request are not mentioned.
func serverSummary(list map[string]servers.ServerStatus) []string {
	if len(list) == 0 {
		return []string{"no MCP servers"}
	}
	ready := 0
	var connecting, down []string
	for alias, s := range list {
		switch s.State {
		case servers.StateReady, servers.StateIdle: // idle: connects when used
			ready++
		case servers.StateConnecting:
			connecting = append(connecting, alias)
		case servers.StateFailed, servers.StateReconnecting:
			down = append(down, alias)
		}
	}
	noun := "servers"
	if ready == 1 {
		noun = "server"
	}
	out := []string{fmt.Sprintf("%d %s ready", ready, noun)}
	if len(connecting) > 0 {
		out = append(out, "connecting: "+names(connecting))
	}
	if len(down) > 0 {
		out = append(out, "down: "+names(down))
	}
	return out
}

// names lists a few aliases, in order, and counts the rest.
func names(aliases []string) string {
	const shown = 3
	slices.Sort(aliases)
	if len(aliases) <= shown {
		return strings.Join(aliases, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(aliases[:shown], ", "), len(aliases)-shown)
}
