package gui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
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
		srv, name, err := serverFromForm(kind.Selected, target.Text, alias.Text, authEnv.Text, transport.Selected)
		if err != nil {
			dialog.ShowError(err, s.win)
			return
		}
		s.connect(name, srv)
	}, s.win)
	d.Resize(fyne.NewSize(620, 0))
	d.Show()
}

// serverFromForm checks the connect form and makes a server of it.
func serverFromForm(kind, target, alias, authEnv, transport string) (config.Server, string, error) {
	var srv config.Server
	target = strings.TrimSpace(target)
	if target == "" {
		return srv, "", errors.New("give a URL or a command")
	}
	if kind == "URL" {
		u, err := url.Parse(target)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return srv, "", fmt.Errorf("%q is not an http or https URL", target)
		}
		srv.URL = target
		srv.AuthEnv = strings.TrimSpace(authEnv)
		if transport != "auto" {
			srv.Transport = transport
		}
	} else {
		words, err := splitCommand(target)
		if err != nil {
			return srv, "", err
		}
		srv.Command, srv.Args = words[0], words[1:]
	}
	alias = strings.TrimSpace(alias)
	if alias == "" {
		alias = config.DeriveAlias(srv)
	}
	if err := config.CheckServer(alias, srv); err != nil {
		return srv, "", err
	}
	return srv, alias, nil
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

// splitCommand splits a command line into words, with single and double
// quotes and backslash escapes as in a POSIX shell (no expansion: the
// command is not run by a shell).
func splitCommand(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quote := false, rune(0)
	escaped := false
	for _, r := range line {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c quote in %q", quote, line)
	}
	if escaped {
		return nil, fmt.Errorf("a trailing backslash in %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("give a URL or a command")
	}
	return words, nil
}
