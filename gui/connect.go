package gui

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
)

// showConnect asks for a new server: a URL, or a command and its
// arguments; an alias; the environment variable holding its token. It is
// saved to the config and connected at once.
func (s *serversWindow) showConnect() {
	kind := widget.NewRadioGroup([]string{"URL", "Command"}, nil)
	kind.Horizontal = true
	kind.SetSelected("URL")
	target := widget.NewEntry()
	target.SetPlaceHolder("https://mcp.example.com/mcp")
	alias := widget.NewEntry()
	alias.SetPlaceHolder("derived from the URL or command")
	authEnv := widget.NewEntry()
	authEnv.SetPlaceHolder("EXAMPLE_TOKEN (optional)")
	transport := widget.NewSelect([]string{"auto", "streamable", "sse"}, nil)
	transport.SetSelected("auto")
	kind.OnChanged = func(k string) {
		if k == "URL" {
			target.SetPlaceHolder("https://mcp.example.com/mcp")
			transport.Enable()
			authEnv.Enable()
		} else {
			target.SetPlaceHolder("npx -y @modelcontextprotocol/server-filesystem ~/Documents")
			transport.Disable()
			authEnv.Disable()
		}
	}
	items := []*widget.FormItem{
		widget.NewFormItem("Kind", kind),
		{Text: "URL or command", Widget: target, HintText: "a command is split into arguments like a shell would"},
		widget.NewFormItem("Alias", alias),
		{Text: "Token variable", Widget: authEnv, HintText: "sent as Authorization: Bearer; the token itself is never saved"},
		widget.NewFormItem("Transport", transport),
	}
	d := dialog.NewForm("Connect a server", "Connect and save", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		srv, name, err := config.ServerFromForm(kind.Selected, target.Text, alias.Text, authEnv.Text, transport.Selected)
		if err != nil {
			dialog.ShowError(err, s.win)
			return
		}
		s.connect(name, srv)
	}, s.win)
	d.Resize(fyne.NewSize(620, 0))
	d.Show()
}

// connect saves a server to the config and starts it.
func (s *serversWindow) connect(alias string, srv config.Server) {
	u := s.ui
	if _, taken := u.cfg.MCP.Servers[alias]; taken {
		dialog.ShowError(fmt.Errorf("a server named %q is already in %s: pick another alias", alias, u.cfg.Path), s.win)
		return
	}
	if err := config.AddServers(u.cfg.Path, map[string]config.Server{alias: srv}); err != nil {
		dialog.ShowError(err, s.win)
		return
	}
	if cfg, err := config.Load(u.cfg.Path); err == nil {
		u.setConfig(cfg)
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := u.d.System.AddServer(ctx, alias, srv); err != nil {
			u.post(func() { dialog.ShowError(err, s.win) })
		}
	}()
}
