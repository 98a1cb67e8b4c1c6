package gui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/export"
	"deckhand/gui/sidebar"
	"deckhand/store"
)

// The bridge's half of the sidebar (gui/sidebar): the list it shows, made
// from the log's sessions and the open conversations; what the sidebar
// asks (sidebar.Ask: rename, delete, search, pin, export), done off the
// bridge's goroutine; and the answers of that work. The bridge's Receive
// hands each over with one case. Below, the UI as the sidebar's Host.

// sidebarAsk does what the sidebar asks.
func (b *bridge) sidebarAsk(c actor.Context, m sidebar.Ask) {
	switch m := m.(type) {
	case *sidebar.Rename:
		b.renameSession(c, m)
	case *sidebar.Delete:
		b.deleteSession(c, m)
	case *sidebar.Search:
		b.searchSessions(c, m.Query)
	case *sidebar.Pin:
		b.pinSession(c, m)
	case *sidebar.Export:
		b.exportSession(c, m)
	}
}

// sidebarMsg is the answer of work the sidebar asked for; handleSidebar
// runs on the bridge.
type sidebarMsg interface {
	handleSidebar(b *bridge, c actor.Context)
}

type (
	sessionRenamed struct {
		id, title, old string
		err            error
	}
	sessionDeleted struct {
		id, title string
		err       error
	}
	sessionsFound struct {
		seq   int
		query string
		list  []store.Session
		err   error
	}
)

// sidebarSearch is the bridge's side of the search. It belongs to the
// bridge's goroutine.
type sidebarSearch struct {
	seq     int             // the latest search asked
	asked   string          // its query
	query   string          // the query the sidebar shows the matches of; "" none
	results []store.Session // those matches
	cancel  func()          // stops the search running, if any
}

// manageTimeout bounds a rename, a delete or a search.
const manageTimeout = 30 * time.Second

// search is the bridge's search state.
func (b *bridge) search() *sidebarSearch { return &b.side }

func (b *bridge) renameSession(c actor.Context, m *sidebar.Rename) {
	title, err := store.CleanTitle(m.Title)
	if err != nil {
		b.notices = append(b.notices, "Could not rename the session: "+err.Error()+".")
		return
	}
	var old string
	if cs := b.convs[m.ID]; cs != nil {
		old, cs.title = cs.title, title
	}
	st := b.search()
	for _, list := range [][]store.Session{b.sessions, st.results} {
		for i := range list {
			if list[i].ID == m.ID {
				list[i].Title = title
			}
		}
	}
	b.sessDirty = true
	if b.db == nil {
		return // this run's conversations only: the window holds the title
	}
	db := b.db
	b.afterSync(c, func(ctx context.Context, err error) any {
		if err == nil {
			err = db.RenameSession(ctx, m.ID, title)
		}
		return &sessionRenamed{id: m.ID, title: title, old: old, err: err}
	})
}

// afterSync runs work off the bridge's goroutine once the log has what
// the store actor may still hold in its batch (a chat written in a moment
// ago; synced is how that went), and sends work's answer to the bridge.
func (b *bridge) afterSync(c actor.Context, work func(ctx context.Context, synced error) any) {
	self, root, sys := c.Self(), c.ActorSystem().Root, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), manageTimeout)
		defer cancel()
		root.Send(self, work(ctx, sys.SyncLog(ctx)))
	}()
}

func (m *sessionRenamed) handleSidebar(b *bridge, c actor.Context) {
	if m.err != nil {
		b.notices = append(b.notices, "Could not rename the session: "+m.err.Error())
		if cs := b.convs[m.id]; cs != nil && cs.title == m.title && m.old != "" {
			cs.title = m.old
		}
	}
	b.loadSessions(c) // the title the log holds (a list read meanwhile had the old one)
}

