package actors

import (
	"fmt"
	"net"
	"testing"
	"time"

	"deckhand/actors/servers"
	"deckhand/config"
	"deckhand/testutil"
)

// Servers that fail together (here twelve servers on a port nobody
// listens on) do not retry together: their next attempts are spread over
// the backoff, not bunched where they failed.
func TestRetriesNotInLockstep(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + l.Addr().String() + "/mcp"
	l.Close()
	const n = 12
	srvs := map[string]config.Server{}
	for i := range n {
		srvs[fmt.Sprintf("s%02d", i)] = config.Server{URL: refused}
	}
	sys := start(t, srvs, func(c *config.Config) {
		c.MCP.Reconnect = config.Backoff{Initial: 10 * time.Second, Max: 10 * time.Second}
	})
	var next map[string]time.Time
	testutil.Eventually(t, wait, func() bool {
		next = map[string]time.Time{}
		for alias, st := range statuses(t, sys, false) {
			if st.State == servers.StateFailed && !st.NextRetry.IsZero() {
				next[alias] = st.NextRetry
			}
		}
		return len(next) == n
	}, "every server failed with a retry scheduled")
	var first, last time.Time
	for _, at := range next {
		if first.IsZero() || at.Before(first) {
			first = at
		}
		if at.After(last) {
			last = at
		}
	}
	// Without jitter all twelve retry 10 s after failing, within the few
	// milliseconds that separated their failures. With full jitter, twelve
	// draws from [0, 10 s] fall within 2 s of each other with a
	// probability of about 12·0.2¹¹ (2.5e-7).
	if spread := last.Sub(first); spread < 2*time.Second {
		t.Errorf("%d servers failing at once retry within %v of each other, want them spread over the 10 s backoff", n, spread)
	}
}
