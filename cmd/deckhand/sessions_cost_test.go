package main

import (
	"testing"

	"deckhand/config"
	"deckhand/store"
)

// A session's cost reads "-" before any token and "unknown" for tokens
// spent with no price (it read "-", as if nothing was spent).
func TestSessionCost(t *testing.T) {
	for _, c := range []struct {
		u    store.Usage
		want string
	}{
		{store.Usage{}, "-"},
		{store.Usage{InputTokens: 30, OutputTokens: 12}, "unknown"},
		{store.Usage{InputTokens: 30, OutputTokens: 12, Estimated: true}, "unknown"},
		{store.Usage{InputTokens: 30, OutputTokens: 12, CostUSD: (30*2.5 + 12*10) / 1e6}, "$0.0002"},
	} {
		if got := cost(c.u); got != c.want {
			t.Errorf("cost(%+v) = %q, want %q", c.u, got, c.want)
		}
	}
}

// The tokens of the model configured on this computer cost nothing, as
// the window's status line says: "$0 (local)", not "unknown" beside a
// footnote saying such a model costs nothing (new-user pass 14 N8).
func TestSessionCostLocal(t *testing.T) {
	local := config.Model{BaseURL: "http://127.0.0.1:11434/v1", Name: "llama3"}
	spent := store.Usage{InputTokens: 30, OutputTokens: 12}
	for _, c := range []struct {
		name, model string
		local       config.Model
		u           store.Usage
		want        string
	}{
		{"the local model", "llama3", local, spent, "$0 (local)"},
		{"another model", "gpt-4o", local, spent, "unknown"},
		{"no local model", "llama3", config.Model{}, spent, "unknown"},
		{"no token", "llama3", local, store.Usage{}, "-"},
		{"priced", "llama3", local, store.Usage{InputTokens: 30, OutputTokens: 12, CostUSD: 0.01}, "$0.0100"},
	} {
		if got := sessionCost(c.u, c.model, c.local); got != c.want {
			t.Errorf("%s: sessionCost = %q, want %q", c.name, got, c.want)
		}
	}
}