// deleteSession deletes a session: its conversation, if open, is stopped and
// forgotten first (so that nothing more is logged for it), then the log
// forgets it. The current one gives way to a new chat. A session still
// running is refused: the person stops it first.
func (b *bridge) deleteSession(c actor.Context, m *sidebar.Delete) {
	id, title := m.ID, m.Title
	if title == "" {
		title = b.sessionTitle(id)
	}
	var pid *actor.PID
	if cs := b.convs[id]; cs != nil {
		if cs.running && m.Stop && cs.pid != nil {
			// Stop and delete: deleted once its run has stopped
			// (deleteStopped), all it said in the log by then.
			if b.deleting == nil {
				b.deleting = map[string]string{}
			}
			b.deleting[id] = title
			c.Send(cs.pid, &conversation.StopRun{})
			return
		}
		if cs.running || cs.starting && len(cs.queued) > 0 {
			b.notices = append(b.notices, fmt.Sprintf("“%s” is still working: stop it first, then delete it.", title))
			return
		}
		if cs.starting {
			// Its actor is on its way: the answer would find no chat.
			b.notices = append(b.notices, fmt.Sprintf("“%s” is still opening: try again in a moment.", title))
			return
		}
		pid = cs.pid
		delete(b.convs, id)
		for _, a := range slices.Clone(b.approvals) {
			if a.Conversation == id {
				b.dropApproval(a.ID)
			}
		}
	}
	logged := slices.ContainsFunc(b.sessions, func(s store.Session) bool { return s.ID == id })
	drop := func(s store.Session) bool { return s.ID == id }
	b.sessions = slices.DeleteFunc(b.sessions, drop)
	st := b.search()
	st.results = slices.DeleteFunc(st.results, drop)
	b.sessDirty = true
	if b.current == id {
		b.newChat(c, false)
	}
	if b.quick == id {
		// The quick prompt's (listed from its first question): the prompt
		// drops its answer, and the next question starts a new chat.
		b.quick, b.quickDirty = "", true
	}
	self, root, db, sys := c.Self(), c.ActorSystem().Root, b.db, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), manageTimeout)
		defer cancel()
		if pid != nil {
			// Once it has stopped, whatever it said is in the store
			// actor's mailbox, before the sync below.
			root.StopFuture(pid).Wait()
		}
		if db == nil {
			return
		}
		err := sys.SyncLog(ctx)
		if err == nil {
			err = db.DeleteSession(ctx, id)
		}
		if errors.Is(err, store.ErrNotFound) && !logged {
			err = nil // a chat of this run that never reached the log
		}
		root.Send(self, &sessionDeleted{id: id, title: title, err: err})
	}()
}

// deleteStopped deletes cs once its run has stopped, if the person chose
// Stop and delete.
func (b *bridge) deleteStopped(c actor.Context, cs *convState) {
	title, ok := b.deleting[cs.id]
	if !ok || cs.running {
		return
	}
	delete(b.deleting, cs.id)
	b.deleteSession(c, &sidebar.Delete{ID: cs.id, Title: title})
}

func (m *sessionDeleted) handleSidebar(b *bridge, c actor.Context) {
	switch {
	case errors.Is(m.err, store.ErrSessionRunning):
		// Another Deckhand is running it.
		b.notices = append(b.notices, fmt.Sprintf("“%s” is still working: stop it first, then delete it.", m.title))
	case m.err != nil:
		b.notices = append(b.notices, fmt.Sprintf("Could not delete “%s”: %v", m.title, m.err))
	default:
		b.ui.views.CloseConversation(m.id) // its cards' views go with it
	}
	// After a failure it is back, as the log has it; after a success, a
	// list read just before the delete does not bring it back.
	b.loadSessions(c)
}

// sessionTitle is a session's title as the sidebar shows it.
func (b *bridge) sessionTitle(id string) string {
	for _, s := range b.sidebar() {
		if s.ID == id {
			return s.Title
		}
	}
	return "Untitled"
}

// searchSessions filters the sidebar to the sessions whose title or
// messages hold every word of query; "" shows them all again.
func (b *bridge) searchSessions(c actor.Context, query string) {
	st := b.search()
	st.seq++
	st.asked = query
	if st.cancel != nil {
		st.cancel() // its answer would come too late to be shown
		st.cancel = nil
	}
	if len(store.SearchWords(query)) == 0 {
		b.showSearch("", nil)
		return
	}
	if b.db == nil {
		b.showSearch(query, nil) // only open conversations, by title
		return
	}
	b.runSearch(c)
}

// endSearch clears the sidebar's search: its box, and the list filtered
// to its matches.
func (b *bridge) endSearch(c actor.Context) {
	if st := b.search(); st.asked != "" || st.query != "" {
		b.searchSessions(c, "")
	}
	side := b.ui.side
	b.ui.post(side.ClearSearch)
}

// runSearch runs the search asked last, off the bridge; the matches come
// back as sessionsFound.
func (b *bridge) runSearch(c actor.Context) {
	st := b.search()
	st.seq++ // an answer to one asked before is stale
	self, root, db, sys, seq, query := c.Self(), c.ActorSystem().Root, b.db, b.sys, st.seq, st.asked
	ctx, cancel := context.WithTimeout(context.Background(), manageTimeout)
	if st.cancel != nil {
		st.cancel()
	}
	st.cancel = cancel
	go func() {
		defer cancel()
		sys.SyncLog(ctx) // the chats of this run are found too
		list, err := db.SearchSessions(ctx, query, 200)
		root.Send(self, &sessionsFound{seq: seq, query: query, list: list, err: err})
	}()
}

