package gui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/store"
	"deckhand/tools"
	"deckhand/transcript"
)

// frame is how often the bridge hands changes to the window: at most one
// fyne.Do per frame, however many deltas arrived.
const frame = 16 * time.Millisecond

// Messages from the window to the bridge. The window never touches actor
// state; it asks.
type (
	uiSend        struct{ text string }
	uiStop        struct{}
	uiNewChat     struct{}
	uiOpenSession struct{ id string }
	uiAnswer      struct {
		conv, id string
		answer   approval.Answer
	}
	uiQuickPrompt struct{ text string }
	uiQuickToMain struct{}
	uiExpand      struct {
		conv     string
		row      int
		expanded bool
	}
	uiReconnect     struct{ alias string } // reconnect, or connect a disconnected server
	uiDisconnect    struct{ alias string }
	uiConfigChanged struct{ cfg *config.Config }
	uiRefresh       struct{} // sessions may have changed on disk
)

// Continuations of the bridge's own background work.
type (
	flushFrame     struct{}
	sessionsLoaded struct {
		list []store.Session
		err  error
	}
	sessionLoaded struct {
		id     string
		events []store.Event
		err    error
	}
	serverCommandFailed struct{ err error }
)

// convState is one open conversation as the window sees it.
type convState struct {
	id       string
	pid      *actor.PID
	tr       *transcript.Transcript
	running  bool
	title    string
	usage    store.Usage // from the log, plus runs finished since
	quick    bool        // the quick prompt's conversation
	answer   strings.Builder
	queued   []string // messages sent before the conversation started
	starting bool
	result   string // how the last run ended, for the quick prompt
	lastRun  string // the status of its last run here (store.RunRunning, …); "" before one
}

// unsent reports whether the person has not said anything in this
// conversation yet: it is not a session until they do.
func (cs *convState) unsent() bool {
	return cs.title == "" && len(cs.queued) == 0 && cs.tr.Len() == 0
}

// bridge is the window's user actor: it receives the conversations', the
// servers' and the registry's events, keeps the view state (transcripts,
// server states, the approval queue), and hands the changes to the window
// once a frame, on the UI goroutine. It never touches a widget.
type bridge struct {
	ui  *UI
	sys *actors.System
	db  *store.DB
	cfg *config.Config

	convs   map[string]*convState
	current string
	quick   string

	servers      map[string]actors.ServerStatus
	serversDirty bool
	catalog      *tools.Catalog
	catalogDirty bool
	sessions     []store.Session
	sessDirty    bool
	approvals    []*actors.ApprovalRequested
	apprDirty    bool
	reset        bool // the current conversation changed: redraw all its rows
	statusDirty  bool
	quickDirty   bool
	notices      []string // errors to show the person once

	timer *time.Timer

	// What the window shows of the current conversation.
	shownRows    int
	shownRunning bool
}

