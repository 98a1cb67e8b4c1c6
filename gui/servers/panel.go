package servers

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/gui/servers/connect"
	"deckhand/gui/widgets"
	"deckhand/tools"
)

// Panel is the servers panel: each server's state, transport,
// protocol and tools; connect, disconnect, reconnect; a server's tools with
// their schemas. Its exported fields are what it shows, for tests.
type Panel struct {
	host   Host
	Win    fyne.Window // the panel, in the main window
	list   *fyne.Container
	scroll *container.Scroll // the list's
	// rowObjs are the rows drawn, by alias, to scroll one into view.
	rowObjs map[string]fyne.CanvasObject
	// marked is the server just saved, whose row is marked until the
	// panel is shown anew; reveal, the one kept in view as its status
	// comes and its row changes, until the person scrolls the list or
	// the panel is shown anew; revealing, that the list is moved for it.
	marked, reveal string
	revealing      bool
	// Rows are the servers' rows by alias: the state text and the buttons.
	Rows map[string]*Row
	// Notes is what the last tools page said below its list.
	Notes string
	// Form is the connect or edit form while it is open; Tools the last
	// tools page.
	Form  *connect.Form
	Tools *ToolsPage
	// Resources is a server's resources, once opened (one page serves
	// every server).
	Resources *Resources
	// ages say the rows' restarts again as time passes (restart.go);
	// ticking, that they are due.
	ages    []func()
	ticking bool
	// writes orders the tools page's writes of the config file.
	writes configWrites
	// Tips is the layer over the panel its rows' icon buttons (Edit, the
	// pencil; Remove, the bin) name themselves on.
	Tips *widgets.Tips
}

// Row is a server's row in the panel.
type Row struct {
	State                                 *widget.Label
	Reason                                *widget.Label
	LeftOut                               *widget.Label // tools left out of the catalog
	Unconfined                            *widget.Label // a command server with the sandbox off, said so
	Tools, Reconnect, Disconnect, Connect *widget.Button
	Resources                             *widget.Button     // its resources (resources.go)
	Edit, Remove                          *widgets.TipButton // configured servers only
	SignIn                                *SignInRow         // signing in (signin.go)
	Refused                               *widget.Label      // hosts its network list refused
	Allow                                 *widget.Button     // adds the last of them to the list
	// Restarted says it stopped and was restarted (restart.go), with the
	// last stop's reason and a Copy for it; hidden when it never stopped.
	Restarted, StopReason *widget.Label
	CopyStop              *widget.Button
	// Marked says the row is marked as the server just saved.
	Marked bool
	// About says what the built-in server is and where its definitions
	// go; OpenFolder opens that folder (local.go). Nil for other servers.
	About      *widget.Label
	OpenFolder *widget.Button
}

