package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"deckhand/agent"
	"deckhand/servers"
)

// `deckhand mcp prompts [ALIAS]`, and the prompts as slash commands in
// `deckhand chat` (/alias.prompt arg=value …).

func mcpPrompts(ctx context.Context, e *env, args []string) error {
	return eachServer(ctx, e, "mcp prompts", args, promptsOf, printAllPrompts)
}

// promptsOf is server s's prompts.
func promptsOf(ctx context.Context, sys *agent.System, s servers.ServerStatus) (promptsJSON, error) {
	l, err := sys.Prompts(ctx, s.Alias)
	if err != nil {
		return promptsJSON{}, err
	}
	return promptsJSON{Server: s.Alias, Protocol: s.ProtocolVersion, Offered: l.Offered, Prompts: orEmpty(l.Prompts), Truncated: l.Truncated}, nil
}

func printAllPrompts(w io.Writer, out []promptsJSON) {
	for _, l := range out {
		printPrompts(w, l)
	}
}

// eachServer is what `mcp prompts` and `mcp resources` share: their flags
// (--json, --wait), the config, the servers connected (all, or the one
// alias given), one listing per server that is ready (or connects on
// demand; the others are said on stderr, as is a listing that failed),
// then the listings as JSON or as text.
func eachServer[T any](ctx context.Context, e *env, name string, args []string,
	list func(context.Context, *agent.System, servers.ServerStatus) (T, error), print func(io.Writer, []T)) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	maxWait := fs.Duration("wait", shortWait, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return usagef("%s takes at most one alias", name)
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	sys, srvs, err := e.connect(ctx, cfg, *maxWait, rest...)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	out := []T{}
	for _, s := range srvs {
		if s.State != servers.StateReady && s.State != servers.StateIdle {
			fmt.Fprintf(e.stderr, "%s: %s\n", s.Alias, stateText(s))
			continue
		}
		l, err := list(ctx, sys, s)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", s.Alias, err)
			continue
		}
		out = append(out, l)
	}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	if len(srvs) == 0 {
		fmt.Fprintf(e.stdout, "No MCP servers configured in %s.\n\n%s", cfg.Path, addServerHint)
		return nil
	}
	print(e.stdout, out)
	return nil
}

// promptsJSON is one server's prompts in `mcp prompts --json`.
type promptsJSON struct {
	Server    string           `json:"server"`
	Protocol  string           `json:"protocol,omitempty"`
	Offered   bool             `json:"offered"`
	Prompts   []servers.Prompt `json:"prompts"`
	Truncated bool             `json:"truncated,omitempty"`
}

// printPrompts prints a server's prompts as they are typed in a chat, with
// their arguments.
func printPrompts(w io.Writer, l promptsJSON) {
	if !l.Offered {
		fmt.Fprintf(w, "%s: no prompts\n", l.Server)
		return
	}
	for _, p := range l.Prompts {
		line := "/" + l.Server + "." + p.Name
		for _, a := range p.Arguments {
			if a.Required {
				line += " " + a.Name + "=…"
			} else {
				line += " [" + a.Name + "=…]"
			}
		}
		if d := firstLine(servers.Label(p.Description, p.Title)); d != "" {
			line += "  — " + shorten(d, 80)
		}
		fmt.Fprintln(w, line)
		for _, a := range p.Arguments {
			if d := firstLine(servers.Label(a.Description, a.Title)); d != "" {
				req := ""
				if a.Required {
					req = " (required)"
				}
				fmt.Fprintf(w, "    %s%s: %s\n", a.Name, req, shorten(d, 80))
			}
		}
	}
	if l.Truncated {
		fmt.Fprintf(w, "  (%s listed more: the rest are left out)\n", l.Server)
	}
}

// parsePromptLine reads "/alias.prompt arg=value arg2="two words" …": the
// prompt and its arguments. A value may be quoted with double quotes.
// Blanks (a tab as a space) separate the prompt and the arguments.
func parsePromptLine(line string) (alias, name string, args map[string]string, err error) {
	line = strings.TrimSpace(strings.TrimPrefix(line, "/"))
	head, rest := cutBlank(line)
	alias, name, ok := strings.Cut(head, ".")
	if !ok || alias == "" || name == "" {
		return "", "", nil, fmt.Errorf("a prompt is /ALIAS.PROMPT [ARG=VALUE …]: :prompts lists them")
	}
	args = map[string]string{}
	rest = strings.TrimSpace(rest)
	for rest != "" {
		key, after, ok := strings.Cut(rest, "=")
		if !ok || key == "" || strings.IndexFunc(key, unicode.IsSpace) >= 0 {
			return "", "", nil, fmt.Errorf("arguments are NAME=VALUE, got %q", shorten(rest, 40))
		}
		var value string
		if strings.HasPrefix(after, `"`) {
			end := strings.Index(after[1:], `"`)
			if end < 0 {
				return "", "", nil, fmt.Errorf("the value of %s has no closing quote", key)
			}
			value, rest = after[1:end+1], after[end+2:]
		} else {
			value, rest = cutBlank(after)
		}
		args[key] = value
		rest = strings.TrimSpace(rest)
	}
	return alias, name, args, nil
}

// cutBlank cuts s around its first blank.
func cutBlank(s string) (before, after string) {
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, ""
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return s[:i], s[i+n:]
}

// missingArgs names the required arguments of p not given.
func missingArgs(p servers.Prompt, args map[string]string) []string {
	var out []string
	for _, a := range p.Arguments {
		if a.Required && strings.TrimSpace(args[a.Name]) == "" {
			out = append(out, a.Name)
		}
	}
	return out
}

// readyListing is what :resources and :prompts in deckhand chat share: the
// listings of the ready servers (or of the one alias given), as text.
func readyListing[T any](ctx context.Context, sys *agent.System, args []string,
	list func(context.Context, *agent.System, servers.ServerStatus) (T, error), print func(io.Writer, []T)) string {
	srvs, err := sys.ServerStatuses(ctx, false)
	if err != nil {
		return err.Error() + "\n"
	}
	var b strings.Builder
	var out []T
	for _, s := range srvs {
		if len(args) > 0 && s.Alias != args[0] || s.State != servers.StateReady {
			continue
		}
		l, err := list(ctx, sys, s)
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", s.Alias, err)
			continue
		}
		out = append(out, l)
	}
	print(&b, out)
	if b.Len() == 0 {
		return "No ready servers.\n"
	}
	return b.String()
}
