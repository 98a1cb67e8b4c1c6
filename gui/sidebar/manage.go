package sidebar

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/export"
	"deckhand/gui/widgets"
	"deckhand/store"
)

// The sidebar's management of sessions: a search box over the list, and
// pinning, exporting, renaming and deleting a session, from its row's
// menu (secondary tap) or, while the list has the focus, with F2 and
// Delete.

// searchDelay is how long typing pauses before the search runs.
const searchDelay = 200 * time.Millisecond

// Texts of the sidebar's empty list.
const (
	HintNoSessions = "Your chats are listed here\nonce you send a message."
	HintNoMatch    = "No chats match" // the window says chats, not sessions
)

// typed asks for the search once typing pauses; an empty box shows every
// session at once.
func (s *Sidebar) typed(query string) {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if len(store.SearchWords(query)) == 0 {
		s.host.Tell(&Search{Query: ""})
		return
	}
	host := s.host
	s.timer = time.AfterFunc(searchDelay, func() { host.Tell(&Search{Query: query}) })
}

// ClearSearch empties the search box, and so shows every chat again.
func (s *Sidebar) ClearSearch() {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if s.Search.Text != "" {
		s.Search.SetText("")
	}
}

// Searching says which search's matches the list shows ("" none, every
// chat); the bridge calls it just before the frame that shows them. A
// search other than the one shown puts the list's keyboard on its first
// result when its matches come (show).
func (s *Sidebar) Searching(query string) {
	if query != "" {
		s.hint.SetText(HintNoMatch)
	} else {
		s.hint.SetText(HintNoSessions)
	}
	if query != s.query {
		s.query, s.newResults = query, true
	}
}

// selected is the session the list has selected (the current one), if
// listed.
func (s *Sidebar) selected() (Item, bool) {
	for _, it := range s.Items {
		if it.Current {
			return it, true
		}
	}
	return Item{}, false
}

// AskDeleteOpened asks, as Delete in the list does, whether to delete
// the chat last opened from the list (a click on it gave the message box
// the keyboard, and Delete pressed next in the empty box is for the
// chat); false when it is not listed any more. The chat is the one
// clicked, not the one the list shows open: the list learns which is
// open a moment after the click.
func (s *Sidebar) AskDeleteOpened() bool {
	i := slices.IndexFunc(s.Items, func(it Item) bool { return it.ID == s.opened })
	if s.opened == "" || i < 0 {
		return false
	}
	s.askDelete(s.Items[i])
	return true
}

// open opens the session at index i of the list (if it is not the one
// open already), and shows it selected.
func (s *Sidebar) open(i widget.ListItemID) {
	if i < 0 || i >= len(s.Items) {
		return
	}
	s.host.Open(s.Items[i])
	s.opened, s.fresh = s.Items[i].ID, false
	s.selecting = true
	s.List.Select(i)
	s.selecting = false
	s.List.highlight = i
}

// showMenu shows a session's menu where the person tapped.
func (s *Sidebar) showMenu(item Item, at fyne.Position) { s.popMenu(item, at, false) }

// menuFromKeys shows the menu of the chat the list's keyboard is on
// (Shift+F10 or the Menu key), under its row, as a right-click on it
// would: Fyne's pop-up menu takes the keyboard (Up, Down, Enter, Escape),
// and gives it back to the list when it closes. Pin and Export had no
// key at all.
func (s *Sidebar) menuFromKeys() {
	i := s.List.highlight
	if i < 0 || i >= len(s.Items) {
		i = slices.IndexFunc(s.Items, func(it Item) bool { return it.Current })
	}
	if i < 0 {
		return
	}
	s.List.ScrollTo(i)
	drv := fyne.CurrentApp().Driver()
	at := drv.AbsolutePositionForObject(s.List).AddXY(theme.Padding(), theme.Padding())
	for _, r := range s.rows {
		if r.index == i && r.seen == s.epoch && r.item.ID == s.Items[i].ID {
			at = drv.AbsolutePositionForObject(r).AddXY(2*theme.Padding(), r.Size().Height)
		}
	}
	s.popMenu(s.Items[i], at, true)
}

