package servers

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors"
	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/gui/widgets"
	"deckhand/keys"
	"deckhand/tools"
)

// confirmRemove asks before a server is removed: disconnected, and its
// table deleted from the config file.
func (s *Panel) confirmRemove(alias string) {
	msg := fmt.Sprintf("Remove the server %q?\n\nIt is disconnected, and its [mcp.servers.%s] table is deleted from %s; the rest of the file stays as it is.",
		alias, alias, s.host.Config().Path)
	widgets.ConfirmDanger("Remove "+alias, msg, "Remove", func(ok bool) {
		if ok {
			s.remove(alias)
		}
	}, s.Win)
}

// remove deletes a server from the config file, then stops it.
func (s *Panel) remove(alias string) {
	u := s.host
	granted := u.Config().MCP.Servers[alias].AllowSecrets
	if err := config.RemoveServer(u.Config().Path, alias); err != nil {
		widgets.ShowError(err, s.Win)
		return
	}
	// Its secrets' values go from the keyring with it (off the UI
	// goroutine: the keyring may be slow); a server added later under the
	// same alias does not inherit them.
	go func() {
		for _, name := range granted {
			keys.RemoveSecret(alias, name)
		}
	}()
	cfg, err := config.Load(u.Config().Path)
	if err != nil {
		widgets.ShowError(fmt.Errorf("removed, but reading the config back: %w", err), s.Win)
		return
	}
	u.SetConfig(cfg)
	u.Tell(&Changed{Old: alias})
}

// ToolsPage is a server's tools: each with a check box that enables or
// disables it (disabled_tools in the config), marked new or changed since
// pinned; picking one shows its description, warnings, annotations and
// full input and output schemas. Below: the tools left out (with why) and
// those gone from the server's listing.
type ToolsPage struct {
	s        *Panel
	alias    string
	Win      fyne.Window
	List     []tools.Tool
	states   []actors.PinState
	disabled map[string]bool
	// quarantined: tools kept from the model until the person releases
	// them (high-risk flags), by the server's name for the tool. Showing
	// one's page releases nothing: looking is not consenting, and arrowing
	// through the list showed every page. Its page's Release button does.
	quarantined map[string]bool
	// released: the tools released on this page, whose page says so.
	released map[string]bool
	// editable: the server is in the config file, which keeps the choice.
	editable bool
	ToolList *widget.List
	Detail   *widget.RichText
	selected int
	// Checks are the check boxes on screen, by tool name, for tests;
	// Loaded says the listing arrived.
	Checks map[string]*widget.Check
	Loaded bool
	// listContent is the servers list, shown again by Back.
	listContent fyne.CanvasObject
	// RunButton runs the page's tool by hand; Run is its open form (run.go).
	RunButton *widget.Button
	Run       *RunForm
	// Release offers the page's quarantined tool to the model; it shows,
	// with what it does, above the page of a quarantined tool only.
	Release    *widgets.RingButton
	releaseBar fyne.CanvasObject
	// NotesLabel is the notes under the page, one line until NotesShow
	// opens them (notesBar).
	NotesLabel *widget.Label
	NotesShow  *widget.Button
}

// back shows the servers list again.
func (tw *ToolsPage) back() {
	s := tw.s
	if s.Tools != tw {
		return
	}
	s.Tools = nil
	s.Win.SetTitle("Deckhand: servers")
	s.Win.SetContent(tw.listContent)
	s.Win.SetCloseIntercept(s.Win.Hide)
	setBackLabel(s.Win, "")
	widgets.CloseKeys(s.Win, s.Win.Hide, s.host.Quit)
}

// backLabeler is a panel whose back button's words a view sets (package
// gui's panel): the tools page has no title row of its own, the panel's
// is its, and its back button goes to the servers.
type backLabeler interface{ SetBackLabel(label string) }

// setBackLabel says where w's back button goes ("" for the chat), if w
// has one.
func setBackLabel(w fyne.Window, label string) {
	if b, ok := w.(backLabeler); ok {
		b.SetBackLabel(label)
	}
}

