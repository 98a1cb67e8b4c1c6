package gui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/store"
)

// The sidebar's messages to the bridge (rename, delete, search) and the
// answers of the work they start off the bridge's goroutine. The bridge's
// Receive hands each over with one case.

// sidebarMsg is a message of the sidebar's; handleSidebar runs on the bridge.
type sidebarMsg interface {
	handleSidebar(b *bridge, c actor.Context)
}

// uiRenameSession gives a session the title the person typed.
type uiRenameSession struct{ id, title string }

// uiDeleteSession deletes a session the person confirmed deleting; title
// is how the sidebar showed it.
type uiDeleteSession struct{ id, title string }

// uiSearchSessions filters the sidebar to the sessions whose title or
// messages hold every word of query; "" shows them all again.
type uiSearchSessions struct{ query string }

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

// search is the bridge's search state. Window and bridge are made
// together (New, then Start), so it is there before any message.
func (b *bridge) search() *sidebarSearch { return &b.ui.side.bridge }

func (m *uiRenameSession) handleSidebar(b *bridge, c actor.Context) {
	title, err := store.CleanTitle(m.title)
	if err != nil {
		b.notices = append(b.notices, "Could not rename the session: "+err.Error()+".")
		return
	}
	var old string
	if cs := b.convs[m.id]; cs != nil {
		old, cs.title = cs.title, title
	}
	st := b.search()
	for _, list := range [][]store.Session{b.sessions, st.results} {
		for i := range list {
			if list[i].ID == m.id {
				list[i].Title = title
			}
		}
	}
	b.sessDirty = true
	if b.db == nil {
		return // this run's conversations only: the window holds the title
	}
	self, root, db, sys := c.Self(), c.ActorSystem().Root, b.db, b.sys
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), manageTimeout)
		defer cancel()
		// The session's row must be on disk: a chat written in a moment
		// ago may still be in the store actor's batch.
		err := sys.SyncLog(ctx)
		if err == nil {
			err = db.RenameSession(ctx, m.id, title)
		}
		root.Send(self, &sessionRenamed{id: m.id, title: title, old: old, err: err})
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

// handleSidebar deletes a session: its conversation, if open, is stopped and
// forgotten first (so that nothing more is logged for it), then the log
// forgets it. The current one gives way to a new chat. A session still
// running is refused: the person stops it first.
func (m *uiDeleteSession) handleSidebar(b *bridge, c actor.Context) {
	title := m.title
	if title == "" {
		title = b.sessionTitle(m.id)
	}
	var pid *actor.PID
	if cs := b.convs[m.id]; cs != nil {
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
		delete(b.convs, m.id)
		for _, a := range slices.Clone(b.approvals) {
			if a.Conversation == m.id {
				b.dropApproval(a.ID)
			}
		}
	}
	logged := slices.ContainsFunc(b.sessions, func(s store.Session) bool { return s.ID == m.id })
	drop := func(s store.Session) bool { return s.ID == m.id }
	b.sessions = slices.DeleteFunc(b.sessions, drop)
	st := b.search()
	st.results = slices.DeleteFunc(st.results, drop)
	b.sessDirty = true
	if b.current == m.id {
		b.newChat(c, false)
	}
	if b.quick == m.id {
		// The quick prompt's (listed once the log has it): the prompt
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
			err = db.DeleteSession(ctx, m.id)
		}
		if errors.Is(err, store.ErrNotFound) && !logged {
			err = nil // a chat of this run that never reached the log
		}
		root.Send(self, &sessionDeleted{id: m.id, title: title, err: err})
	}()
}

func (m *sessionDeleted) handleSidebar(b *bridge, c actor.Context) {
	switch {
	case errors.Is(m.err, store.ErrSessionRunning):
		// Another Deckhand is running it.
		b.notices = append(b.notices, fmt.Sprintf("“%s” is still working: stop it first, then delete it.", m.title))
	case m.err != nil:
		b.notices = append(b.notices, fmt.Sprintf("Could not delete “%s”: %v", m.title, m.err))
	}
	// After a failure it is back, as the log has it; after a success, a
	// list read just before the delete does not bring it back.
	b.loadSessions(c)
}

// sessionTitle is a session's title as the sidebar shows it.
func (b *bridge) sessionTitle(id string) string {
	for _, s := range b.sidebar() {
		if s.id == id {
			return s.title
		}
	}
	return "Untitled"
}

func (m *uiSearchSessions) handleSidebar(b *bridge, c actor.Context) {
	st := b.search()
	st.seq++
	st.asked = m.query
	if st.cancel != nil {
		st.cancel() // its answer would come too late to be shown
		st.cancel = nil
	}
	if len(store.SearchWords(m.query)) == 0 {
		b.showSearch("", nil)
		return
	}
	if b.db == nil {
		b.showSearch(m.query, nil) // only open conversations, by title
		return
	}
	b.runSearch(c)
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
// "No sessions match" rather than how to start one.
func (b *bridge) showSearch(query string, list []store.Session) {
	st := b.search()
	st.query, st.results = query, list
	b.sessDirty = true
	side, searching := b.ui.side, query != ""
	b.ui.post(func() { side.searching(searching) })
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
