package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestGiveBackSetsSoftLimit: giving memory back sizes Go's soft memory
// limit from what the process holds then, above it (so that the heap as
// it is never runs into it) and below twice it.
func TestGiveBackSetsSoftLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(math.MaxInt64)
	keep := make([][]byte, 0, 64)
	for range 64 {
		keep = append(keep, make([]byte, 64<<10)) // 4 MiB live
	}
	giveBack()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	runtime.KeepAlive(keep)
	held := int64(m.Sys - m.HeapReleased)
	if got := debug.SetMemoryLimit(-1); got < held || got >= 2*held {
		t.Errorf("after giveBack, the soft memory limit is %d bytes; want between %d (held) and %d", got, held, 2*held)
	}
}

// While servers start, the heap is collected at startGC, then at Go's
// default again; a GOGC the person set stays as it is throughout.
func TestPackStart(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	tests := []struct {
		name          string
		gogc          int
		during, after int
	}{
		{name: "default", gogc: 100, during: startGC, after: 100},
		{name: "the person's GOGC", gogc: 300, during: 300, after: 300},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetGCPercent(tt.gogc)
			done := packStart()
			if got := debug.SetGCPercent(-1); got != tt.during {
				t.Errorf("GC percent while servers start = %d, want %d", got, tt.during)
			}
			debug.SetGCPercent(tt.during)
			done()
			if got := debug.SetGCPercent(-1); got != tt.after {
				t.Errorf("GC percent once they are ready = %d, want %d", got, tt.after)
			}
		})
	}
}