// showTools opens the tools window of a server, with the tools of the
// catalog; when the server has tools disabled, which the catalog leaves
// out, its whole listing is asked of the registry (off the UI goroutine)
// and shown when it comes.
func (s *Panel) ShowTools(alias string) {
	u := s.host
	// The tools show in the servers window itself, with Back to the list:
	// a window of their own cost memory the GL driver never gave back
	// (about 18 MB each under a software renderer).
	list := s.Win.Content()
	if s.Tools != nil && s.Tools.listContent != nil {
		list = s.Tools.listContent // showing another server's tools
	}
	tw := &ToolsPage{s: s, alias: alias, Win: s.Win, Checks: map[string]*widget.Check{}, listContent: list}
	tw.Win.SetTitle("Deckhand: tools of " + alias)
	s.Tools = tw
	tw.fill(nil)
	s.Win.SetCloseIntercept(tw.back)
	setBackLabel(s.Win, "Servers")
	widgets.CloseKeys(s.Win, tw.back, s.host.Quit)
	tw.Win.Show()
	tw.Win.RequestFocus()
	sys := u.System()
	if sys == nil || len(u.Config().MCP.Servers[alias].DisabledTools) == 0 && !sys.HasQuarantined(alias) {
		return
	}
	tw.Loaded = false
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		listing, err := sys.ServerListing(ctx, alias)
		if err != nil {
			u.Logger().Warn("listing a server's tools", "server", alias, "err", err)
		}
		if listing != nil {
			u.Post(func() { tw.fill(listing) })
		}
	}()
}

func (tw *ToolsPage) fill(listing *servers.ServerListing) {
	s, u := tw.s, tw.s.host
	if s.Tools != tw {
		return // Back was pressed, or another server's tools are shown
	}
	srv, editable := u.Config().MCP.Servers[tw.alias]
	tw.editable = editable
	tw.List, tw.states, tw.selected = nil, nil, -1
	tw.disabled, tw.Checks, tw.quarantined, tw.released = map[string]bool{}, map[string]*widget.Check{}, map[string]bool{}, map[string]bool{}
	if listing != nil {
		tw.List = listing.Tools
		for name := range listing.Disabled {
			tw.disabled[name] = true
		}
		for name := range listing.Quarantined {
			tw.quarantined[name] = true
		}
	} else if u.Catalog() != nil {
		tw.List = u.Catalog().Server(tw.alias)
	}
	for _, name := range srv.DisabledTools {
		tw.disabled[name] = true
	}
	if sys := u.System(); sys != nil {
		tw.states = sys.PinStates(tw.List)
	}
	tw.Detail = widget.NewRichText()
	tw.Detail.Wrapping = fyne.TextWrapWord
	tw.releaseBar = tw.newReleaseBar()
	tw.ToolList = widget.NewList(
		func() int { return len(tw.List) },
		func() fyne.CanvasObject {
			name := widget.NewLabel("a_tool_name_of_some_length")
			name.Truncation = fyne.TextTruncateEllipsis // a long name ends in "…", not under the scroll bar
			return container.NewBorder(nil, nil, widget.NewCheck("", nil), nil, name)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			row := o.(*fyne.Container)
			label, check := row.Objects[0].(*widget.Label), row.Objects[1].(*widget.Check)
			t := tw.List[i]
			label.SetText(tw.label(i))
			if tw.disabled[t.Name] {
				label.Importance = widget.LowImportance
			} else {
				label.Importance = widget.MediumImportance
			}
			label.Refresh()
			for name, c := range tw.Checks {
				if c == check {
					delete(tw.Checks, name)
				}
			}
			tw.Checks[t.Name] = check
			check.OnChanged = nil
			check.SetChecked(!tw.disabled[t.Name])
			name := t.Name
			check.OnChanged = func(on bool) { tw.setEnabled(name, on) }
			if tw.editable {
				check.Enable()
			} else {
				check.Disable()
			}
		},
	)
	tw.ToolList.OnSelected = func(i widget.ListItemID) {
		tw.selected = i
		tw.ShowDetail()
	}
	if len(tw.List) > 0 {
		tw.ToolList.Select(0)
	} else {
		tw.Detail.ParseMarkdown("This server has no tools (or is not connected).")
	}
	var notes []string
	for _, r := range s.rejected(tw.alias) {
		if r.Off {
			notes = append(notes, offNote(u.Config(), r))
		} else if r.NotLoaded {
			notes = append(notes, "Not loaded: "+r.Reason)
		} else {
			notes = append(notes, fmt.Sprintf("Left out: %s (%s)", r.Name, r.Reason))
		}
	}
	if sys := u.System(); sys != nil {
		for _, g := range sys.Gone(tw.alias) {
			notes = append(notes, fmt.Sprintf("Gone: %s is not in the server's listing since %s", g.Tool, g.Since.Local().Format("2006-01-02 15:04")))
		}
	}
	var unlisted []string
	for name := range tw.disabled {
		if !slices.ContainsFunc(tw.List, func(t tools.Tool) bool { return t.Name == name }) {
			unlisted = append(unlisted, name)
		}
	}
	if len(unlisted) > 0 {
		slices.Sort(unlisted)
		notes = append(notes, "Disabled in the config, not in the listing: "+strings.Join(unlisted, ", "))
	}
	var bottom fyne.CanvasObject
	if len(notes) > 0 {
		bottom = tw.notesBar(notes)
		s.Notes = strings.Join(notes, "\n")
	}
	hint := "Unchecked tools are disabled: not offered to the model, not found by tool_search, and their calls are refused."
	switch {
	case tw.alias == config.LocalAlias && !tw.editable:
		hint = localAbout(u.Config().Tools.DefinitionsDir()) + ". Its tools are turned off in their definitions (\"enabled\": false), not here."
	case !tw.editable:
		hint = "This server is not in the config file: its tools cannot be disabled here."
	}
	hintLabel, hintObj := widgets.Caption(hint)
	hintLabel.Wrapping = fyne.TextWrapWord // one line would make the window as wide as it
	// The page's title is the panel's (with its back button, to the
	// servers). The tool's page scrolls up and down only: its words wrap
	// at the view's width, and a code block scrolls sideways on its own.
	bar, fit := tw.runBar()
	detail := container.NewBorder(tw.releaseBar, bar, nil, nil, container.NewVScroll(tw.Detail))
	fit.relayout = detail.Refresh
	split := container.NewHSplit(tw.ToolList, detail)
	page := container.New(&listBesideOrAbove{split: split, need: tw.listWidth}, split)
	tw.Win.SetContent(container.NewBorder(hintObj, bottom, nil, nil, page))
	tw.Loaded = true
}