func (b *bridge) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *actor.Started:
		b.convs = map[string]*convState{}
		b.servers = map[string]actors.ServerStatus{}
		c.Send(b.sys.Servers, &actors.WatchServers{PID: c.Self()})
		c.Send(b.sys.Registry, &actors.WatchCatalog{PID: c.Self()})
		b.loadSessions(c)
		b.newChat(c, false)
	case *flushFrame:
		b.timer = nil
		b.flush()
		return

	// From the window.
	case *uiSend:
		b.send(c, b.current, m.text)
	case *uiStop:
		if cs := b.convs[b.current]; cs != nil && cs.pid != nil {
			c.Send(cs.pid, &actors.StopRun{})
		}
	case *uiNewChat:
		b.newChat(c, false)
	case *uiOpenSession:
		b.open(c, m.id)
	case *uiAnswer:
		b.dropApproval(m.id)
		if cs := b.convs[m.conv]; cs != nil && cs.pid != nil {
			c.Send(cs.pid, &actors.ApprovalAnswer{ID: m.id, Answer: m.answer})
		}
	case *uiQuickPrompt:
		if b.quick == "" || b.convs[b.quick] == nil {
			b.quick = b.newChat(c, true)
		}
		cs := b.convs[b.quick]
		cs.answer.Reset()
		b.quickDirty = true
		b.send(c, b.quick, m.text)
	case *uiQuickToMain:
		if cs := b.convs[b.quick]; cs != nil {
			cs.quick = false // a session like the others now, in the sidebar
			b.show(b.quick)
			b.quick = "" // the next quick prompt starts a session of its own
		}
	case *uiExpand:
		if cs := b.convs[m.conv]; cs != nil {
			cs.tr.Expand(m.row, m.expanded)
		}
	case *uiReconnect:
		b.reconnect(c, m.alias)
	case *uiDisconnect:
		b.disconnect(c, m.alias)
	case *serverCommandFailed:
		b.notices = append(b.notices, m.err.Error())
	case *uiConfigChanged:
		b.cfg = m.cfg
		b.sys.UpdateConfig(m.cfg)
		b.statusDirty = true
	case *uiRefresh:
		b.loadSessions(c)

	// Background work.
	case *sessionsLoaded:
		if m.err != nil {
			b.notices = append(b.notices, "Could not read the sessions: "+m.err.Error())
		} else {
			b.sessions, b.sessDirty = m.list, true
		}
	case *sessionLoaded:
		b.opened(c, m)
	case *actors.ConversationStarted:
		b.started(c, m)

	// From the servers and the registry.
	case *actors.ServerStatus:
		if m.State == actors.StateStopped && m.Reason == "removed" {
			if _, configured := b.cfg.MCP.Servers[m.Alias]; configured {
				// Disconnected on request: it can be connected again.
				st := *m
				st.Reason = "disconnected"
				b.servers[m.Alias] = st
			} else {
				delete(b.servers, m.Alias)
			}
		} else {
			b.servers[m.Alias] = *m
		}
		b.serversDirty, b.statusDirty = true, true
	case *actors.CatalogChanged:
		b.catalog, b.catalogDirty = m.Catalog, true

	default:
		b.conversationEvent(c, m)
	}
	b.schedule(c)
}

// schedule asks for a frame, if none is pending.
func (b *bridge) schedule(c actor.Context) {
	if b.timer == nil {
		self, root := c.Self(), c.ActorSystem().Root
		b.timer = time.AfterFunc(frame, func() { root.Send(self, &flushFrame{}) })
	}
}

// conversationEvent applies one conversation's event to its transcript.
func (b *bridge) conversationEvent(c actor.Context, msg any) {
	now := time.Now()
	conv := func(id string) *convState {
		cs := b.convs[id]
		if cs != nil && id == b.current {
			b.statusDirty = true
		}
		return cs
	}
	switch m := msg.(type) {
	case *actors.RunStarted:
		if cs := conv(m.Conversation); cs != nil {
			cs.running, cs.lastRun = true, store.RunRunning
			b.sessDirty = true
			cs.tr.Calls()
			cs.tr.User(m.Text, now)
			if cs.title == "" {
				cs.title = m.Text
				b.sessDirty = true
			}
		}
	case *actors.RunQueued:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.Note(fmt.Sprintf("Waiting: %q runs after the current answer.", shorten(m.Text, 60)), false)
		}
	case *actors.AssistantDelta:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.Delta(m.Text, now)
			if cs.quick {
				cs.answer.WriteString(m.Text)
				b.quickDirty = true
			}
		}
	case *actors.AssistantMessage:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.Assistant(m.Text, now)
			if cs.quick && cs.answer.String() != m.Text && m.Text != "" {
				cs.answer.Reset()
				cs.answer.WriteString(m.Text)
				b.quickDirty = true
			}
		}
	case *actors.ToolCallRequested:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.ToolRequested(m.Call, m.Tool, m.Arguments)
		}
	case *actors.ToolCallStarted:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.ToolStarted(m.Call, m.Tool, m.Arguments)
		}
	case *actors.ToolCallProgress:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.ToolProgress(m.Call, m.Progress.Progress, m.Progress.Total, m.Progress.Message)
		}
	case *actors.ToolCallFinished:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.ToolFinished(m.Call, m.Tool, m.Arguments, m.Output, m.IsError, m.Denied, m.Elapsed)
		}
	case *actors.ApprovalRequested:
		b.approvals = append(b.approvals, m)
		b.apprDirty = true
	case *actors.ApprovalClosed:
		if b.dropApproval(m.ID) && m.Reason != "answered" {
			if cs := conv(m.Conversation); cs != nil {
				cs.tr.Note("Approval closed: "+m.Reason+"; the call was denied.", false)
			}
		}
	case *actors.Notice:
		if cs := conv(m.Conversation); cs != nil {
			cs.tr.Note(m.Text, false)
		}
	case *actors.RunFinished:
		if cs := conv(m.Conversation); cs != nil {
			cs.running = false
			cs.usage.InputTokens += m.Usage.PromptTokens
			cs.usage.OutputTokens += m.Usage.CompletionTokens
			cs.usage.CostUSD += m.CostUSD
			cs.usage.Estimated = cs.usage.Estimated || m.Estimated
			switch {
			case m.Stopped:
				cs.tr.Note("Stopped.", false)
				cs.result, cs.lastRun = "Stopped.", store.RunStopped
			case m.Err != nil:
				cs.tr.Note(m.Err.Error(), true)
				cs.result, cs.lastRun = "Failed: "+m.Err.Error(), store.RunFailed
			default:
				cs.result, cs.lastRun = "Done.", store.RunSucceeded
			}
			b.sessDirty = true
			if cs.quick {
				b.quickDirty = true
			}
			b.refreshSoon(c)
		}
	}
}

