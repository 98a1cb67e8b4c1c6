package config

import (
	"regexp"
	"strings"
)

// envRef is a reference to a variable of Deckhand's environment in a
// server's env value: "${NAME}".
var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// Secrets are the values that must never reach a log, an error message,
// the screen or the model: the model's API key, the servers' tokens
// (literal or read from the environment with lookupEnv), and every value
// Deckhand may hand a server (the variables policy.secrets.keys allows, a
// server's secrets and the ${NAME} references of its env), so that one a
// server echoes back is removed wherever its text goes.
func (c *Config) Secrets(lookupEnv func(string) (string, bool)) []string {
	var out []string
	add := func(v string) {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	lookup := func(name string) {
		if name == "" || lookupEnv == nil {
			return
		}
		if v, ok := lookupEnv(name); ok {
			add(v)
		}
	}
	lookup(c.Model.APIKeyEnv)
	for _, name := range c.Policy.Secrets.Keys {
		lookup(name)
	}
	for _, s := range c.MCP.Servers {
		add(s.AuthToken)
		lookup(s.AuthEnv)
		for _, name := range s.Secrets {
			lookup(name)
		}
		for _, v := range s.Env {
			for _, m := range envRef.FindAllStringSubmatch(v, -1) {
				lookup(m[1])
			}
		}
	}
	return out
}
