package config

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"deckhand/sandbox"

	"github.com/go-playground/validator/v10"
)

// LocalAlias is the server of Deckhand's own tools: the built-in tools
// server and pseudo-tools such as local.exec. No configured server can
// take it.
const LocalAlias = "local"

// ReservedAliases cannot name a server.
var ReservedAliases = []string{LocalAlias}

var (
	aliasRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)
	envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// ValidAlias reports why alias cannot name a server, or nil.
func ValidAlias(alias string) error {
	switch {
	case !aliasRE.MatchString(alias):
		return errors.New("a server alias is 1 to 32 letters, digits, '-' or '_', starting with a letter or digit")
	case strings.Contains(alias, "__"):
		return errors.New(`a server alias cannot contain "__" (it separates alias and tool in model-facing names)`)
	}
	for _, r := range ReservedAliases {
		if alias == r {
			return fmt.Errorf("%q is reserved for Deckhand's own tools", alias)
		}
	}
	return nil
}

// RelativeCommand reports whether a server's command is a relative path
// ("./srv.py", "bin/srv"): one that would resolve against whatever folder
// Deckhand happened to be started from. A bare name is a PATH lookup.
func RelativeCommand(command string) bool {
	return strings.ContainsRune(command, '/') && !filepath.IsAbs(command)
}

// ValidRule reports why key cannot be an auto_approve rule, or nil. Rules
// are "alias.tool", "alias.*" or "local.exec".
func ValidRule(key string) error {
	alias, tool, ok := strings.Cut(key, ".")
	switch {
	case key == "local.exec":
		return nil
	case !ok || tool == "":
		return errors.New(`want "alias.tool" or "alias.*"`)
	case alias == "local":
		return errors.New(`the only local tool is "local.exec"`)
	}
	return ValidAlias(alias)
}

// ExecRuleProblem is why "local.exec" = true is refused: each shell command
// (a CMD: line) is shown and asked every time, so that what a person
// approves is the command that runs; no rule can allow one unseen.
const ExecRuleProblem = `shell commands (CMD: lines) are asked every time: no rule can run them without asking; remove this line (or set it to false)`

// execRule refuses an auto_approve rule that would run shell commands
// unasked.
func execRule(c *Config) []Problem {
	if c.MCP.AutoApprove["local.exec"] {
		return []Problem{{Key: `mcp.auto_approve."local.exec"`, Msg: ExecRuleProblem}}
	}
	return nil
}

// CheckServer validates one server entry as if it were in a config file
// under alias.
func CheckServer(alias string, s Server) error {
	if problems := validate(&Config{MCP: MCP{Servers: map[string]Server{alias: s}}}); len(problems) > 0 {
		return &Error{Problems: problems}
	}
	return nil
}

func newValidator() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	// Report TOML key names, not Go field names.
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "-" {
			return ""
		}
		return name
	})
	must(v.RegisterValidation("alias", func(fl validator.FieldLevel) bool {
		return ValidAlias(fl.Field().String()) == nil
	}))
	must(v.RegisterValidation("http_url", func(fl validator.FieldLevel) bool {
		u, err := url.Parse(fl.Field().String())
		return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
	}))
	must(v.RegisterValidation("approve_rule", func(fl validator.FieldLevel) bool {
		return ValidRule(fl.Field().String()) == nil
	}))
	must(v.RegisterValidation("tool_pattern", func(fl validator.FieldLevel) bool {
		return ValidRule(fl.Field().String()) == nil && fl.Field().String() != "local.exec"
	}))
	must(v.RegisterValidation("env_name", func(fl validator.FieldLevel) bool {
		return envNameRE.MatchString(fl.Field().String())
	}))
	v.RegisterStructValidation(validateServer, Server{})
	v.RegisterStructValidation(validateBackoff, Backoff{})
	return v
}

func must(err error) {
	if err != nil {
		panic(err) // a broken tag registration is a programming error
	}
}

// Cross-field rules for one server. The tags are keys into messages.
func validateServer(sl validator.StructLevel) {
	s := sl.Current().Interface().(Server)
	report := func(field, key, tag string) { sl.ReportError(nil, key, field, tag, "") }
	switch {
	case s.Command == "" && s.URL == "":
		report("Command", "command", "command_or_url")
		return
	case s.Command != "" && s.URL != "":
		report("URL", "url", "not_both_command_url")
		return
	}
	if s.IsStdio() {
		if RelativeCommand(s.Command) {
			report("Command", "command", "relative_command")
		}
		if s.Transport != "" && s.Transport != TransportStdio {
			report("Transport", "transport", "transport_needs_url")
		}
		if s.AuthToken != "" {
			report("AuthToken", "auth_token", "auth_on_command")
		}
		if s.AuthEnv != "" {
			report("AuthEnv", "auth_env", "auth_on_command")
		}
	} else {
		if s.Transport == TransportStdio {
			report("Transport", "transport", "stdio_needs_command")
		}
		if len(s.Args) > 0 {
			report("Args", "args", "command_only")
		}
		if len(s.Env) > 0 {
			report("Env", "env", "command_only")
		}
		if s.Cwd != "" {
			report("Cwd", "cwd", "command_only")
		}
		if s.Sandbox != "" {
			report("Sandbox", "sandbox", "command_only")
		}
		if len(s.Secrets) > 0 {
			report("Secrets", "secrets", "command_only")
		}
		if len(s.AllowSecrets) > 0 {
			report("AllowSecrets", "allow_secrets", "command_only")
		}
		if len(s.Read) > 0 || len(s.Write) > 0 {
			report("Read", "read", "command_only")
		}
		if s.Network.Set {
			report("Network", "network", "command_only")
		}
		if len(s.Sockets) > 0 {
			report("Sockets", "sockets", "command_only")
		}
		if s.AuthToken != "" && s.AuthEnv != "" {
			report("AuthEnv", "auth_env", "auth_both")
		}
	}
	for _, h := range s.Network.Hosts {
		if sandbox.CheckHost(h) != nil {
			report("Network", "network", "network_hosts")
			break
		}
	}
	for _, name := range s.Sockets {
		if !slices.Contains(SocketNames, name) && !filepath.IsAbs(ExpandPath(name)) {
			report("Sockets", "sockets", "socket_names")
			break
		}
	}
	for k := range s.Env {
		if !envNameRE.MatchString(k) {
			report("Env", "env", "env_keys")
			break
		}
	}
}