// reconnect drops a server's connection and connects again; a server that
// was disconnected (or disabled in the config) is started from its config.
func (b *bridge) reconnect(c actor.Context, alias string) {
	st, ok := b.servers[alias]
	if !ok {
		return
	}
	if st.State != actors.StateStopped {
		c.Send(b.sys.Servers, &actors.ReconnectServer{Alias: alias})
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

// refreshSoon reloads the sessions list once the log has the run.
func (b *bridge) refreshSoon(c actor.Context) {
	self, root, sys := c.Self(), c.ActorSystem().Root, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		sys.SyncLog(ctx)
		root.Send(self, &uiRefresh{})
	}()
}

func (b *bridge) dropApproval(id string) bool {
	i := slices.IndexFunc(b.approvals, func(a *actors.ApprovalRequested) bool { return a.ID == id })
	if i < 0 {
		return false
	}
	b.approvals = slices.Delete(b.approvals, i, i+1)
	b.apprDirty = true
	return true
}

// newChat starts a conversation and, unless it is the quick prompt's, shows
// it. It returns the conversation's id. A new chat the person has not
// written in yet is shown again rather than joined by another: it is not
// in the sidebar, and would be lost.
func (b *bridge) newChat(c actor.Context, quick bool) string {
	if !quick {
		for id, cs := range b.convs {
			if !cs.quick && cs.unsent() {
				b.show(id)
				return id
			}
		}
	}
	id := newConversationID()
	cs := &convState{id: id, tr: transcript.New(), quick: quick, starting: true}
	b.convs[id] = cs
	c.Request(b.sys.Conversations, &actors.StartConversation{Options: actors.ConversationOptions{ID: id, Watchers: []*actor.PID{c.Self()}}})
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
	self, root, db := c.Self(), c.ActorSystem().Root, b.db
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		events, err := db.Events(ctx, store.Filter{SessionID: id})
		root.Send(self, &sessionLoaded{id: id, events: events, err: err})
	}()
}

func (b *bridge) opened(c actor.Context, m *sessionLoaded) {
	if m.err != nil {
		b.notices = append(b.notices, "Could not open the session: "+m.err.Error())
		return
	}
	if _, ok := b.convs[m.id]; ok {
		b.show(m.id)
		return
	}
	opts := actors.Rebuild(m.events)
	opts.ID, opts.Watchers = m.id, []*actor.PID{c.Self()}
	cs := &convState{id: m.id, tr: transcript.FromEvents(m.events), starting: true}
	for _, s := range b.sessions {
		if s.ID == m.id {
			cs.title, cs.usage = s.Title, s.Usage
		}
	}
	b.convs[m.id] = cs
	c.Request(b.sys.Conversations, &actors.StartConversation{Options: opts})
	b.show(m.id)
}

