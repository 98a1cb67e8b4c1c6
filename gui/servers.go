package gui

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/gui/widgets"
	"deckhand/tools"
)

// serversWindow is the servers panel: each server's state, transport,
// protocol and tools; connect, disconnect, reconnect; a server's tools with
// their schemas.
type serversWindow struct {
	ui   *UI
	win  fyne.Window
	list *fyne.Container
	// rows by alias, for tests: the state text and the buttons.
	rows map[string]*serverRow
	// notes is what the last tools window said below its list, for tests.
	notes string
	// form is the connect or edit form while it is open; tools the last
	// tools window.
	form  *serverForm
	tools *toolsWindow
	// writes orders the tools window's writes of the config file.
	writes configWrites
}

type serverRow struct {
	state                                 *widget.Label
	reason                                *widget.Label
	leftOut                               *widget.Label // tools left out of the catalog
	tools, reconnect, disconnect, connect *widget.Button
	resources                             *widget.Button // its resources (resources.go)
	edit, remove                          *widget.Button // configured servers only
	signIn                                *signInRow     // signing in (signin.go)
	refused                               *widget.Label  // hosts its network list refused
	allow                                 *widget.Button // adds the last of them to the list
}

func (u *UI) showServers() {
	if u.serversW == nil {
		u.serversW = newServersWindow(u)
	}
	u.serversW.refresh()
	u.serversW.win.Show()
	u.serversW.win.RequestFocus()
}

