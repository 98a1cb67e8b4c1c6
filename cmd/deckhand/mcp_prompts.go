package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"deckhand/actors"
)

// `deckhand mcp prompts [ALIAS]`, and the prompts as slash commands in
// `deckhand chat` (/alias.prompt arg=value …).

func mcpPrompts(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("mcp prompts", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	maxWait := fs.Duration("wait", shortWait, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return usagef("mcp prompts takes at most one alias")
	}
	cfg, err := e.loadConfig()
	if err != nil {
		return err
	}
	sys, list, err := e.connect(ctx, cfg, *maxWait, rest...)
	if err != nil {
		return err
	}
	defer e.stopSystem(sys)
	out := []promptsJSON{}
	for _, s := range list {
		if s.State != actors.StateReady && s.State != actors.StateIdle {
			fmt.Fprintf(e.stderr, "%s: %s\n", s.Alias, stateText(s))
			continue
		}
		l, err := sys.Prompts(ctx, s.Alias)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", s.Alias, err)
			continue
		}
		out = append(out, promptsJSON{Server: s.Alias, Protocol: s.ProtocolVersion, Offered: l.Offered, Prompts: orEmpty(l.Prompts), Truncated: l.Truncated})
	}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	if len(list) == 0 {
		fmt.Fprintf(e.stdout, "No MCP servers configured in %s.\n\n%s", cfg.Path, addServerHint)
		return nil
	}
	for _, l := range out {
		printPrompts(e.stdout, l)
	}
	return nil
}

// promptsJSON is one server's prompts in `mcp prompts --json`.
type promptsJSON struct {
	Server    string          `json:"server"`
	Protocol  string          `json:"protocol,omitempty"`
	Offered   bool            `json:"offered"`
	Prompts   []actors.Prompt `json:"prompts"`
	Truncated bool            `json:"truncated,omitempty"`
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
		if d := firstLine(actors.Label(p.Description, p.Title)); d != "" {
			line += "  — " + shorten(d, 80)
		}
		fmt.Fprintln(w, line)
		for _, a := range p.Arguments {
			if d := firstLine(actors.Label(a.Description, a.Title)); d != "" {
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
func parsePromptLine(line string) (alias, name string, args map[string]string, err error) {
	line = strings.TrimSpace(strings.TrimPrefix(line, "/"))
	head, rest, _ := strings.Cut(line, " ")
	alias, name, ok := strings.Cut(head, ".")
	if !ok || alias == "" || name == "" {
		return "", "", nil, fmt.Errorf("a prompt is /ALIAS.PROMPT [ARG=VALUE …]: :prompts lists them")
	}
	args = map[string]string{}
	rest = strings.TrimSpace(rest)
	for rest != "" {
		key, after, ok := strings.Cut(rest, "=")
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
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
			value, rest, _ = strings.Cut(after, " ")
		}
		args[key] = value
		rest = strings.TrimSpace(rest)
	}
	return alias, name, args, nil
}

// missingArgs names the required arguments of p not given.
func missingArgs(p actors.Prompt, args map[string]string) []string {
	var out []string
	for _, a := range p.Arguments {
		if a.Required && strings.TrimSpace(args[a.Name]) == "" {
			out = append(out, a.Name)
		}
	}
	return out
}
