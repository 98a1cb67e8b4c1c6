// Package config owns Deckhand's configuration: the TOML file's structs, their
// defaults, loading and validation (errors name the file and the key), writing
// new server entries back, and importing servers from other MCP clients.
//
// A Config is a plain value: it is loaded once in cmd/ and passed down. Nothing
// here holds package-level mutable state.
package config

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Defaults, applied by [Config.ApplyDefaults] to fields left at zero.
const (
	DefaultToolTimeout      = 60 * time.Second
	DefaultConnectTimeout   = 30 * time.Second
	DefaultReconnectInitial = 500 * time.Millisecond
	DefaultReconnectMax     = 30 * time.Second
	DefaultMaxToolDepth     = 8
	DefaultMaxOutputBytes   = 256 << 10
	DefaultApprovalTimeout  = 2 * time.Minute
	DefaultContextTokens    = 32000
	DefaultStreamTimeout    = 2 * time.Minute
	DefaultModelRetries     = 2
	DefaultLazyShare        = 0.05
	DefaultUnloadAfter      = 8
)

// Lazy modes: when tool schemas are loaded on demand (through tool_search)
// instead of sent with every request.
const (
	LazyAuto   = "auto"   // when the eager schemas would exceed mcp.lazy_share of the context budget
	LazyAlways = "always" // always
	LazyNever  = "never"  // never
)

// Connect modes of a server.
const (
	ConnectStart    = "start"     // connect when Deckhand starts
	ConnectOnDemand = "on_demand" // connect at the first call; until then, the tools of the last connection
)

// Config is the whole configuration. Its zero value is valid: no model, no
// servers.
type Config struct {
	Model Model `toml:"model"`
	MCP   MCP   `toml:"mcp"`
	Shell Shell `toml:"shell"`
	// Policy bounds what tools may touch: files, commands, hosts, secrets.
	Policy Policy `toml:"policy"`
	// UI is how the window looks.
	UI UI `toml:"ui"`
	// Tools configures the built-in tools server (the server "local").
	Tools Tools `toml:"tools"`

	// Path is the file this config was loaded from, or "" when none existed.
	Path string `toml:"-"`
}

// Model is the language model Deckhand talks to: any OpenAI-compatible
// chat-completions endpoint (OpenAI, OpenRouter, llama.cpp, Ollama, vLLM, LM
// Studio). It is configured when BaseURL and Name are set.
type Model struct {
	// Provider is the wire format: "openai" (chat completions, the
	// default) or "anthropic" (the Messages API). Default: anthropic when
	// base_url is Anthropic's, else openai.
	Provider string `toml:"provider" validate:"omitempty,oneof=openai anthropic"`
	// BaseURL is the API root, such as http://127.0.0.1:8080/v1; requests go
	// to BaseURL/chat/completions (BaseURL/messages for anthropic). Default
	// for anthropic: https://api.anthropic.com/v1.
	BaseURL string `toml:"base_url" validate:"omitempty,http_url"`
	// Name is the model to ask for.
	Name string `toml:"name"`
	// APIKeyEnv names the environment variable holding the API key, sent as
	// a bearer token. Empty: no key (local servers).
	APIKeyEnv string `toml:"api_key_env" validate:"omitempty,env_name"`
	// MaxContextTokens bounds what one request carries (system prompt, tool
	// schemas and messages, estimated); the oldest turns are dropped first.
	// Default 32000.
	MaxContextTokens int `toml:"max_context_tokens" validate:"gte=0"`
	// MaxOutputTokens is sent as max_tokens when set. Default: the server's
	// (anthropic, which requires one: 8192).
	MaxOutputTokens int `toml:"max_output_tokens" validate:"gte=0"`
	// Temperature is sent when set. Default: the server's.
	Temperature *float64 `toml:"temperature" validate:"omitempty,gte=0,lte=2"`
	// SystemPrompt is the person's instructions, sent after Deckhand's own
	// system prompt with every request.
	SystemPrompt string `toml:"system_prompt"`
	// StreamTimeout is the longest silence allowed while a response
	// streams, and the wait for its first byte. Default 2m.
	StreamTimeout time.Duration `toml:"stream_timeout" validate:"gte=0"`
	// ToolResults is how tool results reach the model: "" (role "tool"
	// messages, switching to "prefix" for a model whose server refuses
	// them), "role" (always, never switching), or "prefix" (a user turn,
	// each result prefixed "[tool: alias.tool]", for chat templates that
	// know only user and assistant).
	ToolResults string `toml:"tool_results" validate:"omitempty,oneof=role prefix"`
	// MaxRetries is how often a request refused with 429 or 5xx (or closed
	// by the server before any answer) is retried
	// (honouring Retry-After) before the run fails. Default 2.
	MaxRetries *int `toml:"max_retries" validate:"omitempty,gte=0,lte=10"`
	// Price is what the model costs, for the cost figures in the log.
	// Default 0 (a local model).
	Price Price `toml:"price"`
	// Prices are per-model prices that beat Price, keyed by model name:
	// [model.prices."gpt-4o-mini"].
	Prices map[string]Price `toml:"prices" validate:"dive"`
}

