// Package config owns Deckhand's configuration: the TOML file's structs, their
// defaults, loading and validation (errors name the file and the key), writing
// new server entries back, and importing servers from other MCP clients.
//
// A Config is a plain value: it is loaded once in cmd/ and passed down. Nothing
// here holds package-level mutable state.
package config

import (
	"os"
	"path/filepath"
	"time"
)

// Defaults, applied by [Config.ApplyDefaults] to fields left at zero.
const (
	DefaultToolTimeout      = 60 * time.Second
	DefaultConnectTimeout   = 30 * time.Second
	DefaultReconnectInitial = 500 * time.Millisecond
	DefaultReconnectMax     = 30 * time.Second
)

// Config is the whole configuration. Its zero value is valid: no servers.
type Config struct {
	MCP MCP `toml:"mcp"`

	// Path is the file this config was loaded from, or "" when none existed.
	Path string `toml:"-"`
}

// MCP configures the MCP servers and how Deckhand talks to them.
type MCP struct {
	// ToolTimeout bounds one tool call unless the server sets its own timeout.
	// Default 60s.
	ToolTimeout time.Duration `toml:"tool_timeout" validate:"gte=0"`

	// ConnectTimeout bounds starting a server and completing the MCP
	// handshake, unless the server sets its own connect_timeout. Default 30s.
	ConnectTimeout time.Duration `toml:"connect_timeout" validate:"gte=0"`

	// Reconnect is the backoff between attempts to (re)connect a server whose
	// connection failed or died.
	Reconnect Backoff `toml:"reconnect"`

	// Servers maps an alias (letters, digits, '-' and '_', no "__") to a
	// server. Tools are shown to people as alias.tool.
	Servers map[string]Server `toml:"servers" validate:"dive,keys,alias,endkeys"`
}

// Backoff is a capped exponential backoff: Initial, doubling up to Max.
type Backoff struct {
	// Initial is the first delay. Default 500ms.
	Initial time.Duration `toml:"initial" validate:"gte=0"`
	// Max caps the delay. Default 30s.
	Max time.Duration `toml:"max" validate:"gte=0"`
}

// Transport values for [Server.Transport].
const (
	TransportAuto       = "auto"       // HTTP: streamable, falling back to legacy SSE
	TransportStreamable = "streamable" // HTTP: streamable HTTP (also plain JSON-per-POST servers)
	TransportSSE        = "sse"        // HTTP: the legacy HTTP+SSE transport
	TransportStdio      = "stdio"      // a child process speaking over stdin/stdout
)

// Server is one MCP server: a command (stdio) or a URL (HTTP).
type Server struct {
	// Command starts a local server that speaks MCP over stdin/stdout. It is
	// looked up on PATH and, failing that, on the login shell's PATH (so npx
	// and friends are found when Deckhand was started from a desktop launcher).
	Command string `toml:"command,omitempty"`
	// Args are passed to Command.
	Args []string `toml:"args,omitempty"`
	// Env adds to (or overrides) Deckhand's own environment for Command.
	Env map[string]string `toml:"env,omitempty"`
	// Cwd is Command's working directory; "~/" expands to the home directory.
	// Default: Deckhand's working directory.
	Cwd string `toml:"cwd,omitempty"`

	// URL is a remote server's endpoint, http:// or https://.
	URL string `toml:"url,omitempty" validate:"omitempty,http_url"`

	// Transport selects the protocol: "auto" (the default for url: streamable
	// HTTP, falling back to legacy SSE as the MCP spec describes), "streamable",
	// "sse", or "stdio" (the only choice, and the default, for command).
	Transport string `toml:"transport,omitempty" validate:"omitempty,oneof=auto streamable sse stdio"`

	// AuthToken is a bearer token sent as "Authorization: Bearer …" to a URL
	// server. Prefer AuthEnv, which keeps the secret out of this file.
	AuthToken string `toml:"auth_token,omitempty"`
	// AuthEnv names an environment variable holding the bearer token.
	AuthEnv string `toml:"auth_env,omitempty" validate:"omitempty,env_name"`

	// Timeout bounds one tool call on this server. Default: mcp.tool_timeout.
	Timeout time.Duration `toml:"timeout,omitempty" validate:"gte=0"`
	// ConnectTimeout bounds connecting to this server. Default:
	// mcp.connect_timeout.
	ConnectTimeout time.Duration `toml:"connect_timeout,omitempty" validate:"gte=0"`

	// Trusted means the server's tool annotations (readOnlyHint and so on)
	// are believed; for other servers they are shown as hints only.
	Trusted bool `toml:"trusted,omitempty"`
	// ReadOnly marks tools as free of side effects: true for every tool of
	// the server, or a list of tool names. Read-only calls in one model turn
	// may run in parallel.
	ReadOnly ReadOnly `toml:"read_only,omitempty"`
	// Disabled keeps the server in the file without connecting to it.
	Disabled bool `toml:"disabled,omitempty"`
}

// IsStdio reports whether the server is a local command.
func (s Server) IsStdio() bool { return s.Command != "" }

// Endpoint is the URL, or the command line, for display. URL credentials are
// redacted.
func (s Server) Endpoint() string {
	if s.IsStdio() {
		return commandLine(s.Command, s.Args)
	}
	return redactURL(s.URL)
}

// EffectiveTransport is Transport with its default filled in.
func (s Server) EffectiveTransport() string {
	switch {
	case s.Transport != "":
		return s.Transport
	case s.IsStdio():
		return TransportStdio
	default:
		return TransportAuto
	}
}

// ApplyDefaults fills every zero field that has a default.
func (c *Config) ApplyDefaults() {
	m := &c.MCP
	if m.ToolTimeout == 0 {
		m.ToolTimeout = DefaultToolTimeout
	}
	if m.ConnectTimeout == 0 {
		m.ConnectTimeout = DefaultConnectTimeout
	}
	if m.Reconnect.Initial == 0 {
		m.Reconnect.Initial = DefaultReconnectInitial
	}
	if m.Reconnect.Max == 0 {
		m.Reconnect.Max = DefaultReconnectMax
	}
	if m.Reconnect.Max < m.Reconnect.Initial {
		m.Reconnect.Max = m.Reconnect.Initial
	}
}

// CallTimeout is the timeout for one tool call on server s.
func (m MCP) CallTimeout(s Server) time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	if m.ToolTimeout > 0 {
		return m.ToolTimeout
	}
	return DefaultToolTimeout
}

// DialTimeout is the timeout for connecting to server s.
func (m MCP) DialTimeout(s Server) time.Duration {
	if s.ConnectTimeout > 0 {
		return s.ConnectTimeout
	}
	if m.ConnectTimeout > 0 {
		return m.ConnectTimeout
	}
	return DefaultConnectTimeout
}

// DefaultPath is $XDG_CONFIG_HOME/deckhand/config.toml (or the platform's
// equivalent).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "deckhand", "config.toml"), nil
}
