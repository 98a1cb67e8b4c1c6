package gui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/export"
	"deckhand/gui/widgets"
	"deckhand/store"
)

// The sidebar's management of sessions: a search box over the list, and
// pinning, exporting (sidebar_pin.go, sidebar_export.go), renaming and
// deleting a session, from its row's menu (secondary tap) or,
// while the list has the focus, with F2 and Delete.

// searchDelay is how long typing pauses before the search runs.
const searchDelay = 200 * time.Millisecond

// Texts of the sidebar's empty list.
const (
	hintNoSessions = "Your chats are listed here\nonce you send a message."
	hintNoMatch    = "No sessions match"
)

// sidebarSide is the state of the sidebar's search, rename and delete.
// Its fields belong to the UI goroutine, but for bridge, which belongs to
// the bridge's.
type sidebarSide struct {
	u       *UI
	list    *sessionsList
	rows    []*sessionRow // every row the list made (it recycles them)
	search  *searchEntry
	hint    *widget.Label // what the empty list says
	hintObj fyne.CanvasObject
	timer   *time.Timer // the search waiting for typing to pause
	measure *sessionRow // measures a row with and without a snippet
	sized   bool        // rows were given heights of their own

	menuItems *fyne.Menu            // its items
	menu      *widget.PopUpMenu     // the row menu shown, for tests
	rename    *dialog.FormDialog    // the rename dialog shown
	title     *widget.Entry         // its entry
	del       *dialog.ConfirmDialog // the delete confirmation shown

	bridge sidebarSearch
}

func newSidebarSide(u *UI) *sidebarSide {
	s := &sidebarSide{u: u}
	s.search = newSearchEntry(u)
	s.search.SetPlaceHolder("Search chats")
	s.search.OnChanged = s.typed
	s.search.OnEscape = func() { s.search.SetText("") }
	s.hint, s.hintObj = widgets.Caption(hintNoSessions)
	return s
}

// typed asks for the search once typing pauses; an empty box shows every
// session at once.
func (s *sidebarSide) typed(query string) {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if len(store.SearchWords(query)) == 0 {
		s.u.tell(&uiSearchSessions{query: ""})
		return
	}
	u := s.u
	s.timer = time.AfterFunc(searchDelay, func() { u.tell(&uiSearchSessions{query: query}) })
}

// searching says whether the list shows a search's matches; called by the
// bridge just before the frame that shows them.
func (s *sidebarSide) searching(yes bool) {
	if yes {
		s.hint.SetText(hintNoMatch)
	} else {
		s.hint.SetText(hintNoSessions)
	}
}

// selected is the session the list has selected (the current one), if
// listed.
func (s *sidebarSide) selected() (sessionItem, bool) {
	for _, it := range s.u.sessions {
		if it.current {
			return it, true
		}
	}
	return sessionItem{}, false
}

// open opens the session at index i of the list (if it is not the one
// open already), and shows it selected.
func (s *sidebarSide) open(i widget.ListItemID) {
	u := s.u
	if i < 0 || i >= len(u.sessions) {
		return
	}
	u.toChat()
	if it := u.sessions[i]; it.id != u.conv {
		// A search's match: the chat opens at it, in the find bar.
		u.findOnOpen, u.findRun = it.query, it.match.Run
		u.tell(&uiOpenSession{id: it.id})
	} else if it.query != "" {
		u.findAt(it.query, it.match.Run)
	}
	u.selecting = true
	u.sessionList.Select(i)
	u.selecting = false
	s.list.highlight = i
}

// showMenu shows a session's menu where the person tapped.
func (s *sidebarSide) showMenu(item sessionItem, at fyne.Position) {
	pin := fyne.NewMenuItem("Pin", func() { s.u.tell(&uiPinSession{id: item.id, pinned: true}) })
	if item.pinned {
		pin = fyne.NewMenuItem("Unpin", func() { s.u.tell(&uiPinSession{id: item.id}) })
	}
	menu := fyne.NewMenu("",
		pin,
		fyne.NewMenuItem("Export as Markdown…", func() { s.askExport(item, export.Markdown) }),
		fyne.NewMenuItem("Export as JSON…", func() { s.askExport(item, export.JSON) }),
		fyne.NewMenuItem("Rename…", func() { s.askRename(item) }),
		fyne.NewMenuItem("Delete…", func() { s.askDelete(item) }),
	)
	s.menuItems = menu
	s.menu = widget.NewPopUpMenu(menu, s.u.win.Canvas())
	s.menu.ShowAtPosition(at)
}

