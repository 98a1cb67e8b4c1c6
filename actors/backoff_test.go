package actors

import (
	"fmt"
	"net"
	"testing"
	"time"

	"deckhand/config"
	"deckhand/testutil"
)

// retryDelay draws each delay from [0, backoff]: never past the cap, and
// spread over it rather than one value.
func TestRetryDelayJitter(t *testing.T) {
	b := config.Backoff{Initial: 100 * time.Millisecond, Max: time.Second}
	tests := []struct {
		name     string
		failures int
		ceiling  time.Duration
	}{
		{"first", 1, 100 * time.Millisecond},
		{"third", 3, 400 * time.Millisecond},
		{"capped", 50, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const draws = 1000
			var lo, hi time.Duration = tt.ceiling, 0
			for range draws {
				d := retryDelay(b, tt.failures)
				if d < 0 || d > tt.ceiling {
					t.Fatalf("retryDelay(%d) = %v, want within [0, %v]", tt.failures, d, tt.ceiling)
				}
				lo, hi = min(lo, d), max(hi, d)
			}
			// 1000 uniform draws leave no gap of a quarter at either end.
			if lo > tt.ceiling/4 || hi < tt.ceiling*3/4 {
				t.Errorf("retryDelay(%d) over %d draws spans [%v, %v], want most of [0, %v]", tt.failures, draws, lo, hi, tt.ceiling)
			}
		})
	}
}

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
	servers := map[string]config.Server{}
	for i := range n {
		servers[fmt.Sprintf("s%02d", i)] = config.Server{URL: refused}
	}
	sys := start(t, servers, func(c *config.Config) {
		c.MCP.Reconnect = config.Backoff{Initial: 10 * time.Second, Max: 10 * time.Second}
	})
	var next map[string]time.Time
	testutil.Eventually(t, wait, func() bool {
		next = map[string]time.Time{}
		for alias, st := range statuses(t, sys, false) {
			if st.State == StateFailed && !st.NextRetry.IsZero() {
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
