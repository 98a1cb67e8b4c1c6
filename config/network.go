package config

import (
	"fmt"
	"strings"
)

// Network is what a sandboxed command server may reach: `network = true`
// (everything, the default: npx and uvx fetch packages), `false` (nothing:
// a network of its own with only its loopback), or a list of hosts
// (`["api.github.com", "*.example.com"]`: only those, through Deckhand's
// egress proxy, which is the only way out of its network).
type Network struct {
	Set   bool     // the key was given
	All   bool     // true: everything
	Hosts []string // the hosts allowed, when not All
}

// NetworkAll and NetworkNone are the two switches, for code that builds a
// server.
var (
	NetworkAll  = Network{Set: true, All: true}
	NetworkNone = Network{Set: true}
)

// NetworkHosts allows only hosts.
func NetworkHosts(hosts ...string) Network { return Network{Set: true, Hosts: hosts} }

// IsZero reports whether the key was left out.
func (n Network) IsZero() bool { return !n.Set }

// On reports whether every host may be reached (the default).
func (n Network) On() bool { return !n.Set || n.All }

// UnmarshalTOML accepts a boolean or an array of host names.
func (n *Network) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case bool:
		*n = Network{Set: true, All: v}
		return nil
	case []any:
		hosts := make([]string, 0, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok || strings.TrimSpace(s) == "" {
				return fmt.Errorf("element %d: want a host name such as \"api.github.com\" or \"*.example.com\", got %#v", i, e)
			}
			hosts = append(hosts, strings.TrimSpace(s))
		}
		*n = Network{Set: true, Hosts: hosts}
		return nil
	default:
		return fmt.Errorf("want true, false or a list of host names, got %#v", v)
	}
}

// TOML is the value as written in the config.
func (n Network) TOML() string {
	switch {
	case n.All:
		return "true"
	case len(n.Hosts) == 0:
		return "false"
	}
	return jsonStrings(n.Hosts)
}

// String says it in words.
func (n Network) String() string {
	switch {
	case n.On():
		return "all"
	case len(n.Hosts) == 0:
		return "none"
	}
	return strings.Join(n.Hosts, ", ")
}

// SocketNames are the sockets of a session a server may be granted by
// name (Server.Sockets).
var SocketNames = []string{"ssh-agent", "gpg-agent", "dbus", "wayland", "x11", "pulse", "pipewire", "docker"}
