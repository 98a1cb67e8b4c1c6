package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ServerForm is what the window's connect and edit form holds, as typed.
type ServerForm struct {
	Kind      string // "URL" or "Command"
	Target    string // the URL, or the command line
	Alias     string // "": derived from Target
	AuthEnv   string // URL servers
	Transport string // URL servers: auto, streamable or sse
	Env       string // command servers: NAME=value, one a line
	Cwd       string // command servers
	// The sandbox of a command server: Unconfined turns it off; Network
	// is "all", "none" or "hosts" (then Hosts, separated by commas or
	// spaces); Read and Write are folders, one a line; Secrets are
	// variable names, separated by commas or spaces.
	Unconfined  bool
	Network     string
	Hosts       string
	Read, Write string
	Secrets     string
}

// Network choices of the form.
const (
	FormNetworkAll   = "all"
	FormNetworkNone  = "none"
	FormNetworkHosts = "hosts"
)

// FormOf is the form that edits srv.
func FormOf(alias string, srv Server) ServerForm {
	f := ServerForm{Alias: alias, Transport: TransportAuto, Network: FormNetworkAll}
	if srv.IsStdio() {
		f.Kind, f.Target = "Command", commandLine(srv.Command, srv.Args)
		f.Env, f.Cwd = FormatEnv(srv.Env), srv.Cwd
		f.Unconfined = srv.Sandbox == SandboxOff
		switch {
		case srv.Network.On():
		case len(srv.Network.Hosts) > 0:
			f.Network, f.Hosts = FormNetworkHosts, strings.Join(srv.Network.Hosts, ", ")
		default:
			f.Network = FormNetworkNone
		}
		f.Read, f.Write = strings.Join(srv.Read, "\n"), strings.Join(srv.Write, "\n")
		f.Secrets = strings.Join(srv.Secrets, ", ")
		return f
	}
	f.Kind, f.Target, f.AuthEnv = "URL", srv.URL, srv.AuthEnv
	if srv.Transport != "" {
		f.Transport = srv.Transport
	}
	return f
}

// Server reads the form into a server and its alias. The settings the form
// does not show (trusted, read_only, timeouts, disabled_tools, the sandbox
// …) are base's; those that do not apply to the form's kind of server are
// dropped, and a literal auth_token gives way to a token variable typed in
// the form.
func (f ServerForm) Server(base Server) (Server, string, error) {
	srv := base
	srv.Command, srv.Args, srv.Env, srv.Cwd = "", nil, nil, ""
	srv.URL, srv.Transport, srv.AuthEnv = "", "", ""
	target := strings.TrimSpace(f.Target)
	if target == "" {
		return Server{}, "", fmt.Errorf("give a URL or a command")
	}
	if f.Kind == "URL" {
		if strings.TrimSpace(f.Env) != "" || strings.TrimSpace(f.Cwd) != "" {
			return Server{}, "", fmt.Errorf("environment and working folder apply to command servers only")
		}
		one, _, err := ServerFromForm("URL", target, "x", f.AuthEnv, f.Transport)
		if err != nil {
			return Server{}, "", err
		}
		srv.URL, srv.AuthEnv, srv.Transport = one.URL, one.AuthEnv, one.Transport
		if srv.AuthEnv != "" {
			srv.AuthToken = ""
		}
		srv.Sandbox, srv.Secrets, srv.AllowSecrets, srv.Read, srv.Write, srv.Network, srv.Sockets = "", nil, nil, nil, nil, Network{}, nil
	} else {
		if strings.TrimSpace(f.AuthEnv) != "" {
			return Server{}, "", fmt.Errorf("a token variable applies to URL servers; pass secrets to a command through its environment")
		}
		words, err := SplitCommand(target)
		if err != nil {
			return Server{}, "", err
		}
		srv.Command, srv.Args = words[0], words[1:]
		if srv.Env, err = ParseEnv(f.Env); err != nil {
			return Server{}, "", err
		}
		srv.Cwd = strings.TrimSpace(f.Cwd)
		srv.AuthToken = ""
		if err := f.sandbox(&srv); err != nil {
			return Server{}, "", err
		}
	}
	alias := strings.TrimSpace(f.Alias)
	if alias == "" {
		alias = DeriveAlias(srv)
	}
	if err := ValidAlias(alias); err != nil {
		return Server{}, "", fmt.Errorf("alias %q: %w", alias, err)
	}
	if err := CheckServer(alias, srv); err != nil {
		return Server{}, "", err
	}
	return srv, alias, nil
}

// sandbox reads the form's sandbox settings into srv. Settings left at
// their defaults are left out of the file.
func (f ServerForm) sandbox(srv *Server) error {
	srv.Sandbox = ""
	if f.Unconfined {
		srv.Sandbox = SandboxOff
	}
	hosts := fields(f.Hosts)
	switch f.Network {
	case "", FormNetworkAll:
		srv.Network = Network{}
	case FormNetworkNone:
		srv.Network = NetworkNone
	case FormNetworkHosts:
		if len(hosts) == 0 {
			return fmt.Errorf("network: name the hosts the server may reach (api.github.com, *.example.com)")
		}
		srv.Network = NetworkHosts(hosts...)
	default:
		return fmt.Errorf("network: want all, none or hosts, got %q", f.Network)
	}
	srv.Read, srv.Write = lines(f.Read), lines(f.Write)
	srv.Secrets = fields(f.Secrets)
	// Naming a secret in the form is the person's grant of it to this
	// server (see Server.AllowSecrets).
	srv.AllowSecrets = srv.Secrets
	return nil
}

// fields splits on commas and spaces; lines on newlines. Both drop blanks.
func fields(s string) []string {
	out := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' })
	if len(out) == 0 {
		return nil
	}
	return out
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// ParseEnv reads NAME=value lines (blank lines and # comments skipped).
func ParseEnv(text string) (map[string]string, error) {
	var env map[string]string
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if !ok || !envNameRE.MatchString(name) {
			return nil, fmt.Errorf("environment, line %d: want NAME=value, got %q", i+1, line)
		}
		if env == nil {
			env = map[string]string{}
		}
		env[name] = value
	}
	return env, nil
}

// FormatEnv writes env as ParseEnv reads it, sorted by name.
func FormatEnv(env map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(env)) {
		fmt.Fprintf(&b, "%s=%s\n", k, env[k])
	}
	return b.String()
}