// notesBar is the notes under the page (tools left out, gone, disabled
// but not listed), folded to one line with Show, which opens them whole:
// at 640×480 with the text at 125%, four notes wrapped took about 90 px
// fixed under a page left three lines for the tool's details.
func (tw *ToolsPage) notesBar(notes []string) fyne.CanvasObject {
	l := widget.NewLabel("")
	l.Importance = widget.WarningImportance
	tw.NotesLabel = l
	var show *widget.Button
	set := func(open bool) {
		if open {
			l.Truncation, l.Wrapping = fyne.TextTruncateOff, fyne.TextWrapWord
			l.SetText(strings.Join(notes, "\n"))
			show.SetText("Show less")
			return
		}
		l.Wrapping, l.Truncation = fyne.TextWrapOff, fyne.TextTruncateEllipsis
		l.SetText(strings.Join(notes, " · "))
		show.SetText(fmt.Sprintf("Show all %d", len(notes)))
	}
	show = widget.NewButton("", func() { set(show.Text != "Show less") })
	show.Importance = widget.LowImportance
	tw.NotesShow = show
	set(len(notes) == 1 && !strings.Contains(notes[0], "\n") && len(notes[0]) < 80)
	if len(notes) == 1 && show.Text == "Show less" {
		show.Hide() // one short note: nothing to fold
	}
	return container.NewVBox(widget.NewSeparator(), container.NewBorder(nil, nil, nil, show, l))
}

// listWidth is the width the list needs to show its widest row whole: a
// check box, the name and what is said of it.
func (tw *ToolsPage) listWidth() float32 {
	var widest float32
	for i := range tw.List {
		widest = max(widest, fyne.MeasureText(tw.label(i), theme.TextSize(), fyne.TextStyle{}).Width)
	}
	check := widget.NewCheck("", nil).MinSize().Width
	return check + widest + 2*theme.InnerPadding() + theme.Padding() + theme.ScrollBarSize()
}

