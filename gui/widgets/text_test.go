package widgets

import (
	"testing"
	"time"
)

// TestElapsed: a duration's unit is a word that cannot be taken for
// another (2 ms is not "2 m"), at every size, rounding included.
func TestElapsed(t *testing.T) {
	for _, tt := range []struct {
		name string
		d    time.Duration
		want string
	}{
		{name: "under a millisecond", d: 300 * time.Microsecond, want: "<1 ms"},
		{name: "milliseconds", d: 2 * time.Millisecond, want: "2 ms"},
		{name: "just under a second", d: 999 * time.Millisecond, want: "999 ms"},
		{name: "seconds, tenths", d: 1234 * time.Millisecond, want: "1.2 s"},
		{name: "a second exactly", d: time.Second, want: "1.0 s"},
		{name: "rounds up to ten", d: 9960 * time.Millisecond, want: "10.0 s"},
		{name: "seconds", d: 12400 * time.Millisecond, want: "12 s"},
		{name: "rounds to a minute", d: 59600 * time.Millisecond, want: "60 s"},
		{name: "minutes and seconds", d: 2*time.Minute + 5*time.Second, want: "2 min 5 s"},
		{name: "whole minutes", d: 3 * time.Minute, want: "3 min"},
		{name: "hours", d: time.Hour + 3*time.Minute + 20*time.Second, want: "1 h 3 min"},
		{name: "whole hours", d: 2 * time.Hour, want: "2 h"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Elapsed(tt.d); got != tt.want {
				t.Errorf("Elapsed(%v) = %q, want %q", tt.d, got, tt.want)
			}
		})
	}
}