// Price is a model's price in US dollars per million tokens. Input tokens
// read from or written to a prompt cache (Anthropic's) cost their own
// prices when given, else what Anthropic charges: a cache read 0.1 times
// the input price, a cache write 1.25 times.
type Price struct {
	InputPerMTok      float64  `toml:"input_per_mtok" validate:"gte=0"`
	OutputPerMTok     float64  `toml:"output_per_mtok" validate:"gte=0"`
	CacheReadPerMTok  *float64 `toml:"cache_read_per_mtok" validate:"omitempty,gte=0"`
	CacheWritePerMTok *float64 `toml:"cache_write_per_mtok" validate:"omitempty,gte=0"`
}

// PriceFor is the price of the named model: its own entry in Prices, else
// Price.
func (m Model) PriceFor(name string) Price {
	if p, ok := m.Prices[name]; ok {
		return p
	}
	return m.Price
}

// PriceKnown reports whether the named model has a price: its own entry
// in Prices, or Price given (a price of 0 typed for a free model is
// known).
func (m Model) PriceKnown(name string) bool {
	if _, ok := m.Prices[name]; ok {
		return true
	}
	return m.Price != (Price{})
}

// OnThisComputer reports whether the model's server is at a loopback
// address (Ollama, llama.cpp): a model that costs nothing, whose cost
// is not unknown for want of a price.
func (m Model) OnThisComputer() bool {
	u, err := url.Parse(m.BaseURL)
	if err != nil || u.Hostname() == "" {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// Cost is what input and output tokens cost at this price.
func (p Price) Cost(input, output int) float64 {
	return float64(input)*p.InputPerMTok/1e6 + float64(output)*p.OutputPerMTok/1e6
}

// CostCached is what a request costs when cacheRead and cacheWrite of its
// input tokens (which count them all) were read from and written to the
// prompt cache.
func (p Price) CostCached(input, output, cacheRead, cacheWrite int) float64 {
	read, write := 0.1*p.InputPerMTok, 1.25*p.InputPerMTok
	if p.CacheReadPerMTok != nil {
		read = *p.CacheReadPerMTok
	}
	if p.CacheWritePerMTok != nil {
		write = *p.CacheWritePerMTok
	}
	plain := max(input-cacheRead-cacheWrite, 0)
	return p.Cost(plain, output) + (float64(cacheRead)*read+float64(cacheWrite)*write)/1e6
}

// AnthropicBaseURL is model.base_url's default for provider anthropic.
const AnthropicBaseURL = "https://api.anthropic.com/v1"

// ImpliedProvider is model.provider's default for base_url: anthropic
// for Anthropic's own address, else openai.
func ImpliedProvider(baseURL string) string {
	if u, err := url.Parse(strings.TrimSpace(baseURL)); err == nil && strings.EqualFold(u.Hostname(), "api.anthropic.com") {
		return "anthropic"
	}
	return "openai"
}

// Configured reports whether a model is set up.
func (m Model) Configured() bool { return m.BaseURL != "" && m.Name != "" }

// Retries is MaxRetries with its default.
func (m Model) Retries() int {
	if m.MaxRetries == nil {
		return DefaultModelRetries
	}
	return *m.MaxRetries
}

// Shell configures the CMD: route: shell commands the model proposes on
// lines starting with "CMD:", run (after approval, as the pseudo-tool
// local.exec) and fed back to the model.
type Shell struct {
	// Disabled turns the CMD: route off: such lines stay plain text.
	Disabled bool `toml:"disabled"`
	// Program runs each command as `Program -c COMMAND`. Default /bin/sh.
	Program string `toml:"program"`
}

// MCP configures the MCP servers and how Deckhand talks to them.
type MCP struct {
	// MaxToolDepth bounds the model requests of one run that may ask for
	// tools; the run then stops with "tool-call depth limit reached".
	// Default 8.
	MaxToolDepth int `toml:"max_tool_depth" validate:"gte=0"`

	// MaxOutputBytes caps a tool result given to the model; the head and
	// tail are kept with a marker saying how much was cut. Default 256 KiB.
	MaxOutputBytes int `toml:"max_output_bytes" validate:"gte=0"`

	// ApprovalTimeout is how long a tool call waits for the person to
	// answer; no answer is a deny. Default 2m.
	ApprovalTimeout time.Duration `toml:"approval_timeout" validate:"gte=0"`

	// Lazy says when tool schemas are loaded on demand: the model gets a
	// tool_search tool and an index of the servers, and a tool's schema from
	// the request after it was found (or first called). "auto" (the
	// default) is lazy when every schema together would take more than
	// LazyShare of model.max_context_tokens; "always"; "never".
	Lazy string `toml:"lazy" validate:"omitempty,oneof=auto always never"`

	// LazyShare is the share of the context budget the eager schemas may
	// take before "auto" turns lazy. Default 0.05.
	LazyShare float64 `toml:"lazy_share" validate:"gte=0,lte=1"`

	// Eager tools ("alias.tool") are always sent, even when the rest are
	// lazy.
	Eager []string `toml:"eager" validate:"dive,tool_pattern"`

	// UnloadAfter unloads a lazy tool that was offered in this many model
	// requests of a conversation without being called: its schema is no
	// longer sent, and a search or a call by name loads it again. 0 never
	// unloads; unset (nil) is the default, 8. See UnloadAfterRequests.
	UnloadAfter *int `toml:"unload_after" validate:"omitempty,gte=0"`

	// AutoApprove lets tools run without asking: "alias.tool" = true for one
	// tool, "alias.*" = true for a server, "local.exec" for shell commands.
	// A rule for one tool beats its server's; false means "ask".
	AutoApprove map[string]bool `toml:"auto_approve" validate:"dive,keys,approve_rule,endkeys"`

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

// Backoff is a capped exponential backoff with full jitter: each delay is
// drawn from [0, ceiling], the ceiling being Initial, doubling up to Max.
type Backoff struct {
	// Initial is the first delay's ceiling. Default 500ms.
	Initial time.Duration `toml:"initial" validate:"gte=0"`
	// Max caps the ceiling. Default 30s.
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
	// Lazy, when set, decides for this server's tools whatever mcp.lazy
	// says: true loads them on demand, false always sends them.
	Lazy *bool `toml:"lazy,omitempty"`
	// Connect is when to connect: "start" (the default) or "on_demand", at
	// the first call, with the tools of the last successful connection
	// (kept in the log) offered until then.
	Connect string `toml:"connect,omitempty" validate:"omitempty,oneof=start on_demand"`
	// Disabled keeps the server in the file without connecting to it.
	Disabled bool `toml:"disabled,omitempty"`
	// DisabledTools are tools of the server (its own names for them) left
	// out of what the model is offered and of tool_search; calls to them
	// are refused. The servers panel still lists them, as disabled.
	DisabledTools []string `toml:"disabled_tools,omitempty" validate:"dive,required,lte=128"`

	// Sandbox confines a command server with the kernel (namespaces and
	// Landlock): it sees the system, its own install folder and package
	// caches, the read roots and Read; it writes the write roots, Write
	// and a private state folder; nothing else of the home folder and no
	// socket of the session. "on" (the default) or "off" (unconfined,
	// shown as a warning).
	Sandbox string `toml:"sandbox,omitempty" validate:"omitempty,oneof=on off"`
	// Secrets names variables passed on to this server: each must also be
	// in policy.secrets.keys (then read from Deckhand's environment), or
	// in AllowSecrets.
	Secrets []string `toml:"secrets,omitempty" validate:"dive,env_name"`
	// AllowSecrets are the Secrets the person granted this server alone
	// in the servers form: each is passed on from the system keyring,
	// where the form keeps its value (never in this file), or else from
	// Deckhand's environment, whatever policy.secrets.keys says. No other
	// server gets them (a value in the keyring is kept under this
	// server's alias).
	AllowSecrets []string `toml:"allow_secrets,omitempty" validate:"dive,env_name"`
	// Read and Write add folders this server may read, or read and write,
	// besides the policy's roots ("~/" expands).
	Read  []string `toml:"read,omitempty"`
	Write []string `toml:"write,omitempty"`
	// Network is what a sandboxed server may reach: true (everything, the
	// default), false (nothing: a network of its own), or a list of hosts
	// ("api.github.com", "*.example.com"), reached only through Deckhand's
	// egress proxy, each connection logged.
	Network Network `toml:"network,omitempty"`
	// Sockets are sockets of the person's session a sandboxed server may
	// connect to, by name ("ssh-agent", "gpg-agent", "dbus", "wayland",
	// "x11", "pulse", "pipewire", "docker") or by path. It sees no other.
	Sockets []string `toml:"sockets,omitempty"`
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
	if m.MaxToolDepth == 0 {
		m.MaxToolDepth = DefaultMaxToolDepth
	}
	if m.MaxOutputBytes == 0 {
		m.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if m.ApprovalTimeout == 0 {
		m.ApprovalTimeout = DefaultApprovalTimeout
	}
	if m.Lazy == "" {
		m.Lazy = LazyAuto
	}
	if m.LazyShare == 0 {
		m.LazyShare = DefaultLazyShare
	}
	md := &c.Model
	if md.Provider == "" {
		md.Provider = ImpliedProvider(md.BaseURL)
	}
	if md.Provider == "anthropic" && md.BaseURL == "" {
		md.BaseURL = AnthropicBaseURL
	}
	if md.MaxContextTokens == 0 {
		md.MaxContextTokens = DefaultContextTokens
	}
	if md.StreamTimeout == 0 {
		md.StreamTimeout = DefaultStreamTimeout
	}
	if c.Shell.Program == "" {
		c.Shell.Program = "/bin/sh"
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

// UnloadAfterRequests is mcp.unload_after, with its default: after how many
// requests without a call a loaded lazy tool is unloaded (0: never).
func (m MCP) UnloadAfterRequests() int {
	if m.UnloadAfter == nil {
		return DefaultUnloadAfter
	}
	return *m.UnloadAfter
}