func (m *sessionsFound) handleSidebar(b *bridge, c actor.Context) {
	if m.seq != b.search().seq {
		return // the person has typed on since
	}
	b.search().cancel = nil
	if m.err != nil {
		b.notices = append(b.notices, "Could not search the sessions: "+m.err.Error())
		return
	}
	b.showSearch(m.query, m.list)
}

// showSearch makes the sidebar show the matches of query ("" all
// sessions). The window hears first whether it shows a search, to say
// "No chats match" rather than how to start one.
func (b *bridge) showSearch(query string, list []store.Session) {
	st := b.search()
	st.query, st.results = query, list
	b.sessDirty = true
	side := b.ui.side
	b.ui.post(func() { side.Searching(query) })
}

// matchesTitle reports whether title holds every word of query, as the
// log's search would find it.
func matchesTitle(title, query string) bool {
	t := strings.ToLower(title)
	for _, w := range store.SearchWords(query) {
		if !strings.Contains(t, w) {
			return false
		}
	}
	return true
}

// loadSessions reads the sessions from the log, off the actor; they come
// back as sessionsLoaded.
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
	if b.search().query != "" {
		b.runSearch(c) // its matches may have changed too
	}
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

// sidebar lists sessions: open conversations not yet in the log first, then
// the log's, most recent first. A conversation is a session once the person
// has written in it: the new chat they have not, and empty sessions an
// older Deckhand logged, are not listed.
//
// While the person searches, it lists the search's matches instead, and
// the open conversations not yet in the log whose titles match.
func (b *bridge) sidebar() []sidebar.Item {
	var out []sidebar.Item
	st := b.search()
	logged := b.sessions
	if st.query != "" {
		logged = st.results
	}
	seen := map[string]bool{}
	for _, s := range b.sessions {
		seen[s.ID] = true
	}
	for _, s := range st.results {
		seen[s.ID] = true
	}
	for id, cs := range b.convs {
		if !seen[id] && !cs.unsent() && (st.query == "" || matchesTitle(cs.title, st.query)) {
			out = append(out, sidebar.Item{ID: id, Title: cs.title, When: time.Now(), Usage: cs.usage, Run: cs.lastRun})
		}
	}
	slices.SortFunc(out, func(x, y sidebar.Item) int { return strings.Compare(y.ID, x.ID) })
	for _, s := range logged {
		cs := b.convs[s.ID]
		if s.Runs == 0 && (cs == nil || cs.unsent()) {
			continue
		}
		item := sidebar.Item{ID: s.ID, Title: oneLine(s.Title), When: s.Updated, Usage: s.Usage, Run: s.LastRun, Pinned: s.Pinned}
		if st.query != "" {
			item.Match, item.Query = s.Match, st.query
		}
		if cs != nil {
			item.Usage = cs.usage
			if cs.lastRun != "" {
				item.Run = cs.lastRun // this window ran it since the log was read
			}
		}
		if item.Title == "" {
			item.Title = "Untitled"
		}
		out = append(out, item)
	}
	for i := range out {
		out[i].Current = out[i].ID == b.current
	}
	slices.SortStableFunc(out, func(x, y sidebar.Item) int { return boolOrder(y.Pinned) - boolOrder(x.Pinned) })
	return out
}

// title is the current conversation's title, on one line.
func (b *bridge) title() string {
	if cs := b.convs[b.current]; cs != nil && cs.title != "" {
		return oneLine(cs.title)
	}
	for _, s := range b.sessions {
		if s.ID == b.current && s.Title != "" {
			return oneLine(s.Title)
		}
	}
	return "New chat"
}

// oneLine is a title as one line: a renamed session's title is the
// person's, but a label given newlines grows a line each.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Pinning a chat (its row's menu): the log keeps it (store.PinSession), so a
// pinned chat stays first after a restart.

type sessionPinned struct {
	id     string
	pinned bool
	err    error
}

func (b *bridge) pinSession(c actor.Context, m *sidebar.Pin) {
	if b.db == nil {
		b.notices = append(b.notices, "Could not pin the chat: this Deckhand keeps no log.")
		return
	}
	db := b.db
	b.afterSync(c, func(ctx context.Context, err error) any {
		if err == nil {
			err = db.PinSession(ctx, m.ID, m.Pinned)
		}
		return &sessionPinned{id: m.ID, pinned: m.Pinned, err: err}
	})
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
		b.searchSessions(c, st.query)
	}
}