// popMenu shows a session's menu at at; keys: opened by the keyboard,
// which goes back to the list when the menu closes.
func (s *Sidebar) popMenu(item Item, at fyne.Position, keys bool) {
	pin := fyne.NewMenuItem("Pin", func() { s.host.Tell(&Pin{ID: item.ID, Pinned: true}) })
	if item.Pinned {
		pin = fyne.NewMenuItem("Unpin", func() { s.host.Tell(&Pin{ID: item.ID}) })
	}
	menu := fyne.NewMenu("",
		pin,
		fyne.NewMenuItem("Export as Markdown…", func() { s.askExport(item, export.Markdown) }),
		fyne.NewMenuItem("Export as JSON…", func() { s.askExport(item, export.JSON) }),
		fyne.NewMenuItem("Rename…", func() { s.askRename(item) }),
		fyne.NewMenuItem("Delete…", func() { s.askDelete(item) }),
	)
	for i, it := range menu.Items {
		act := it.Action
		it.Action = func() {
			s.menuChose(i)
			act()
		}
	}
	s.MenuItems = menu
	s.Menu = widget.NewPopUpMenu(menu, s.host.Window().Canvas())
	hide := s.Menu.OnDismiss
	s.Menu.OnDismiss = func() {
		s.menuClosing() // before it goes, with its items' places
		hide()
		if keys {
			// Not the pointer's: the list needn't hold still for it.
			s.pointing = 0
			s.host.Post(s.release)
			s.host.Window().Canvas().Focus(s.List)
		}
	}
	s.Menu.ShowAtPosition(at)
}

// askRename opens the rename dialog, its entry holding the title.
func (s *Sidebar) askRename(item Item) {
	var d *dialog.FormDialog
	back := s.host.KeepFocus()
	entry := widgets.NewEscEntry(func() { d.Hide() }) // Escape cancels
	entry.SetText(item.Title)
	entry.Validator = func(t string) error {
		_, err := store.CleanTitle(t)
		return err
	}
	entry.AlwaysShowValidationError = true // as it is typed, not once the focus leaves
	win := s.host.Window()
	d = dialog.NewForm("Rename chat", "Rename", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Title", entry)},
		func(ok bool) {
			s.Rename, s.Title = nil, nil
			back()
			if ok {
				s.host.Tell(&Rename{ID: item.ID, Title: entry.Text})
			}
		}, win)
	entry.OnSubmitted = func(string) { d.Submit() }
	s.Rename, s.Title = d, &entry.Entry
	d.Resize(fyne.NewSize(420, d.MinSize().Height))
	// The entry takes Enter and Escape while it has the keyboard; the
	// window's keys do the same when a click in the dialog took it away.
	widgets.WithDialogKeys(d, win, d.Submit, d.Hide)
	win.Canvas().Focus(entry)
	entry.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// askDelete asks before deleting a session. One still working is
// offered Stop and delete: the bridge stops its run and deletes it once
// stopped. (A notice that said to stop it first let Escape through to the
// message box behind, which stopped the run and left the notice up.)
func (s *Sidebar) askDelete(item Item) {
	back := s.host.KeepFocus()
	title, msg, verb := "Delete chat",
		fmt.Sprintf("Delete “%s”? Its messages and tool results are removed from this computer's log; usage totals of other sessions are kept.", item.Title),
		"Delete"
	stop := item.Run == store.RunRunning
	if stop {
		title, verb = "Chat still working", "Stop and delete"
		msg = fmt.Sprintf("“%s” is still working. Stop it and delete it? Its messages and tool results are removed from this computer's log.", item.Title)
	}
	s.Delete = widgets.ConfirmDanger(title, msg, verb, func(ok bool) {
		s.Delete = nil
		back()
		if ok {
			s.host.Tell(&Delete{ID: item.ID, Title: item.Title, Stop: stop})
		}
	}, s.host.Window())
}

// askExport asks where to export the chat, in format; the bridge writes
// it (package export) off its goroutine.
func (s *Sidebar) askExport(item Item, format string) {
	back := s.host.KeepFocus()
	win := s.host.Window()
	var d *dialog.FileDialog
	restore, shown := widgets.FileDialogKeys(win, func() { d.Dismiss() })
	d = dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		// The keys go back first: Fyne calls this before its OnClosed
		// when it asked Overwrite?, after it otherwise.
		restore()
		back()
		if err != nil {
			s.host.ShowError("Could not export the chat: " + err.Error())
			return
		}
		if w == nil {
			return // cancelled
		}
		s.host.Tell(&Export{ID: item.ID, Format: format, Name: w.URI().Path(), W: w})
	}, win)
	d.SetOnClosed(restore)
	ext := ".md"
	if format == export.JSON {
		ext = ".json"
	}
	d.SetFileName(fileName(item.Title) + ext)
	d.SetFilter(storage.NewExtensionFileFilter([]string{ext}))
	d.Show()
	shown()
	d.Resize(win.Canvas().Size()) // after Show: before, it has no window to measure
}