// askRename opens the rename dialog, its entry holding the title.
func (s *sidebarSide) askRename(item sessionItem) {
	var d *dialog.FormDialog
	back := s.u.keepFocus()
	entry := widgets.NewEscEntry(func() { d.Hide() }) // Escape cancels
	entry.SetText(item.title)
	entry.Validator = func(t string) error {
		_, err := store.CleanTitle(t)
		return err
	}
	entry.AlwaysShowValidationError = true // as it is typed, not once the focus leaves
	d = dialog.NewForm("Rename chat", "Rename", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Title", entry)},
		func(ok bool) {
			s.rename, s.title = nil, nil
			back()
			if ok {
				s.u.tell(&uiRenameSession{id: item.id, title: entry.Text})
			}
		}, s.u.win)
	entry.OnSubmitted = func(string) { d.Submit() }
	s.rename, s.title = d, &entry.Entry
	d.Resize(fyne.NewSize(420, d.MinSize().Height))
	d.Show()
	s.u.win.Canvas().Focus(entry)
	entry.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// askDelete asks before deleting a session; one still running is not
// offered.
func (s *sidebarSide) askDelete(item sessionItem) {
	if item.run == store.RunRunning {
		s.u.showError(fmt.Sprintf("“%s” is still working: stop it first, then delete it.", item.title))
		return
	}
	back := s.u.keepFocus()
	s.del = widgets.ConfirmDanger("Delete chat",
		fmt.Sprintf("Delete “%s”? Its messages and tool results are removed from this computer's log; usage totals of other sessions are kept.", item.title),
		"Delete", func(ok bool) {
			s.del = nil
			back()
			if ok {
				s.u.tell(&uiDeleteSession{id: item.id, title: item.title})
			}
		}, s.u.win)
}

// sessionsList is the sidebar's list. With the focus, the arrows move to
// a session and open it, Enter (or Space) opens the highlighted one, F2
// renames and Delete (or Backspace) deletes the open one.
type sessionsList struct {
	widget.List
	side      *sidebarSide
	highlight widget.ListItemID // where the keyboard is (Fyne keeps its own unexported)
}

func (l *sessionsList) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyUp, fyne.KeyDown:
		l.List.TypedKey(k)
		l.side.open(l.highlight)
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		l.side.open(l.highlight)
	case fyne.KeyF2:
		if it, ok := l.side.selected(); ok {
			l.side.askRename(it)
		}
	case fyne.KeyDelete, fyne.KeyBackspace: // a Mac's Delete is Backspace
		if it, ok := l.side.selected(); ok {
			l.side.askDelete(it)
		}
	default:
		l.List.TypedKey(k)
	}
}

// sessionRow is one session in the list: its title over a caption. A
// secondary tap opens its menu.
type sessionRow struct {
	widget.BaseWidget
	side  *sidebarSide
	item  sessionItem
	title *widget.Label
	// snip is a search's snippet of the session, its words marked.
	snip *widget.RichText
	sub  *widget.Label
	box  *fyne.Container
}

var _ fyne.SecondaryTappable = (*sessionRow)(nil)

func newSessionRow(side *sidebarSide) *sessionRow {
	r := &sessionRow{side: side}
	r.title = widget.NewLabel("A session title long enough")
	r.title.Truncation = fyne.TextTruncateEllipsis
	r.title.TextStyle.Bold = true
	var subObj fyne.CanvasObject
	r.sub, subObj = widgets.Caption("2 h ago · 1.2k tokens")
	r.sub.Truncation = fyne.TextTruncateEllipsis
	r.snip = widget.NewRichText()
	r.snip.Truncation = fyne.TextTruncateEllipsis
	r.snip.Hide()
	r.box = container.New(&tightVBox{}, r.title, r.snip, subObj)
	r.ExtendBaseWidget(r)
	return r
}

