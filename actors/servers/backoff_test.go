package servers

import (
	"testing"
	"time"

	"deckhand/config"
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

func TestBackoff(t *testing.T) {
	b := config.Backoff{Initial: 100 * time.Millisecond, Max: time.Second}
	tests := []struct {
		failures int
		want     time.Duration
	}{
		{0, 100 * time.Millisecond},
		{1, 100 * time.Millisecond},
		{2, 200 * time.Millisecond},
		{4, 800 * time.Millisecond},
		{5, time.Second},
		{50, time.Second},
	}
	for _, tt := range tests {
		if got := backoff(b, tt.failures); got != tt.want {
			t.Errorf("backoff(%d) = %v, want %v", tt.failures, got, tt.want)
		}
	}
}
