package terminal

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"deckhand/actors/servers"
)

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
			return "", "", nil, fmt.Errorf("arguments are NAME=VALUE, got %q", Shorten(rest, 40))
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
