package main

import (
	"log/slog"
	"runtime/debug"
	"time"

	"deckhand/memtrim"
)

// memoryUpkeep gives free memory back every trimEvery, and (in a build
// with the test hooks) reports the memory on SIGUSR1 (memoryReports),
// until the returned func is called.
func memoryUpkeep(log *slog.Logger) func() {
	done := make(chan struct{})
	trim := time.NewTicker(trimEvery)
	go func() {
		defer trim.Stop()
		for {
			select {
			case <-done:
				return
			case <-trim.C:
				// What was freed goes back to the system: Go's heap (a
				// long transcript left, a panel closed; Go's own scavenger
				// takes minutes) and the C heap (what the GL driver freed).
				// A collection of a heap this size takes milliseconds.
				giveBack()
			}
		}
	}()
	stopReports := memoryReports(log)
	return func() { stopReports(); close(done) }
}

// trimEvery is how often the window gives the C heap's free memory back.
const trimEvery = 30 * time.Second

// giveBack gives the memory freed back to the system now (the window calls
// it once it is at rest and has let go of what left the screen), rather
// than at the next trimEvery.
func giveBack() {
	debug.FreeOSMemory()
	memtrim.Trim()
}