// listBesideOrAbove lays out a split of a list and its detail: side by
// side where the width gives the list its widest row and the detail a
// reading width, the list above the detail where it does not. At 640×480
// with the text at 128% the list beside the detail was about 60 px wide,
// each row a check box and "…". The split is turned only when the width
// crosses the line, so that where the person dragged its divider stays.
type listBesideOrAbove struct {
	split  *container.Split
	need   func() float32 // the list's width
	turned bool           // laid out once
	offset float64        // the offset last set: the split's until dragged
}

// readingWidth is the narrowest the detail beside the list is given, in
// text heights: about 45 characters.
const readingWidth = 24

func (l *listBesideOrAbove) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	need := l.need()
	beside := need+readingWidth*theme.TextSize() <= size.Width
	// The offset follows the size until the person drags the divider
	// (the first layouts come at sizes other than the window's).
	if !l.turned || l.split.Horizontal != beside || l.split.Offset == l.offset {
		l.turned = true
		l.split.Horizontal = beside
		if beside {
			l.offset = min(max(float64(need/size.Width), 0.3), 0.5)
		} else {
			// Two rows of the list and a half (the half says it
			// scrolls), the rest for the tool's details, which hold the
			// run bar too: at 640×480 with the text at 125%, 0.4 gave the
			// details about three lines.
			rows := 2.5 * (widget.NewCheck("", nil).MinSize().Height + theme.Padding())
			l.offset = min(max(float64(rows/max(size.Height, 1)), 0.25), 0.4)
		}
		if l.split.Offset != l.offset {
			l.split.Offset = l.offset
			l.split.Refresh()
		}
	}
	l.split.Move(fyne.Position{})
	l.split.Resize(size)
}

// MinSize is the list above the detail: the narrower of the two ways.
func (l *listBesideOrAbove) MinSize([]fyne.CanvasObject) fyne.Size {
	lead, trail := l.split.Leading.MinSize(), l.split.Trailing.MinSize()
	return fyne.NewSize(max(lead.Width, trail.Width), lead.Height+trail.Height+theme.Padding())
}

func (tw *ToolsPage) label(i int) string {
	t, states := tw.List[i], tw.states
	switch {
	case tw.disabled[t.Name]:
		return t.Name + "  · disabled"
	case tw.quarantined[t.Name]:
		return t.Name + "  · quarantined"
	case i < len(states) && states[i].Changed:
		return t.Name + "  · changed"
	case i < len(states) && states[i].New:
		return t.Name + "  · new"
	}
	return t.Name
}

// ShowDetail shows the page of the tool selected.
func (tw *ToolsPage) ShowDetail() {
	i := tw.selected
	if i < 0 || i >= len(tw.List) {
		return
	}
	md := tools.Markdown(tw.List[i])
	// The heading, the tool's name in large type, wraps at its
	// separators, not inside a word, in a narrow window.
	// A name that fits keeps its plain text (found and copied as it is).
	heading := "## " + tools.EscapeMarkdown(tw.List[i].Display) + "\n"
	room := tw.Detail.Size().Width - 2*theme.InnerPadding()
	if tw.Detail.Size().Width == 0 && tw.Win != nil {
		// Not laid out yet: the page's width bounds it (the whole of it
		// in a narrow window, where the list goes above).
		room = tw.Win.Canvas().Size().Width - 4*theme.InnerPadding()
	}
	wide := room > 0 && fyne.MeasureText(tw.List[i].Display, theme.TextHeadingSize(), fyne.TextStyle{Bold: true}).Width > room
	if strings.HasPrefix(md, heading) && wide {
		md = "## " + tools.EscapeMarkdown(widgets.Breakable(tw.List[i].Display)) + "\n" + md[len(heading):]
	}
	if i < len(tw.states) {
		switch st := tw.states[i]; {
		case st.Changed:
			md = "**Changed since it was pinned**: it is asked again before it runs.\n\n" + codeBlock(st.Change) + "\n\n" + md
		case st.New:
			md = "**" + servers.NewToolWarning(tw.alias, st.Since) + "**\n\n" + md
		}
	}
	if tw.disabled[tw.List[i].Name] {
		md = "**Disabled**: not offered to the model, and its calls are refused. Check it to enable it.\n\n" + md
	}
	switch t := tw.List[i]; {
	case tw.quarantined[t.Name]:
		md = "**Quarantined**: its definition has the high-risk warnings below, so it is not offered to the model, " +
			"not found by tool_search, and its calls are refused. Reading this page does not change that: " +
			"press **Offer it to the model** above once you trust it.\n\n" + md
	case tw.released[t.Name]:
		md = "**Released from quarantine**: offered to the model from now on, until its definition changes; " +
			"uncheck it to keep it from the model.\n\n" + md
	}
	if tw.releaseBar != nil {
		widgets.SetVisible(tw.releaseBar, tw.quarantined[tw.List[i].Name])
	}
	tw.Detail.ParseMarkdown(md)
}

