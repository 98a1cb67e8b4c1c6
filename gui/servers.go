package gui

import (
	"context"
	"fmt"
	"image/color"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors"
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
}

type serverRow struct {
	state                                 *widget.Label
	reason                                *widget.Label
	leftOut                               *widget.Label // tools left out of the catalog
	tools, reconnect, disconnect, connect *widget.Button
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
	s := &serversWindow{ui: u, win: u.app.NewWindow("Deckhand: servers"), list: container.NewVBox()}
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

func (s *serversWindow) row(st actors.ServerStatus) fyne.CanvasObject {
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
	if st.State == actors.StateReady || st.State == actors.StateIdle {
		details = append(details, fmt.Sprintf("%d tools", st.Tools))
	}
	_, info := subtle(strings.Join(details, "  ·  "))
	endpoint, endpointObj := caption(st.Endpoint)
	endpoint.Truncation = fyne.TextTruncateEllipsis
	r.reason = widget.NewLabel(st.Reason)
	r.reason.Wrapping = fyne.TextWrapWord
	if st.State == actors.StateFailed || st.State == actors.StateReconnecting {
		r.reason.Importance = widget.DangerImportance
	}
	if st.Reason == "" || st.State == actors.StateIdle {
		r.reason.Hide()
	}
	r.leftOut = widget.NewLabel("")
	r.leftOut.Wrapping = fyne.TextWrapWord
	r.leftOut.Importance = widget.WarningImportance
	if n := len(s.rejected(st.Alias)); n > 0 {
		r.leftOut.SetText(fmt.Sprintf("%d %s left out for breaking the MCP rules for names: see Tools.", n, plural(n, "tool", "tools")))
	} else {
		r.leftOut.Hide()
	}

	alias := st.Alias
	r.tools = widget.NewButtonWithIcon("Tools", theme.ListIcon(), func() { s.showTools(alias) })
	r.reconnect = widget.NewButtonWithIcon("Reconnect", theme.ViewRefreshIcon(), func() { s.ui.tell(&uiReconnect{alias: alias}) })
	r.disconnect = widget.NewButtonWithIcon("Disconnect", theme.MediaStopIcon(), func() { s.ui.tell(&uiDisconnect{alias: alias}) })
	r.connect = widget.NewButtonWithIcon("Connect", theme.MediaPlayIcon(), func() { s.ui.tell(&uiReconnect{alias: alias}) })
	if st.State == actors.StateStopped {
		r.tools.Hide()
		r.reconnect.Hide()
		r.disconnect.Hide()
	} else {
		r.connect.Hide()
		if st.State != actors.StateReady && st.State != actors.StateIdle {
			r.tools.Disable()
		}
	}
	buttons := container.NewHBox(r.tools, r.reconnect, r.disconnect, r.connect)
	head := container.NewHBox(container.NewCenter(dotBox), name, r.state)
	return container.NewPadded(container.NewBorder(nil, nil, nil, container.NewCenter(buttons),
		container.NewVBox(head, info, endpointObj, r.reason, r.leftOut)))
}

func stateLabel(st actors.ServerStatus) string {
	switch st.State {
	case actors.StateReady:
		return "ready"
	case actors.StateConnecting:
		return "connecting…"
	case actors.StateIdle:
		return "idle: connects at its first call"
	case actors.StateFailed, actors.StateReconnecting:
		label := string(st.State)
		if !st.NextRetry.IsZero() {
			label += ", next try at " + st.NextRetry.Format("15:04:05")
		}
		return label
	}
	return string(st.State)
}

func stateColor(s actors.State) color.Color {
	switch s {
	case actors.StateReady:
		return theme.Color(theme.ColorNameSuccess)
	case actors.StateFailed, actors.StateReconnecting:
		return theme.Color(theme.ColorNameError)
	case actors.StateConnecting:
		return theme.Color(theme.ColorNameWarning)
	case actors.StateIdle:
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

// showTools lists a server's tools, marking those new on the server or
// changed since they were pinned; picking one shows its description,
// warnings, annotations and full input and output schemas. Below: the tools
// left out (with why) and those gone from the server's listing.
func (s *serversWindow) showTools(alias string) {
	var list []tools.Tool
	if s.ui.catalog != nil {
		list = s.ui.catalog.Server(alias)
	}
	var states []actors.PinState
	if sys := s.ui.d.System; sys != nil {
		states = sys.PinStates(list)
	}
	label := func(i int) string {
		switch {
		case i < len(states) && states[i].Changed:
			return list[i].Name + "  · changed"
		case i < len(states) && states[i].New:
			return list[i].Name + "  · new"
		}
		return list[i].Name
	}
	w := s.ui.app.NewWindow("Deckhand: tools of " + alias)
	detail := widget.NewRichText()
	detail.Wrapping = fyne.TextWrapWord
	tl := widget.NewList(
		func() int { return len(list) },
		func() fyne.CanvasObject { return widget.NewLabel("a_tool_name_of_some_length") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(label(i)) },
	)
	tl.OnSelected = func(i widget.ListItemID) {
		md := tools.Markdown(list[i])
		if i < len(states) {
			switch st := states[i]; {
			case st.Changed:
				md = "**Changed since it was pinned**: it is asked again before it runs.\n\n```\n" + st.Change + "\n```\n\n" + md
			case st.New:
				md = "**" + actors.NewToolWarning(alias, st.Since) + "**\n\n" + md
			}
		}
		detail.ParseMarkdown(md)
	}
	if len(list) > 0 {
		tl.Select(0)
	} else {
		detail.ParseMarkdown("This server has no tools (or is not connected).")
	}
	var notes []string
	for _, r := range s.rejected(alias) {
		notes = append(notes, fmt.Sprintf("Left out: %s (%s)", r.Name, r.Reason))
	}
	if sys := s.ui.d.System; sys != nil {
		for _, g := range sys.Gone(alias) {
			notes = append(notes, fmt.Sprintf("Gone: %s is not in the server's listing since %s", g.Tool, g.Since.Local().Format("2006-01-02 15:04")))
		}
	}
	var bottom fyne.CanvasObject
	if len(notes) > 0 {
		l := widget.NewLabel(strings.Join(notes, "\n"))
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.WarningImportance
		bottom = container.NewVBox(widget.NewSeparator(), l)
		s.notes = l.Text
	}
	split := container.NewHSplit(tl, container.NewScroll(detail))
	split.Offset = 0.3
	w.SetContent(container.NewBorder(nil, bottom, nil, nil, split))
	w.Resize(fyne.NewSize(860, 560))
	w.Show()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
