// Package sidebar is the main window's left column: New chat, the search
// box over the sessions, the list of sessions (pinned first, a search's
// matches with their snippets while one runs) with each row's menu (pin,
// export, rename, delete) and its keys, and the buttons to the servers
// and the settings.
//
// The window (package gui) is the Host: it hands in the list the bridge
// made, once per frame (Set), and passes the sidebar's Ask messages on to
// the bridge, which does the work (the log is read and written off its
// goroutine) and sends the list again. The sidebar never sees the bridge.
//
// Concurrency: everything here belongs to the UI goroutine. The search
// waits for typing to pause on a timer, whose function only tells the
// Host (Host.Tell is safe from any goroutine).
package sidebar

import (
	"fmt"
	"io"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/store"
)

// Host is the window the sidebar is in (package gui's UI).
type Host interface {
	// Window is the main window.
	Window() fyne.Window
	// Tell sends the bridge a message (an Ask). Safe from any goroutine.
	Tell(msg any)
	// NewChat brings the chat back and starts a new one.
	NewChat()
	// Open brings the chat back and opens the session (at its search's
	// match, in the find bar, if it has one), or finds the match in the
	// one open.
	Open(it Item)
	// ShowServers and ShowSettings open the servers panel and the
	// settings.
	ShowServers()
	ShowSettings()
	// KeepFocus notes where the keyboard is before a dialog takes it; the
	// function returned puts it back.
	KeepFocus() func()
	// ShowError tells the person of a problem.
	ShowError(text string)
	// FocusInput gives the message box the keyboard.
	FocusInput()
	// ClearSelection clears the transcript's selection (a press
	// elsewhere).
	ClearSelection()
	// Post runs f on the UI goroutine, after the event being handled.
	Post(f func())
	// Shortcut is the window's Ctrl+key shortcut for key, or nil.
	Shortcut(key fyne.KeyName) func()
}

// Item is one line of the sidebar.
type Item struct {
	ID, Title string
	When      time.Time
	Usage     store.Usage
	Run       string // its last run's status (store.RunRunning, …), "" if none
	Current   bool
	// Match is where a search found its words (a snippet to show), and
	// Query the search, to find in the chat when it opens.
	Match  store.Match
	Query  string
	Pinned bool // listed first, marked with PinMark
}

// PinMark is what a pinned chat's title begins with in the sidebar.
const PinMark = "📌 "

// Subtitle is the caption under its title: when, how it ended, tokens
// and cost.
func (s Item) Subtitle(now time.Time) string {
	out := ago(now.Sub(s.When))
	switch s.Run {
	case store.RunRunning:
		out += " · working…"
	case store.RunInterrupted:
		out += " · interrupted" // its Deckhand stopped mid-run
	}
	if t := s.Usage.InputTokens + s.Usage.OutputTokens; t > 0 {
		mark := ""
		if s.Usage.Estimated {
			mark = "~"
		}
		out += fmt.Sprintf(" · %s%s tokens", mark, store.Count(t))
	}
	if s.Usage.CostUSD > 0 {
		out += fmt.Sprintf(" · $%.4f", s.Usage.CostUSD)
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
		days := int(d.Hours() / 24)
		return fmt.Sprintf("%d %s ago", days, widgets.Plural(days, "day", "days"))
	}
	return time.Now().Add(-d).Format("2 Jan 2006")
}

// Ask is a message from the sidebar to the bridge, through Host.Tell.
type Ask interface{ ask() }

// The sidebar's messages to the bridge.
type (
	// Rename gives a session the title the person typed.
	Rename struct{ ID, Title string }
	// Delete deletes a session the person confirmed deleting; Title is how
	// the sidebar showed it. Stop: the person chose Stop and delete, for
	// a session still working; its run is stopped first.
	Delete struct {
		ID, Title string
		Stop      bool
	}
	// Search filters the sidebar to the sessions whose title or messages
	// hold every word of Query; "" shows them all again.
	Search struct{ Query string }
	// Pin pins (or unpins) a session; the log keeps it.
	Pin struct {
		ID     string
		Pinned bool
	}
	// Export writes session ID to W in Format (export.Markdown or
	// export.JSON); Name is where, for the person.
	Export struct {
		ID, Format, Name string
		W                io.WriteCloser
	}
)

func (*Rename) ask() {}
func (*Delete) ask() {}
func (*Search) ask() {}
func (*Pin) ask()    {}
func (*Export) ask() {}

// Sidebar is the window's left column. Its fields belong to the UI
// goroutine.
type Sidebar struct {
	host    Host
	content fyne.CanvasObject
	// Items are the sessions listed, as last Set.
	Items []Item
	// List is the sessions' list, Search the search box over it.
	List       *List
	Search     *SearchEntry
	selecting  bool              // the list's selection is being set, not chosen
	opened     string            // the chat last opened from the list (open), by ID
	noSessions fyne.CanvasObject // in the list's place while it is empty
	rows       []*Row            // the rows the list shows (rows.go)
	tmpl       *Row              // the row the list measures at each full refresh
	template   bool              // the next CreateItem is that refresh's template
	epoch      uint64            // counts the list's full refreshes
	hint       *widget.Label     // what the empty list says
	hintObj    fyne.CanvasObject
	timer      *time.Timer // the search waiting for typing to pause
	measure    *Row        // measures a row with and without a snippet
	sized      int         // how many indices of the list were given heights (row.go)
	// The order held while the person points at the list (hold.go):
	// pointing, the pointer is on it (1) or not (0); latest, the
	// bridge's last list, shown in its order once the list lets go.
	pointing int
	latest   []Item
	menuOff  []bool // the menu's items that lay off the list as it went
	// The search the list shows the matches of ("" none), as the bridge
	// last said (Searching); newResults: the next list shown is its
	// matches, another search's than those shown; fresh: the list shows a
	// search's matches, none opened from the list since they came.
	query      string
	newResults bool
	fresh      bool

	// The row menu and dialogs shown, for tests.
	MenuItems *fyne.Menu
	Menu      *widget.PopUpMenu
	Rename    *dialog.FormDialog
	Title     *widget.Entry // the rename dialog's entry
	Delete    *dialog.ConfirmDialog
}