func (b *bridge) started(c actor.Context, m *actors.ConversationStarted) {
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
		c.Send(cs.pid, &actors.UserMessage{Text: text})
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
	if cs.pid == nil {
		cs.queued = append(cs.queued, text)
		return
	}
	c.Send(cs.pid, &actors.UserMessage{Text: text})
}

func (b *bridge) show(id string) {
	if b.current != id {
		b.current, b.reset = id, true
		b.statusDirty, b.sessDirty = true, true
	}
}

func (b *bridge) loadSessions(c actor.Context) {
	if b.db == nil {
		return
	}
	self, root, db := c.Self(), c.ActorSystem().Root, b.db
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		list, err := db.Sessions(ctx, 200)
		root.Send(self, &sessionsLoaded{list: list, err: err})
	}()
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
		u.servers = make([]actors.ServerStatus, 0, len(b.servers))
		for _, s := range b.servers {
			u.servers = append(u.servers, s)
		}
		slices.SortFunc(u.servers, func(x, y actors.ServerStatus) int { return strings.Compare(x.Alias, y.Alias) })
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
			u.quick = &quickUpdate{text: cs.answer.String(), running: cs.running || cs.starting, status: cs.result}
		}
		b.quickDirty = false
	}
	u.notices, b.notices = b.notices, nil
	if u.empty() {
		return
	}
	b.ui.post(func() { b.ui.apply(u) })
}

// sidebar lists sessions: open conversations not yet in the log first, then
// the log's, most recent first. A conversation is a session once the person
// has written in it: the new chat they have not, and empty sessions an
// older Deckhand logged, are not listed.
func (b *bridge) sidebar() []sessionItem {
	var out []sessionItem
	seen := map[string]bool{}
	for _, s := range b.sessions {
		seen[s.ID] = true
	}
	for id, cs := range b.convs {
		if !seen[id] && !cs.quick && !cs.unsent() {
			out = append(out, sessionItem{id: id, title: cs.title, when: time.Now(), usage: cs.usage, run: cs.lastRun})
		}
	}
	slices.SortFunc(out, func(x, y sessionItem) int { return strings.Compare(y.id, x.id) })
	for _, s := range b.sessions {
		cs := b.convs[s.ID]
		if s.Runs == 0 && (cs == nil || cs.unsent()) {
			continue
		}
		item := sessionItem{id: s.ID, title: s.Title, when: s.Updated, usage: s.Usage, run: s.LastRun}
		if cs != nil {
			item.usage = cs.usage
			if cs.lastRun != "" {
				item.run = cs.lastRun // this window ran it since the log was read
			}
		}
		if item.title == "" {
			item.title = "Untitled"
		}
		out = append(out, item)
	}
	for i := range out {
		out[i].current = out[i].id == b.current
	}
	return out
}

// title is the current conversation's title.
func (b *bridge) title() string {
	if cs := b.convs[b.current]; cs != nil && cs.title != "" {
		return cs.title
	}
	for _, s := range b.sessions {
		if s.ID == b.current && s.Title != "" {
			return s.Title
		}
	}
	return "New chat"
}

// status is the status line: the model, the servers (which are still
// connecting: a chat never waits for them, their tools join as they come),
// the session's tokens and cost.
func (b *bridge) status() string {
	model := b.cfg.Model.Name
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
		parts = append(parts, fmt.Sprintf("%s%s tokens in, %s%s out", mark, store.Count(u.InputTokens), mark, store.Count(u.OutputTokens)))
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
func serverSummary(servers map[string]actors.ServerStatus) []string {
	if len(servers) == 0 {
		return []string{"no MCP servers"}
	}
	ready := 0
	var connecting, down []string
	for alias, s := range servers {
		switch s.State {
		case actors.StateReady, actors.StateIdle: // idle: connects when used
			ready++
		case actors.StateConnecting:
			connecting = append(connecting, alias)
		case actors.StateFailed, actors.StateReconnecting:
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

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// newConversationID makes ids that sort by time, like the actors' own.
func newConversationID() string {
	return fmt.Sprintf("conv-%012x-%08x", time.Now().UnixMilli(), time.Now().UnixNano()&0xffffffff)
}