// newReleaseBar is the Release button, with what it does beside it.
func (tw *ToolsPage) newReleaseBar() fyne.CanvasObject {
	tw.Release = widgets.NewRingButtonWithIcon("Offer it to the model", theme.ConfirmIcon(), func() {
		if i := tw.selected; i >= 0 && i < len(tw.List) && tw.quarantined[tw.List[i].Name] {
			tw.release(tw.List[i])
		}
	})
	l, note := widgets.Caption("Quarantined: kept from the model until you offer it (kept in the log; a changed definition is quarantined again).")
	l.Wrapping = fyne.TextWrapWord
	bar := container.NewBorder(nil, nil, nil, tw.Release, note)
	bar.Hide()
	return bar
}

// release tells the registry the person offers a quarantined tool to the
// model (kept in the log), off the UI thread; the page then shows it
// released.
func (tw *ToolsPage) release(t tools.Tool) {
	u := tw.s.host
	sys := u.System()
	if sys == nil {
		return
	}
	tw.Release.Disable() // one press, one release
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := sys.ReviewTool(ctx, t.Display)
		u.Post(func() {
			tw.Release.Enable()
			if err != nil {
				widgets.ShowError(fmt.Errorf("releasing %s: %w", t.Display, err), tw.Win)
				return
			}
			delete(tw.quarantined, t.Name)
			tw.released[t.Name] = true
			c := tw.Win.Canvas()
			onButton := c.Focused() == fyne.Focusable(tw.Release)
			if tw.ToolList != nil {
				tw.ToolList.Refresh()
			}
			tw.ShowDetail()
			if onButton || c.Focused() == nil {
				c.Focus(tw.ToolList) // the button is gone: the keyboard stays on the page
			}
		})
	}()
}

// setEnabled enables or disables a tool: in the config file first, then
// in the registry, at once.
func (tw *ToolsPage) setEnabled(name string, on bool) {
	u := tw.s.host
	if tw.disabled[name] == !on {
		return
	}
	if _, ok := u.Config().MCP.Servers[tw.alias]; !ok {
		return
	}
	if on {
		delete(tw.disabled, name)
	} else {
		tw.disabled[name] = true
	}
	tw.ToolList.Refresh()
	tw.ShowDetail()
	// The config file is written and read back off the UI thread; the
	// choices are written in the order made, each with the whole set, so a
	// later one is never overwritten by an earlier one.
	w := &tw.s.writes
	w.seq++
	seq, path, alias, names := w.seq, u.Config().Path, tw.alias, slices.Sorted(maps.Keys(tw.disabled))
	go func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if seq < w.written {
			return // a later choice is already written, with this one in it
		}
		w.written = seq
		err := config.SetDisabledTools(path, alias, names)
		var cfg *config.Config
		if err == nil {
			cfg, err = config.Load(path)
		}
		u.Post(func() {
			if err != nil {
				if on { // the check box goes back
					tw.disabled[name] = true
				} else {
					delete(tw.disabled, name)
				}
				widgets.ShowError(err, tw.Win)
				tw.ToolList.Refresh()
				tw.ShowDetail()
				return
			}
			u.SetConfig(cfg)
			if sys := u.System(); sys != nil {
				sys.SetDisabledTools(alias, cfg.MCP.Servers[alias].DisabledTools)
			}
		})
	}()
}

// configWrites orders the tools window's writes of the config file, made
// off the UI thread: seq counts the choices (on the UI thread), written is
// the last one written (under mu).
type configWrites struct {
	seq     uint64
	mu      sync.Mutex
	written uint64
}

// codeBlock puts text in a Markdown code block whose fence is longer than
// any run of backticks in it, so that the text (a server's) cannot close
// the block and have its own Markdown, links included, drawn.
func codeBlock(text string) string {
	fence := tools.Fence(text, 3)
	return fence + "\n" + strings.TrimSuffix(text, "\n") + "\n" + fence
}