// New makes the sidebar: New chat, the sessions, and the buttons to the
// servers and settings.
func New(host Host) *Sidebar {
	s := &Sidebar{host: host}
	s.Search = newSearchEntry(host)
	s.Search.SetPlaceHolder("Search chats")
	s.Search.OnChanged = s.typed
	s.Search.OnEscape = func() { s.Search.SetText("") }
	s.hint, s.hintObj = widgets.Caption(HintNoSessions)

	// A ring shows its focus: Fyne's tint of the accent fill is the
	// accent itself.
	newChat := widgets.NewRingButtonWithIcon("New chat", theme.ContentAddIcon(), host.NewChat)
	newChat.Importance = widget.HighImportance
	list := &List{side: s}
	list.Length = func() int { return len(s.Items) }
	list.CreateItem = s.createRow
	list.UpdateItem = func(i widget.ListItemID, o fyne.CanvasObject) { s.updateRow(i, o.(*Row)) }
	list.ExtendBaseWidget(list)
	s.List = list
	list.OnHighlighted = func(i widget.ListItemID) { list.highlight = i }
	list.OnSelected = func(i widget.ListItemID) {
		if s.selecting || i >= len(s.Items) {
			return
		}
		host.Open(s.Items[i])
	}
	s.noSessions = container.NewVBox(s.hintObj)
	serversBtn := widget.NewButtonWithIcon("Servers", theme.StorageIcon(), host.ShowServers)
	settingsBtn := widget.NewButtonWithIcon("Settings", theme.SettingsIcon(), host.ShowSettings)
	// Tab goes top to bottom: New chat, the search box, the list, Servers,
	// Settings. (NewBorder puts the middle first, which Tab would skip from
	// the search box.)
	top := container.NewVBox(container.NewPadded(newChat), container.NewPadded(s.Search))
	bottom := container.NewVBox(widget.NewSeparator(), serversBtn, settingsBtn)
	s.content = container.New(layout.NewBorderLayout(top, bottom, nil, nil), top, container.NewStack(newListGaps(s), list, s.noSessions), bottom)
	return s
}

// Object is the sidebar, to lay out in the window.
func (s *Sidebar) Object() fyne.CanvasObject { return s.content }

// Set shows items (the bridge's list), the current one selected; in the
// order the list shows while the person points at it (hold.go).
func (s *Sidebar) Set(items []Item) {
	s.latest = items
	if s.holding() {
		items = s.keepOrder(items)
	}
	s.show(items)
}

// show shows items, in their order. The keyboard's place in the list
// (its highlight) stays on its chat when the chat moves (pinned, or a
// message came): it stayed at the index, and Shift+F10 then opened the
// menu of the chat that took its place. A new search's matches take it
// on their first, and a chat no longer listed leaves it on the open one
// (else the first): it stayed at its index, and Enter in a search's
// matches opened the one at the index the keyboard had before the search
// (or, past their end, nothing; new-user pass 15, N2).
func (s *Sidebar) show(items []Item) {
	var on string
	if h := s.List.highlight; h >= 0 && h < len(s.Items) {
		on = s.Items[h].ID
	}
	s.Items = items
	at := -1 // where the keyboard goes
	if on != "" {
		at = slices.IndexFunc(items, func(it Item) bool { return it.ID == on })
	}
	if s.newResults {
		s.newResults, s.fresh = false, s.query != ""
		at = -1
		if s.fresh {
			at = 0
		}
	}
	if at < 0 {
		at = max(slices.IndexFunc(items, func(it Item) bool { return it.Current }), 0)
	}
	if len(items) > 0 && at != s.List.highlight {
		// Fyne's Highlight scrolls to the row: the list stays where it
		// is. New chats pushed the chat the keyboard was on down and out
		// of sight, the list followed it, and the open chat's selection
		// below scrolled back only to that chat, one row short of the top
		// (the pinned chat hidden).
		off := s.List.GetScrollOffset()
		s.List.Highlight(at)
		s.List.ScrollToOffset(off)
	}
	s.selecting = true
	s.List.UnselectAll()
	before := s.List.GetScrollOffset()
	for i, it := range items {
		if it.Current {
			s.List.Select(i)
		}
	}
	// The selection scrolls the list up to the open chat when it was
	// above the view, and no further: a chat just pinned, now above the
	// open one, stayed hidden a row above. Less than half the list hidden
	// above it, the list shows its top.
	if off := s.List.GetScrollOffset(); off < before && off > 0 && off <= s.List.Size().Height/2 {
		s.List.ScrollToTop()
	}
	s.selecting = false
	s.setHeights(items)
	s.List.Refresh()
	widgets.SetVisible(s.noSessions, len(items) == 0)
}
