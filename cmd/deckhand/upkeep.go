package main

import (
	"log/slog"
	"runtime"
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
	softLimit()
}

// softLimit sets Go's soft memory limit to what the process holds from the
// system now (right after giveBack, so little of it is garbage) plus half
// its live heap: the heap then grows by at most that much before a
// collection, rather than to twice the live heap as GOGC=100 lets it, and
// giveBack re-sizes it each time, following the live heap as it grows or
// shrinks. Soft: memory needed past it is still had, at the cost of more
// collections (Go caps their share of CPU at about half) until the next
// giveBack raises it. Chat with 100 servers of 50 tools: RSS at the first
// model request 103.1 → 95.3 MB (0.92×), for 4.7% more CPU time over the
// run, the servers' included (BenchmarkChatRSS5000).
func softLimit() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	debug.SetMemoryLimit(int64(m.Sys - m.HeapReleased + m.HeapAlloc/2))
}

// startGC is Go's GC percent while servers start (GOGC; 100 by default).
const startGC = 25

// packStart has the heap collected more often while servers start, until
// the returned func is called (once they are ready): a start is the
// listings and the catalog's builds, garbage as soon as made, among what
// stays (each tool, its pin, each server's connection). Let the heap double
// between collections and what stays is spread over more spans, whose
// holes remain once the garbage is given back. Chat with 100 servers of 50
// tools (BenchmarkChatRSS5000, against the same older binary): heap in
// spans but free after the start 15–16 → 6–8 MB; RSS at the first model
// request 0.96× → 0.90× the older binary's (GOGC 50: 0.93×), for about 5%
// more CPU time over the run, the servers' included. A GOGC the person
// set is left as it is.
func packStart() (done func()) {
	if old := debug.SetGCPercent(startGC); old != 100 {
		debug.SetGCPercent(old)
		return func() {}
	}
	return func() { debug.SetGCPercent(100) }
}