func boolOrder(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Exporting a chat (its row's menu): the sidebar asked where, the bridge
// writes it (package export) off its goroutine.

type sessionExported struct {
	name, broken string
	others       int // versions of messages left out (export.Chat.OtherVersions)
	err          error
}

func (b *bridge) exportSession(c actor.Context, m *sidebar.Export) {
	if b.db == nil {
		m.W.Close()
		b.notices = append(b.notices, "Could not export the chat: this Deckhand keeps no log.")
		return
	}
	db := b.db
	b.afterSync(c, func(ctx context.Context, err error) any {
		var chat export.Chat
		if err == nil {
			chat, err = export.Load(ctx, db, m.ID)
		}
		if err == nil {
			// The person's own, as the log's files are (and `deckhand
			// sessions export -o`'s): the file dialog made it readable by
			// anyone (0644). Before a byte of the chat is in it.
			if m.Name != "" {
				if cerr := os.Chmod(m.Name, 0o600); cerr != nil && !errors.Is(cerr, fs.ErrNotExist) {
					err = cerr
				}
			}
		}
		if err == nil {
			err = export.Write(m.W, chat, m.Format)
		}
		if cerr := m.W.Close(); err == nil {
			err = cerr
		}
		return &sessionExported{name: m.Name, broken: chat.Broken, others: chat.OtherVersions(), err: err}
	})
}

func (m *sessionExported) handleSidebar(b *bridge, c actor.Context) {
	versions := ""
	switch {
	case m.others == 1:
		versions = " It holds the version of each message shown; 1 other version is left out (the file says so)."
	case m.others > 1:
		versions = fmt.Sprintf(" It holds the version of each message shown; %d other versions are left out (the file says so).", m.others)
	}
	switch {
	case m.err != nil:
		b.notices = append(b.notices, fmt.Sprintf("Could not export the chat to %s: %v", m.name, m.err))
	case m.broken != "":
		b.notices = append(b.notices, fmt.Sprintf("Exported to %s. Warning: %s (the export says so too).%s", m.name, m.broken, versions))
	default:
		// Done as asked: said, and logged as information, not a warning.
		text := "Exported to " + m.name + "." + versions
		b.ui.post(func() { b.ui.showInfo(text) })
	}
}

// sidebarHost is the window as the sidebar's host.
type sidebarHost struct{ u *UI }

func (h sidebarHost) Window() fyne.Window   { return h.u.win }
func (h sidebarHost) Tell(msg any)          { h.u.tell(msg) }
func (h sidebarHost) ShowServers()          { h.u.showPlace(h.u.showServers) }
func (h sidebarHost) ShowSettings()         { h.u.showPlace(h.u.showSettings) }
func (h sidebarHost) KeepFocus() func()     { return h.u.keepFocus() }
func (h sidebarHost) ShowError(text string) { h.u.showError(text) }
func (h sidebarHost) FocusInput() {
	h.u.focusInput()
	// Delete pressed next in the empty box is for the chat opened from
	// the list (gui/sidebar.Sidebar.AskDeleteOpened), as in the list.
	h.u.input.ArmDelete()
}
func (h sidebarHost) Post(f func()) { h.u.post(f) }

// NewChat (the button, Ctrl+N) gives the message box the keyboard at
// once: on the new chat already shown nothing changes on screen, and a
// box that had lost the keyboard did not get it back (what was typed
// next was lost).
func (h sidebarHost) NewChat() {
	h.u.toChat()
	h.u.tell(&uiNewChat{})
	h.u.focusInput()
}

func (h sidebarHost) Open(it sidebar.Item) {
	u := h.u
	u.toChat()
	if it.ID != u.conv {
		// A search's match: the chat opens at it, in the find bar.
		u.findOnOpen, u.findRun = it.Query, it.Match.Run
		u.tell(&uiOpenSession{id: it.ID})
	} else if it.Query != "" {
		u.chat.FindAt(it.Query, it.Match.Run)
	}
}

func (h sidebarHost) ClearSelection() {
	if h.u.chat != nil {
		h.u.chat.Sel.Clear()
	}
}

func (h sidebarHost) Shortcut(key fyne.KeyName) func() {
	if h.u.input == nil {
		return nil
	}
	return h.u.input.Shortcuts[key]
}