func newServersWindow(u *UI) *serversWindow {
	s := &serversWindow{ui: u, win: u.newPanel("Deckhand: servers"), list: container.NewVBox()}
	if u.d.Icon != nil {
		s.win.SetIcon(u.d.Icon)
	}
	connect := widget.NewButtonWithIcon("Connect a server…", theme.ContentAddIcon(), s.showConnect)
	connect.Importance = widget.HighImportance
	heading := widget.NewLabelWithStyle("MCP servers", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top := container.NewPadded(container.NewBorder(nil, nil, heading, connect))
	s.win.SetContent(container.NewBorder(container.NewVBox(top, widget.NewSeparator()), nil, nil, nil, container.NewVScroll(s.list)))
	s.win.Resize(fyne.NewSize(820, 640))
	s.win.SetCloseIntercept(s.win.Hide)
	widgets.CloseKeys(s.win, s.win.Hide, s.ui.app)
	return s
}

// refresh redraws the list from the UI's latest statuses (there are few
// servers; rebuilding is simpler than patching).
func (s *serversWindow) refresh() {
	s.rows = map[string]*serverRow{}
	objs := make([]fyne.CanvasObject, 0, len(s.ui.servers)+1)
	if len(s.ui.servers) == 0 {
		empty := widget.NewLabel("No servers yet. Connect one with the button above, or import those of Claude Desktop or VS Code with `deckhand import FILE`.")
		empty.Wrapping = fyne.TextWrapWord
		objs = append(objs, empty)
	}
	for _, st := range s.ui.servers {
		objs = append(objs, s.row(st), widget.NewSeparator())
	}
	s.list.Objects = objs
	s.list.Refresh()
}

func (s *serversWindow) row(st servers.ServerStatus) fyne.CanvasObject {
	r := &serverRow{}
	s.rows[st.Alias] = r
	dot := canvas.NewCircle(stateColor(st.State))
	dotBox := container.NewGridWrap(fyne.NewSize(12, 12), dot)
	name := widget.NewLabelWithStyle(st.Alias, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	r.state = widget.NewLabel(stateLabel(st))
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
	srv, configured := s.ui.cfg.MCP.Servers[st.Alias]
	if st.State == servers.StateReady || st.State == servers.StateIdle {
		count := fmt.Sprintf("%d tools", st.Tools)
		if n := len(srv.DisabledTools); n > 0 {
			count += fmt.Sprintf(" (%d disabled)", n)
		}
		details = append(details, count)
	}
	infoLabel, info := widgets.Subtle(strings.Join(details, "  ·  "))
	infoLabel.Wrapping = fyne.TextWrapWord // a long server name wraps, rather than widening the window
	endpoint, endpointObj := widgets.Caption(st.Endpoint)
	endpoint.Truncation = fyne.TextTruncateEllipsis
	r.reason = widget.NewLabel(st.Reason)
	r.reason.Wrapping = fyne.TextWrapWord
	if st.State == servers.StateFailed || st.State == servers.StateReconnecting {
		r.reason.Importance = widget.DangerImportance
	}
	// Signing in: a state to act on, in plain words (signin.go).
	signIn, signInButtons := s.signInPart(st, r)
	if st.Reason == "" || st.State == servers.StateIdle {
		r.reason.Hide()
	}
	r.leftOut = widget.NewLabel("")
	r.leftOut.Wrapping = fyne.TextWrapWord
	r.leftOut.Importance = widget.WarningImportance
	if n := len(s.rejected(st.Alias)); n > 0 {
		r.leftOut.SetText(fmt.Sprintf("%d %s left out for breaking the MCP rules for names: see Tools.", n, widgets.Plural(n, "tool", "tools")))
	} else {
		r.leftOut.Hide()
	}

	alias := st.Alias
	r.refused, r.allow = s.refusedPart(alias, srv, configured, st.Refused)

	r.tools = widget.NewButtonWithIcon("Tools", theme.ListIcon(), func() { s.showTools(alias) })
	r.resources = widget.NewButtonWithIcon("Resources", theme.StorageIcon(), func() { s.ui.showResources(alias) })
	r.reconnect = widget.NewButtonWithIcon("Reconnect", theme.ViewRefreshIcon(), func() { s.ui.tell(&uiReconnect{alias: alias}) })
	r.disconnect = widget.NewButtonWithIcon("Disconnect", theme.MediaStopIcon(), func() { s.ui.tell(&uiDisconnect{alias: alias}) })
	r.connect = widget.NewButtonWithIcon("Connect", theme.MediaPlayIcon(), func() { s.ui.tell(&uiReconnect{alias: alias}) })
	// Edit and Remove are icons (a pencil, a bin): the row has room for
	// the server's details that way.
	r.edit = widget.NewButtonWithIcon("", theme.DocumentCreateIcon(), func() { s.showEdit(alias) })
	r.remove = widget.NewButtonWithIcon("", theme.DeleteIcon(), func() { s.confirmRemove(alias) })
	r.edit.Importance, r.remove.Importance = widget.LowImportance, widget.LowImportance
	if !configured {
		// In-process, or gone from the file: nothing there to change.
		r.edit.Hide()
		r.remove.Hide()
	}
	if st.State != servers.StateReady {
		r.resources.Hide()
	}
	if st.State == servers.StateStopped {
		r.tools.Hide()
		r.reconnect.Hide()
		r.disconnect.Hide()
	} else {
		r.connect.Hide()
		if st.State != servers.StateReady && st.State != servers.StateIdle {
			r.tools.Disable()
		}
	}
	if needsSignIn(st) {
		r.reconnect.Hide() // it would only need signing in again: Sign in is the way
	}
	// The row fits the panel whatever its width: the actions go under the
	// details and wrap to more lines when the window is narrow (beside them,
	// they held the whole window wider than the screen allows).
	actions := container.New(layout.NewRowWrapLayout(), append(signInButtons, r.tools, r.resources, r.reconnect, r.disconnect, r.connect)...)
	head := container.NewBorder(nil, nil, container.NewHBox(container.NewCenter(dotBox), name, r.state), container.NewHBox(r.edit, r.remove))
	body := container.NewVBox(head, info, endpointObj, r.reason, r.leftOut, container.NewHBox(r.refused, r.allow))
	if signIn != nil {
		body.Add(signIn)
	}
	body.Add(actions)
	return container.NewPadded(body)
}

// refusedPart says which hosts a sandboxed server asked for that its
// network list leaves out, with the setting that would allow the last one
// and a button that writes it (the server then reconnects).
func (s *serversWindow) refusedPart(alias string, srv config.Server, configured bool, refused []string) (*widget.Label, *widget.Button) {
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
			dialog.ShowError(err, s.win)
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

// reconnect drops a server's connection and connects again; a server that
// was disconnected (or disabled in the config) is started from its config.
func (b *bridge) reconnect(c actor.Context, alias string) {
	st, ok := b.servers[alias]
	if !ok {
		return
	}
	if st.State != servers.StateStopped {
		c.Send(b.sys.Servers, &servers.ReconnectServer{Alias: alias})
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

// rejected lists the tools of alias the catalog left out, with why.
func (s *serversWindow) rejected(alias string) []tools.Rejected {
	var out []tools.Rejected
	if s.ui.catalog == nil {
		return nil
	}
	for _, r := range s.ui.catalog.Rejected() {
		if r.Server == alias {
			out = append(out, r)
		}
	}
	return out
}
