package config

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// Imported is one server mapped from another client's config.
type Imported struct {
	Alias  string
	From   string // the name in the source file
	Server Server
}

// Skipped is one server that could not be mapped, and why.
type Skipped struct {
	Name   string
	Reason string
}

// ImportReport says what an import added and what it skipped.
type ImportReport struct {
	Format  string // "Claude Desktop", "VS Code" or both
	Added   []Imported
	Skipped []Skipped
}

// foreignServer is the union of Claude Desktop's mcpServers entries and VS
// Code's servers entries.
type foreignServer struct {
	Type      string            `json:"type"`
	Transport string            `json:"transport"`
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
	EnvFile   string            `json:"envFile"`
	Cwd       string            `json:"cwd"`
	URL       string            `json:"url"`
	Headers   map[string]string `json:"headers"`
	Disabled  bool              `json:"disabled"`
}

// ParseImport maps the servers in a Claude Desktop claude_desktop_config.json
// (mcpServers) or a VS Code mcp.json (servers; comments and trailing commas
// allowed) to Deckhand servers. Names taken in existing are skipped; home
// expands ${userHome} and a leading "~/".
func ParseImport(name string, data []byte, home string, existing map[string]Server) (*ImportReport, error) {
	std, err := hujson.Standardize(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not valid JSON: %w", name, err)
	}
	var top struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
		Servers    map[string]json.RawMessage `json:"servers"`
	}
	if err := json.Unmarshal(std, &top); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var formats []string
	all := map[string]json.RawMessage{}
	if top.MCPServers != nil {
		formats = append(formats, "Claude Desktop")
		for k, v := range top.MCPServers {
			all[k] = v
		}
	}
	if top.Servers != nil {
		formats = append(formats, "VS Code")
		for k, v := range top.Servers {
			if _, dup := all[k]; !dup {
				all[k] = v
			}
		}
	}
	if len(formats) == 0 {
		return nil, fmt.Errorf("%s: no \"mcpServers\" (Claude Desktop) or \"servers\" (VS Code) object found", name)
	}
	names := make([]string, 0, len(all))
	for k := range all {
		names = append(names, k)
	}
	slices.Sort(names)

	rep := &ImportReport{Format: strings.Join(formats, " and ")}
	taken := map[string]bool{}
	for alias := range existing {
		taken[alias] = true
	}
	for _, n := range names {
		var fs foreignServer
		if err := json.Unmarshal(all[n], &fs); err != nil {
			rep.Skipped = append(rep.Skipped, Skipped{n, "not a server object: " + err.Error()})
			continue
		}
		s, err := mapServer(fs, home)
		if err != nil {
			rep.Skipped = append(rep.Skipped, Skipped{n, err.Error()})
			continue
		}
		if added, skipped := admit(n, s, taken); skipped != nil {
			rep.Skipped = append(rep.Skipped, *skipped)
		} else {
			rep.Added = append(rep.Added, added)
		}
	}
	return rep, nil
}

// admit takes server s, named name in another client's config, under the
// alias made of its name, unless the alias is taken or s is not valid
// (then why, as a Skipped). taken gains the alias.
func admit(name string, s Server, taken map[string]bool) (Imported, *Skipped) {
	alias := sanitizeAlias(name)
	if taken[alias] {
		return Imported{}, &Skipped{name, fmt.Sprintf("alias %q is already in the config", alias)}
	}
	check := Config{MCP: MCP{Servers: map[string]Server{alias: s}}}
	if problems := validate(&check); len(problems) > 0 {
		return Imported{}, &Skipped{name, problems[0].Key + ": " + problems[0].Msg}
	}
	taken[alias] = true
	return Imported{Alias: alias, From: name, Server: s}, nil
}

var (
	varRE      = regexp.MustCompile(`\$\{([^}]*)\}`)
	envVarRE   = regexp.MustCompile(`^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$`)
	bearerRE   = regexp.MustCompile(`^(?i:bearer)\s+(.+)$`)
	badAliasRE = regexp.MustCompile(`[^A-Za-z0-9_-]+`)
)

func mapServer(fs foreignServer, home string) (Server, error) {
	var s Server
	kind := strings.ToLower(fs.Type)
	if kind == "" {
		kind = strings.ToLower(fs.Transport)
	}
	if fs.EnvFile != "" {
		return s, fmt.Errorf("envFile is not supported: copy its variables into env")
	}
	expand := func(field, v string) (string, error) {
		v = strings.ReplaceAll(v, "${userHome}", home)
		if strings.HasPrefix(v, "~/") && home != "" {
			v = home + v[1:]
		}
		if m := varRE.FindStringSubmatch(v); m != nil {
			return "", fmt.Errorf("%s uses ${%s}, which only the original client can fill in", field, m[1])
		}
		return v, nil
	}
	var err error
	switch {
	case fs.Command != "":
		if kind != "" && kind != "stdio" {
			return s, fmt.Errorf("type %q does not fit a command", fs.Type)
		}
		if s.Command, err = expand("command", fs.Command); err != nil {
			return s, err
		}
		for _, a := range fs.Args {
			a, err := expand("args", a)
			if err != nil {
				return s, err
			}
			s.Args = append(s.Args, a)
		}
		for k, v := range fs.Env {
			if m := envVarRE.FindStringSubmatch(v); m != nil && m[1] == k {
				continue // the child inherits Deckhand's environment anyway
			}
			v, err := expand("env."+k, v)
			if err != nil {
				return s, err
			}
			if s.Env == nil {
				s.Env = map[string]string{}
			}
			s.Env[k] = v
		}
		if fs.Cwd != "" {
			if s.Cwd, err = expand("cwd", fs.Cwd); err != nil {
				return s, err
			}
		}
	case fs.URL != "":
		switch kind {
		case "":
			s.Transport = ""
		case "http", "streamable-http", "streamablehttp", "streamable":
			s.Transport = TransportStreamable
		case "sse":
			s.Transport = TransportSSE
		default:
			return s, fmt.Errorf("unknown type %q", fs.Type)
		}
		if s.URL, err = expand("url", fs.URL); err != nil {
			return s, err
		}
		for h, v := range fs.Headers {
			if !strings.EqualFold(h, "Authorization") {
				return s, fmt.Errorf("header %q is not supported: Deckhand sends only Authorization: Bearer", h)
			}
			m := bearerRE.FindStringSubmatch(strings.TrimSpace(v))
			if m == nil {
				return s, fmt.Errorf("the Authorization header is not a bearer token")
			}
			if e := envVarRE.FindStringSubmatch(m[1]); e != nil {
				s.AuthEnv = e[1]
			} else if s.AuthToken, err = expand("the Authorization header", m[1]); err != nil {
				return s, err
			}
		}
	default:
		return s, fmt.Errorf("has neither command nor url")
	}
	s.Disabled = fs.Disabled
	return s, nil
}

// sanitizeAlias turns a foreign server name into a valid alias.
func sanitizeAlias(name string) string {
	a := badAliasRE.ReplaceAllString(name, "-")
	for strings.Contains(a, "__") {
		a = strings.ReplaceAll(a, "__", "_")
	}
	a = strings.TrimLeft(a, "-_")
	if len(a) > 32 {
		a = strings.TrimRight(a[:32], "-_")
	}
	if a == "" {
		a = "server"
	}
	if ValidAlias(a) != nil {
		a = "mcp-" + a
		if len(a) > 32 {
			a = a[:32]
		}
	}
	return a
}