func (r *sessionRow) set(item sessionItem) {
	r.item = item
	if item.pinned {
		r.title.SetText(pinMark + item.title)
	} else {
		r.title.SetText(item.title)
	}
	r.sub.SetText(item.subtitle(time.Now()))
	if m := item.match; m.Snippet != "" {
		r.snip.Segments = snippetSegments(m)
		r.snip.Refresh()
		widgets.SetVisible(r.snip, true)
	} else {
		widgets.SetVisible(r.snip, false)
	}
}

// setHeights gives the rows showing a snippet their height (a list's rows
// are otherwise all the height of its first).
func (s *sidebarSide) setHeights(items []sessionItem) {
	any := false
	for _, it := range items {
		any = any || it.match.Snippet != ""
	}
	if !any && !s.sized {
		return // every row the height of the first: nothing to set
	}
	s.sized = any
	if s.measure == nil {
		s.measure = newSessionRow(s)
	}
	m := s.measure
	m.set(sessionItem{title: "x"})
	plain := m.MinSize().Height
	m.set(sessionItem{title: "x", match: store.Match{Snippet: "x"}})
	tall := m.MinSize().Height
	for i, it := range items {
		h := plain
		if it.match.Snippet != "" {
			h = tall
		}
		s.list.SetItemHeight(i, h)
	}
}

// snippetSegments shows a search's snippet, its words marked (bold, in
// the primary colour).
func snippetSegments(m store.Match) []widget.RichTextSegment {
	plain := widget.RichTextStyle{Inline: true, SizeName: theme.SizeNameCaptionText, ColorName: theme.ColorNamePlaceHolder}
	marked := widget.RichTextStyle{Inline: true, SizeName: theme.SizeNameCaptionText, ColorName: theme.ColorNamePrimary, TextStyle: fyne.TextStyle{Bold: true}}
	var segs []widget.RichTextSegment
	at := 0
	for _, mk := range m.Marks {
		if mk[0] < at || mk[1] > len(m.Snippet) || mk[0] > mk[1] {
			continue
		}
		if mk[0] > at {
			segs = append(segs, &widget.TextSegment{Text: m.Snippet[at:mk[0]], Style: plain})
		}
		segs = append(segs, &widget.TextSegment{Text: m.Snippet[mk[0]:mk[1]], Style: marked})
		at = mk[1]
	}
	if at < len(m.Snippet) {
		segs = append(segs, &widget.TextSegment{Text: m.Snippet[at:], Style: plain})
	}
	return segs
}

func (r *sessionRow) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.box) }

// Tapped opens the row's session (Fyne's list would, but a row that takes
// secondary taps is the target of primary ones too), and gives the
// message box the focus, as a new chat does: what is typed next is a
// message. (Tab reaches the list, for its keys.)
func (r *sessionRow) Tapped(*fyne.PointEvent) {
	if r.item.id == "" {
		return
	}
	for i, it := range r.side.u.sessions {
		if it.id == r.item.id {
			r.side.list.Highlight(i)
			r.side.open(i)
		}
	}
	r.side.u.input.focus(r.side.u.win)
}

var _ fyne.Tappable = (*sessionRow)(nil)

func (r *sessionRow) TappedSecondary(e *fyne.PointEvent) {
	if r.item.id != "" {
		r.side.showMenu(r.item, e.AbsolutePosition)
	}
}

// searchEntry is the search box: Escape clears it, and the window's
// shortcuts (Ctrl+N, Ctrl+K, Ctrl+,) work in it as in the message box.
type searchEntry struct {
	widgets.EscEntry
	u *UI
}

func newSearchEntry(u *UI) *searchEntry {
	e := &searchEntry{u: u}
	e.ExtendBaseWidget(e)
	return e
}

// MouseDown: a click in the search box is a click elsewhere than the
// transcript, and clears its selection.
func (e *searchEntry) MouseDown(m *desktop.MouseEvent) {
	if e.u.chat != nil {
		e.u.chat.sel.Clear()
	}
	e.EscEntry.MouseDown(m)
}

func (e *searchEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierShortcutDefault && e.u.input != nil {
		if f := e.u.input.shortcuts[cs.KeyName]; f != nil {
			f()
			return
		}
	}
	e.Entry.TypedShortcut(s)
}