// New makes the servers panel; Show shows it.
func New(host Host) *Panel {
	s := &Panel{host: host, Win: host.NewPanel("Deckhand: servers"), list: container.NewVBox(), Tips: widgets.NewTips(host.Post)}
	if icon := host.Icon(); icon != nil {
		s.Win.SetIcon(icon)
	}
	// Ringed while it has the focus, as the dialogs' accent buttons: Fyne's
	// own mark, a tint of the accent fill, could not be seen.
	connect := widgets.NewRingButtonWithIcon("Connect a server…", theme.ContentAddIcon(), s.ShowConnect)
	connect.Importance = widget.HighImportance
	heading := widget.NewLabelWithStyle("MCP servers", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top := container.NewPadded(container.NewBorder(nil, nil, heading, connect))
	s.scroll = container.NewVScroll(s.list)
	s.scroll.OnScrolled = func(fyne.Position) {
		s.Tips.Dismiss() // the button under it moved
		if !s.revealing {
			s.reveal = "" // the person scrolled: the list is theirs
		}
	}
	// The heading's row first among the objects, as it is drawn: Tab
	// follows their order, and Connect a server… came after every row's
	// buttons (container.NewBorder puts the centre first).
	head := container.NewVBox(top, widget.NewSeparator())
	page := container.New(layout.NewBorderLayout(head, nil, nil, nil), head, s.scroll)
	s.Win.SetContent(container.NewStack(page, s.Tips))
	s.Win.Resize(fyne.NewSize(820, 640))
	s.Win.SetCloseIntercept(s.Win.Hide)
	widgets.CloseKeys(s.Win, s.Win.Hide, s.host.Quit)
	return s
}

// Show shows the panel, with the servers as last told: the list of
// servers, also when a server's tools were shown last (the sidebar's
// Servers opened on them again).
func (s *Panel) Show() {
	if s.Tools != nil {
		s.Tools.back()
	}
	s.marked, s.reveal = "", ""
	s.Refresh()
	s.Win.Show()
	s.Win.RequestFocus()
}

// Refresh redraws the list from the servers' statuses as last told (there are few
// servers; rebuilding is simpler than patching).
func (s *Panel) Refresh() {
	s.Tips.Dismiss() // its button goes with the rows
	s.Rows, s.rowObjs = map[string]*Row{}, map[string]fyne.CanvasObject{}
	s.ages = nil
	objs := make([]fyne.CanvasObject, 0, len(s.host.Statuses())+1)
	if len(s.host.Statuses()) == 0 {
		empty := widget.NewLabel("No servers yet. Connect one with the button above, or import those of Claude Desktop or VS Code with `deckhand import FILE`.")
		empty.Wrapping = fyne.TextWrapWord
		objs = append(objs, empty)
	}
	for _, st := range s.host.Statuses() {
		objs = append(objs, s.row(st), widget.NewSeparator())
	}
	s.list.Objects = objs
	s.tickAges()
	s.keepInList()
	s.revealSaved()
}

// keepInList lays the rebuilt list out and keeps the view within it: a
// refresh of the list alone left the scroller's offset as it was, and
// removing the last server of a list scrolled to its end showed a blank
// page (past the shorter list's end) until the wheel turned.
func (s *Panel) keepInList() {
	s.scroll.Refresh() // the new rows get their width, and their wrapped labels their height
	end := max(s.list.MinSize().Height-s.scroll.Size().Height, 0)
	if s.scroll.Offset.Y > end {
		s.revealing = true // not the person's scrolling
		s.scroll.ScrollToOffset(fyne.NewPos(s.scroll.Offset.X, end))
		s.revealing = false
	}
}

// saved marks the row of a server just saved (connected or edited), and
// brings it into view as its status comes: the list stayed at its top,
// and at 640×480 a new server's row was below the fold.
func (s *Panel) saved(alias string) {
	s.marked, s.reveal = alias, alias
	s.Refresh()
}

// revealSaved scrolls the list so that the row of the server just saved
// shows whole (or its start, if it is taller than the view): its row
// comes with its status, and changes height as it connects and lists its
// tools.
func (s *Panel) revealSaved() {
	row, ok := s.rowObjs[s.reveal]
	if !ok {
		return // its status has not come yet
	}
	s.revealing = true
	defer func() { s.revealing = false }()
	s.scroll.Refresh() // lays the list out with the rows just made
	y, h := row.Position().Y, row.Size().Height
	view, off := s.scroll.Size().Height, s.scroll.Offset.Y
	switch {
	case y < off || h > view:
		off = y
	case y+h > off+view:
		off = y + h - view
	default:
		return
	}
	s.scroll.ScrollToOffset(fyne.NewPos(0, off))
}

func (s *Panel) row(st servers.ServerStatus) fyne.CanvasObject {
	r := &Row{}
	s.Rows[st.Alias] = r
	dot := canvas.NewCircle(stateColor(st.State))
	dotBox := container.NewGridWrap(fyne.NewSize(12, 12), dot)
	name := widget.NewLabelWithStyle(st.Alias, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	r.State = widget.NewLabel(stateLabel(st))
	restarted := s.restartPart(st, r)
	var details []string
	if st.Transport != "" {
		details = append(details, st.Transport)
	}
	if st.ProtocolVersion != "" {
		details = append(details, "protocol "+st.ProtocolVersion)
	}
	if st.ServerName != "" {
		details = append(details, strings.TrimSpace(st.ServerName+" "+st.ServerVersion))
	}
	srv, configured := s.host.Config().MCP.Servers[st.Alias]
	if st.State == servers.StateReady || st.State == servers.StateIdle {
		count := fmt.Sprintf("%d %s", st.Tools, widgets.Plural(st.Tools, "tool", "tools"))
		if n := len(srv.DisabledTools); n > 0 {
			count += fmt.Sprintf(" (%d disabled)", n)
		}
		details = append(details, count)
	}
	rejected, notLoaded := s.leftOut(st.Alias)
	// A definition with three mistakes is one not loaded.
	defs := map[string]bool{}
	for _, r := range notLoaded {
		defs[r.Name] = true
	}
	if n := len(defs); n > 0 {
		details = append(details, fmt.Sprintf("%d %s not loaded", n, widgets.Plural(n, "definition", "definitions")))
	}
	infoLabel, info := widgets.Subtle(strings.Join(details, "  ·  "))
	infoLabel.Wrapping = fyne.TextWrapWord // a long server name wraps, rather than widening the window
	if len(details) == 0 {
		info.Hide() // a stopped server has none: an empty line sat between its name and its reason
	}
	endpoint, endpointObj := widgets.Caption(st.Endpoint)
	endpoint.Truncation = fyne.TextTruncateEllipsis
	if st.Endpoint == "" || st.Endpoint == st.Transport {
		endpointObj.Hide() // a built-in server's is "in-process", said above already
	}
	r.Reason = widget.NewLabel(st.Reason)
	r.Reason.Wrapping = fyne.TextWrapWord
	if st.State == servers.StateFailed || st.State == servers.StateReconnecting {
		r.Reason.Importance = widget.DangerImportance
		// What to do about it, as the connect form says it ("Is
		// mcp-server-weather installed? …"): the row had only the error.
		if srv, ok := s.host.Config().MCP.Servers[st.Alias]; ok && st.Reason != "" {
			if hint := connect.Hint(st.Failure, nil, srv); hint != "" {
				r.Reason.SetText(st.Reason + "\n" + hint)
			}
		}
	}
	// Signing in: a state to act on, in plain words (signin.go).
	signIn, signInButtons := s.signInPart(st, r)
	if st.Reason == "" || st.State == servers.StateIdle {
		r.Reason.Hide()
	}
	r.LeftOut = widget.NewLabel("")
	r.LeftOut.Wrapping = fyne.TextWrapWord
	r.LeftOut.Importance = widget.WarningImportance
	var leftOut []string
	if n := len(rejected); n > 0 {
		leftOut = append(leftOut, fmt.Sprintf("%d %s left out for breaking the MCP rules for names: see Tools.", n, widgets.Plural(n, "tool", "tools")))
	}
	// The server's own reasons (the built-in server's definitions: file,
	// key, why) are what a person fixes: shown on the row, the first few.
	for i, r := range notLoaded {
		if i == maxNotLoaded && len(notLoaded) > maxNotLoaded+1 {
			leftOut = append(leftOut, fmt.Sprintf("and %d more: see Tools.", len(notLoaded)-i))
			break
		}
		leftOut = append(leftOut, "Not loaded: "+r.Reason)
	}
	if len(leftOut) > 0 {
		r.LeftOut.SetText(strings.Join(leftOut, "\n"))
	} else {
		r.LeftOut.Hide()
	}

	// `deckhand policy` warns of it; the row does too, with the way back.
	r.Unconfined = widget.NewLabel("Not sandboxed: it can read and change everything you can. Its edit form's Sandbox box confines it.")
	r.Unconfined.Wrapping = fyne.TextWrapWord
	r.Unconfined.Importance = widget.WarningImportance
	if !configured || !srv.IsStdio() || srv.SandboxOn() {
		r.Unconfined.Hide()
	}

	alias := st.Alias
	r.Refused, r.Allow = s.refusedPart(alias, srv, configured, st.Refused)

	r.Tools = widget.NewButtonWithIcon("Tools", theme.ListIcon(), func() { s.ShowTools(alias) })
	r.Resources = widget.NewButtonWithIcon("Resources", theme.StorageIcon(), func() { s.showResources(alias) })
	r.Reconnect = widget.NewButtonWithIcon("Reconnect", theme.ViewRefreshIcon(), func() { s.host.Tell(&Reconnect{Alias: alias}) })
	r.Disconnect = widget.NewButtonWithIcon("Disconnect", theme.MediaStopIcon(), func() { s.host.Tell(&Disconnect{Alias: alias}) })
	r.Connect = widget.NewButtonWithIcon("Connect", theme.MediaPlayIcon(), func() { s.host.Tell(&Reconnect{Alias: alias}) })
	if off := configured && srv.Disabled; off && st.State == servers.StateStopped {
		// Turned off in the config (its form's On, disabled = true): said
		// as such, and Connect turns it on for good, as it was turned off.
		r.State.SetText("off")
		r.Reason.SetText("Turned off: not connected at start. Turn on connects it and saves that.")
		r.Reason.Importance = widget.MediumImportance
		r.Reason.Show()
		r.Connect.SetText("Turn on")
		r.Connect.OnTapped = func() { s.turnOn(alias) }
	}
	// Edit and Remove are icons (a pencil, a bin): the row has room for
	// the server's details that way.
	r.Edit = widgets.NewTipButton("", theme.DocumentCreateIcon(), "Edit "+alias, s.Tips, func() { s.showEdit(alias) })
	r.Remove = widgets.NewTipButton("", theme.DeleteIcon(), "Remove "+alias, s.Tips, func() { s.confirmRemove(alias) })
	r.Edit.Importance, r.Remove.Importance = widget.LowImportance, widget.LowImportance
	if !configured {
		// In-process, or gone from the file: nothing there to change.
		r.Edit.Hide()
		r.Remove.Hide()
	}
	if st.State != servers.StateReady {
		r.Resources.Hide()
	}
	if st.State == servers.StateStopped {
		r.Tools.Hide()
		r.Reconnect.Hide()
		r.Disconnect.Hide()
	} else {
		r.Connect.Hide()
		if st.State != servers.StateReady && st.State != servers.StateIdle {
			r.Tools.Disable()
		}
	}
	if needsSignIn(st) {
		r.Reconnect.Hide() // it would only need signing in again: Sign in is the way
	}
	// The row fits the panel whatever its width: the actions go under the
	// details and wrap to more lines when the window is narrow (beside them,
	// they held the whole window wider than the screen allows).
	about, openFolder := s.localPart(alias, r)
	buttons := append(signInButtons, r.Tools, r.Resources, r.Reconnect, r.Disconnect, r.Connect)
	if openFolder != nil {
		buttons = append(buttons, openFolder)
	}
	actions := container.New(layout.NewRowWrapLayout(), buttons...)
	head := container.NewBorder(nil, nil, container.NewHBox(container.NewCenter(dotBox), name, r.State), container.NewHBox(r.Edit, r.Remove))
	body := container.NewVBox(head, info, endpointObj, r.Reason, restarted, r.LeftOut, r.Unconfined, container.NewHBox(r.Refused, r.Allow))
	if about != nil {
		body.Add(about)
	}
	if signIn != nil {
		body.Add(signIn)
	}
	body.Add(actions)
	var obj fyne.CanvasObject = container.NewPadded(body)
	if st.Alias == s.marked {
		r.Marked = true
		mark := canvas.NewRectangle(theme.Color(theme.ColorNameSelection))
		mark.CornerRadius = theme.InputRadiusSize()
		obj = container.NewStack(mark, obj)
	}
	s.rowObjs[st.Alias] = obj
	return obj
}

// refusedPart says which hosts a sandboxed server asked for that its
// network list leaves out, with the setting that would allow the last one
// and a button that writes it (the server then reconnects).
func (s *Panel) refusedPart(alias string, srv config.Server, configured bool, refused []string) (*widget.Label, *widget.Button) {
	label := widget.NewLabel("")
	label.Wrapping = fyne.TextWrapWord
	label.Importance = widget.WarningImportance
	allow := widget.NewButton("", nil)
	if len(refused) == 0 || !configured {
		label.Hide()
		allow.Hide()
		return label, allow
	}
	last := refused[len(refused)-1]
	hosts := append(slices.Clone(srv.Network.Hosts), last)
	label.SetText(fmt.Sprintf("Refused by its network list: %s. To allow %s: network = %s", strings.Join(refused, ", "), last, config.NetworkHosts(hosts...).TOML()))
	allow.SetText("Allow " + last)
	allow.OnTapped = func() {
		next := srv
		next.Network = config.NetworkHosts(hosts...)
		if err := s.save(alias, alias, next); err != nil {
			widgets.ShowError(err, s.Win)
		}
	}
	return label, allow
}

func stateLabel(st servers.ServerStatus) string {
	switch st.State {
	case servers.StateReady:
		return "ready"
	case servers.StateConnecting:
		return "connecting…"
	case servers.StateIdle:
		return "idle: connects at its first call"
	case servers.StateNeedsSignIn:
		return "needs sign-in"
	case servers.StateSigningIn:
		return "signing in…"
	case servers.StateFailed, servers.StateReconnecting:
		label := string(st.State)
		if !st.NextRetry.IsZero() {
			label += ", next try at " + st.NextRetry.Format("15:04:05")
		}
		return label
	}
	return string(st.State)
}

func stateColor(s servers.State) color.Color {
	switch s {
	case servers.StateReady:
		return theme.Color(theme.ColorNameSuccess)
	case servers.StateFailed, servers.StateReconnecting:
		return theme.Color(theme.ColorNameError)
	case servers.StateConnecting, servers.StateSigningIn:
		return theme.Color(theme.ColorNameWarning)
	case servers.StateIdle, servers.StateNeedsSignIn: // waiting for the person, not broken
		return theme.Color(theme.ColorNamePrimary)
	}
	return theme.Color(theme.ColorNameDisabled)
}

// turnOn saves a server turned off as on, and starts it.
func (s *Panel) turnOn(alias string) {
	srv, ok := s.host.Config().MCP.Servers[alias]
	if !ok {
		return
	}
	srv.Disabled = false
	if err := s.save(alias, alias, srv); err != nil {
		widgets.ShowError(err, s.Win)
	}
}

// maxNotLoaded is how many definitions not loaded a row lists; the Tools
// page lists them all.
const maxNotLoaded = 3

// leftOut splits what rejected lists: the tools the catalog left out for
// their names, and those the server itself did not load for a mistake
// (not those the person's settings keep out: the built-in shell with shell
// commands off is no warning; the Tools page lists it).
func (s *Panel) leftOut(alias string) (rejected, notLoaded []tools.Rejected) {
	for _, r := range s.rejected(alias) {
		if r.Off {
			continue
		}
		if r.NotLoaded {
			notLoaded = append(notLoaded, r)
		} else {
			rejected = append(rejected, r)
		}
	}
	return rejected, notLoaded
}

// rejected lists the tools of alias the catalog left out, with why.
func (s *Panel) rejected(alias string) []tools.Rejected {
	var out []tools.Rejected
	if s.host.Catalog() == nil {
		return nil
	}
	for _, r := range s.host.Catalog().Rejected() {
		if r.Server == alias {
			out = append(out, r)
		}
	}
	return out
}