// fileName is a chat's title as a file name: no separators, at most 60
// characters.
func fileName(title string) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) || r < ' ' {
			return '-'
		}
		return r
	}, strings.Join(strings.Fields(title), " "))
	if r := []rune(name); len(r) > 60 {
		name = string(r[:60])
	}
	if strings.Trim(name, ". -") == "" {
		name = "chat"
	}
	return name
}

// List is the sidebar's list. With the focus, the arrows move to a
// session and open it, Enter (or Space) opens the highlighted one and
// gives the message box the keyboard, F2 renames and Delete (or
// Backspace) deletes the open one, Shift+F10 or the Menu key opens its
// menu.
type List struct {
	widget.List
	side      *Sidebar
	highlight widget.ListItemID // where the keyboard is (Fyne keeps its own unexported)
	focused   bool
	// shift: a Shift key is down. Fyne gives F10 to TypedKey with no
	// modifiers (Shift alone makes no shortcut), so the list hears Shift
	// itself (desktop.Keyable).
	shift bool
}

var _ desktop.Keyable = (*List)(nil)

func (l *List) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		l.shift = true
	}
}

func (l *List) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		l.shift = false
	}
}

// CreateRenderer is the list's with a ring while it has the keyboard:
// Fyne marks the focused row with the hover colour, except on the row
// selected (the open chat, where Tab lands), which keeps its selection's.
// Tab onto the list showed no mark at all.
func (l *List) CreateRenderer() fyne.WidgetRenderer {
	// The ring outermost: the focus test (and the screen dump) look for it on
	// the renderer Fyne holds.
	return widgets.NewRing(l, &rowsRenderer{WidgetRenderer: l.List.CreateRenderer(), side: l.side}, func() bool { return l.focused })
}

// FocusGained puts the list's keyboard on the open chat: Fyne keeps it
// where it last was (a row clicked or moved to), and a chat opened another
// way (New chat, the search, Ctrl+K) left it on another row, so Tab into
// the list and Shift+F10 acted on a chat not open (new-user pass 11). A
// search's fresh results, none opened from the list yet, take it on their
// first (Tab from the search box, then Enter, opens the best match).
func (l *List) FocusGained() {
	l.focused = true
	if l.side.fresh && len(l.side.Items) > 0 {
		l.List.Highlight(0)
	} else if i := slices.IndexFunc(l.side.Items, func(it Item) bool { return it.Current }); i >= 0 {
		l.List.Highlight(i)
	}
	l.List.FocusGained()
	l.Refresh()
}

func (l *List) FocusLost() {
	l.focused, l.shift = false, false
	l.List.FocusLost()
	l.Refresh()
}

func (l *List) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyUp, fyne.KeyDown:
		l.List.TypedKey(k)
		l.side.open(l.highlight)
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		// Opened to type in: the message box takes the keyboard (Up and
		// Down leave it in the list, to go on through the chats).
		l.side.open(l.highlight)
		l.side.host.FocusInput()
	case fyne.KeyF2:
		if it, ok := l.side.selected(); ok {
			l.side.askRename(it)
		}
	case fyne.KeyDelete, fyne.KeyBackspace: // a Mac's Delete is Backspace
		if it, ok := l.side.selected(); ok {
			l.side.askDelete(it)
		}
	case desktop.KeyMenu:
		l.side.menuFromKeys()
	case fyne.KeyF10:
		if l.shift {
			l.side.menuFromKeys()
		}
	default:
		l.List.TypedKey(k)
	}
}

// SearchEntry is the search box: Escape clears it, and the window's
// shortcuts (Ctrl+N, Ctrl+K, Ctrl+,) work in it as in the message box.
type SearchEntry struct {
	widgets.EscEntry
	host Host
}

func newSearchEntry(host Host) *SearchEntry {
	e := &SearchEntry{host: host}
	e.ExtendBaseWidget(e)
	return e
}

// MouseDown: a click in the search box is a click elsewhere than the
// transcript, and clears its selection.
func (e *SearchEntry) MouseDown(m *desktop.MouseEvent) {
	e.host.ClearSelection()
	e.EscEntry.MouseDown(m)
}

func (e *SearchEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault {
		if f := e.host.Shortcut(cs.KeyName); f != nil {
			f()
			return
		}
	}
	e.Entry.TypedShortcut(s)
}

// Highlighted is the row the list's keyboard is on (where Enter opens),
// for tests.
func (s *Sidebar) Highlighted() int { return s.List.highlight }
