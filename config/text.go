package config

import (
	"net/url"
	"strings"
)

// commandLine renders a command and its arguments the way a shell user would
// type them, quoting arguments that need it.
func commandLine(cmd string, args []string) string {
	parts := make([]string, 0, 1+len(args))
	for _, a := range append([]string{cmd}, args...) {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@%+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// redactURL hides a password in the URL's user info, and the values of query
// parameters, which often carry keys.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if q := u.Query(); len(q) > 0 {
		for k := range q {
			q.Set(k, "xxxxx")
		}
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
