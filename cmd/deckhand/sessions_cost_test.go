package main

import (
	"testing"

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
