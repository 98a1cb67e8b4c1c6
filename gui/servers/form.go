package servers

import (
	"fmt"

	"deckhand/config"
	"deckhand/gui/servers/connect"
	"deckhand/gui/widgets"
)

// ShowConnect opens the form for a new server.
func (s *Panel) ShowConnect() {
	s.openForm("", config.Server{}, config.ServerForm{Kind: "URL", Transport: config.TransportAuto})
}

// showEdit opens the form on a configured server.
func (s *Panel) showEdit(alias string) {
	srv, ok := s.host.Config().MCP.Servers[alias]
	if !ok {
		widgets.ShowError(fmt.Errorf("%q is not in %s", alias, s.host.Config().Path), s.Win)
		return
	}
	s.openForm(alias, srv, config.FormOf(alias, srv))
}

func (s *Panel) openForm(editing string, base config.Server, values config.ServerForm) {
	s.Form = connect.Open(formHost{s.host, s}, editing, base, values)
}

// Connect tries a server, then saves it to the config and starts it;
// without the form (a failure is shown in a dialog).
func (s *Panel) Connect(alias string, srv config.Server) {
	connect.Connect(formHost{s.host, s}, s.Win, alias, srv)
}

// formHost is the panel as the form's Host: the window's Host, with the
// panel's save and its Form.
type formHost struct {
	Host
	s *Panel
}

func (h formHost) Save(editing, alias string, srv config.Server) error {
	return h.s.save(editing, alias, srv)
}

func (h formHost) Closed(f *connect.Form) {
	if h.s.Form == f {
		h.s.Form = nil
	}
}

// save writes a server that connected to the config (in place of editing,
// if set), reloads the config, and has the bridge (re)start it.
func (s *Panel) save(editing, alias string, srv config.Server) error {
	u := s.host
	var err error
	if editing == "" {
		err = config.AddServers(u.Config().Path, map[string]config.Server{alias: srv})
	} else {
		err = config.ReplaceServer(u.Config().Path, editing, alias, srv)
	}
	if err != nil {
		return err
	}
	cfg, err := config.Load(u.Config().Path)
	if err != nil {
		return fmt.Errorf("saved, but reading the config back: %w", err)
	}
	u.SetConfig(cfg)
	saved := cfg.MCP.Servers[alias]
	u.Tell(&Changed{Old: editing, Alias: alias, Server: &saved})
	s.saved(alias)
	return nil
}
