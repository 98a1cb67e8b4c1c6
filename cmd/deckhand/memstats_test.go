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
