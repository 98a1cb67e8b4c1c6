package config

import "strings"

// Secrets are the values that must never reach a log or an error message:
// the model's API key and the servers' tokens, literal or read from the
// environment with lookupEnv.
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
	for _, s := range c.MCP.Servers {
		add(s.AuthToken)
		lookup(s.AuthEnv)
	}
	return out
}
