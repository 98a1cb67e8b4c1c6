package gui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/store"
)

// sessionItem is one line of the sidebar.
type sessionItem struct {
	id, title string
	when      time.Time
	usage     store.Usage
	run       string // its last run's status (store.RunRunning, …), "" if none
	current   bool
	// match is where a search found its words (a snippet to show), and
	// query the search, to find in the chat when it opens.
	match  store.Match
	query  string
	pinned bool // listed first, marked (sidebar_pin.go)
}

func (s sessionItem) subtitle(now time.Time) string {
	out := ago(now.Sub(s.when))
	switch s.run {
	case store.RunRunning:
		out += " · working…"
	case store.RunInterrupted:
		out += " · interrupted" // its Deckhand stopped mid-run
	}
	if t := s.usage.InputTokens + s.usage.OutputTokens; t > 0 {
		mark := ""
		if s.usage.Estimated {
			mark = "~"
		}
		out += fmt.Sprintf(" · %s%s tokens", mark, store.Count(t))
	}
	if s.usage.CostUSD > 0 {
		out += fmt.Sprintf(" · $%.4f", s.usage.CostUSD)
	}
	return out
}

// ago says how long ago, the way a person would.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	case d < 14*24*time.Hour:
		return fmt.Sprintf("%d days ago", int(d.Hours()/24))
	}
	return time.Now().Add(-d).Format("2 Jan 2006")
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
func (b *bridge) sidebar() []sessionItem {
	var out []sessionItem
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
		if !seen[id] && !cs.quick && !cs.unsent() && (st.query == "" || matchesTitle(cs.title, st.query)) {
			out = append(out, sessionItem{id: id, title: cs.title, when: time.Now(), usage: cs.usage, run: cs.lastRun})
		}
	}
	slices.SortFunc(out, func(x, y sessionItem) int { return strings.Compare(y.id, x.id) })
	for _, s := range logged {
		cs := b.convs[s.ID]
		if s.Runs == 0 && (cs == nil || cs.unsent()) {
			continue
		}
		item := sessionItem{id: s.ID, title: oneLine(s.Title), when: s.Updated, usage: s.Usage, run: s.LastRun, pinned: s.Pinned}
		if st.query != "" {
			item.match, item.query = s.Match, st.query
		}
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
	slices.SortStableFunc(out, func(x, y sessionItem) int { return boolOrder(y.pinned) - boolOrder(x.pinned) })
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

// newSidebar makes the sidebar: New chat, the sessions, and the buttons
// to the servers and settings.
func (u *UI) newSidebar() fyne.CanvasObject {
	newChat := widget.NewButtonWithIcon("New chat", theme.ContentAddIcon(), func() { u.toChat(); u.tell(&uiNewChat{}) })
	newChat.Importance = widget.HighImportance
	side := newSidebarSide(u)
	u.side = side
	list := &sessionsList{side: side}
	list.Length = func() int { return len(u.sessions) }
	list.CreateItem = func() fyne.CanvasObject {
		r := newSessionRow(side)
		side.rows = append(side.rows, r)
		return r
	}
	list.UpdateItem = func(i widget.ListItemID, o fyne.CanvasObject) {
		if i < len(u.sessions) {
			o.(*sessionRow).set(u.sessions[i])
		}
	}
	list.ExtendBaseWidget(list)
	side.list, u.sessionList = list, &list.List
	list.OnHighlighted = func(i widget.ListItemID) { list.highlight = i }
	u.sessionList.OnSelected = func(i widget.ListItemID) {
		if u.selecting || i >= len(u.sessions) {
			return
		}
		u.toChat()
		if it := u.sessions[i]; it.id != u.conv {
			u.findOnOpen, u.findRun = it.query, it.match.Run
			u.tell(&uiOpenSession{id: it.id})
		}
	}
	u.noSessions = container.NewVBox(side.hintObj)
	serversBtn := widget.NewButtonWithIcon("Servers", theme.StorageIcon(), u.showServers)
	settingsBtn := widget.NewButtonWithIcon("Settings", theme.SettingsIcon(), u.showSettings)
	// Tab goes top to bottom: New chat, the search box, the list, Servers,
	// Settings. (NewBorder puts the middle first, which Tab would skip from
	// the search box.)
	top := container.NewVBox(container.NewPadded(newChat), container.NewPadded(side.search))
	bottom := container.NewVBox(widget.NewSeparator(), serversBtn, settingsBtn)
	return container.New(layout.NewBorderLayout(top, bottom, nil, nil), top, container.NewStack(list, u.noSessions), bottom)
}

// tightVBox stacks objects with no padding between them (a title and its
// caption).
type tightVBox struct{}

func (tightVBox) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h - theme.Padding()
	}
}

func (tightVBox) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height - theme.Padding()
	}
	return s.AddWidthHeight(0, theme.Padding())
}