func validateBackoff(sl validator.StructLevel) {
	b := sl.Current().Interface().(Backoff)
	if b.Initial > 0 && b.Max > 0 && b.Max < b.Initial {
		sl.ReportError(nil, "max", "Max", "max_below_initial", "")
	}
}

var messages = map[string]string{
	"alias":                "not a valid server alias: letters, digits, '-' or '_' (at most 32, starting with a letter or digit, no \"__\", not \"local\")",
	"http_url":             "not a valid URL (want http://… or https://…)",
	"env_name":             "not a valid environment variable name",
	"gte":                  "must not be negative",
	"lte":                  "is too large (at most %s)",
	"approve_rule":         `not an auto_approve rule: want "alias.tool", "alias.*" or "local.exec"`,
	"tool_pattern":         `not a tool: want "alias.tool" or "alias.*"`,
	"oneof":                "must be one of: %s",
	"command_or_url":       "set command (a local server) or url (a remote one)",
	"not_both_command_url": "set command or url, not both",
	"transport_needs_url":  "a command server speaks stdio; remove transport or set it to \"stdio\"",
	"stdio_needs_command":  "transport \"stdio\" needs command, not url",
	"auth_on_command":      "applies to url servers only; pass secrets to a command through env",
	"command_only":         "applies to command servers only",
	"auth_both":            "set auth_token or auth_env, not both",
	"env_keys":             "keys must be valid environment variable names",
	"network_hosts":        "each host must be a name such as \"api.github.com\", \"*.example.com\" or \".example.com\", or an IP address, without a port",
	"socket_names":         "each socket must be one of ssh-agent, gpg-agent, dbus, wayland, x11, pulse, pipewire, docker, or an absolute path",
	"max_below_initial":    "must not be less than initial",
	"relative_command":     "a relative path runs whatever is there in the folder Deckhand is started from: give the program's full path (starting with /), or a bare name (such as npx) to look it up in PATH",
}

// validate runs the struct tags and cross-field rules and turns failures into
// problems keyed by TOML path.
func validate(c *Config) []Problem {
	err := newValidator().Struct(c)
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		if err != nil {
			return []Problem{{Msg: err.Error()}}
		}
		return execRule(c)
	}
	problems := make([]Problem, 0, len(verrs))
	problems = append(problems, execRule(c)...)
	for _, fe := range verrs {
		msg, ok := messages[fe.Tag()]
		if !ok {
			msg = fmt.Sprintf("failed the %q check", fe.Tag())
		}
		if strings.Contains(msg, "%s") {
			msg = fmt.Sprintf(msg, strings.ReplaceAll(fe.Param(), " ", ", "))
		}
		problems = append(problems, Problem{Key: namespaceKey(fe.Namespace()), Msg: msg})
	}
	return problems
}

// namespaceKey turns validator's "Config.mcp.servers[fs].url" into
// "mcp.servers.fs.url".
// mapKeys are the tables keyed by name, whose keys may look like numbers.
var mapKeys = map[string]bool{"servers": true, "auto_approve": true, "autoapprove": true, "prices": true, "env": true}

func namespaceKey(ns string) string {
	_, ns, _ = strings.Cut(ns, ".") // drop the root type name
	var parts []string
	for ns != "" {
		var part string
		switch {
		case ns[0] == '[':
			end := strings.IndexByte(ns, ']')
			if end < 0 {
				end = len(ns) - 1
			}
			key := ns[1:end]
			part, ns = quoteKey(key), ns[end+1:]
			if _, err := strconv.Atoi(key); err == nil && len(parts) > 0 && !mapKeys[strings.ToLower(parts[len(parts)-1])] {
				// A list's element: eager[1], not eager.1.
				parts[len(parts)-1] += "[" + key + "]"
				ns = strings.TrimPrefix(ns, ".")
				continue
			}
		default:
			end := strings.IndexAny(ns, ".[")
			if end < 0 {
				end = len(ns)
			}
			part, ns = ns[:end], ns[end:]
		}
		ns = strings.TrimPrefix(ns, ".")
		if part != "" {
			parts = append(parts, part)
		}
	}
	return strings.Join(parts, ".")
}
