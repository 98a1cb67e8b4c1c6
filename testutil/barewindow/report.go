package main

import (
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"

	"deckhand/memtrim"
)

// reportMemory logs what Go holds each time the process gets SIGUSR1, as
// Deckhand's window does (cmd/deckhand/memstats.go, the same names): the
// live heap after a collection, the heap in spans in use (its holes
// counted), what Go holds from the system and the stacks. Then it gives
// freed memory back as Deckhand does every 30 s (Go's and the C heap's:
// cmd/deckhand/upkeep.go), which the bare window otherwise never does: the
// benchmark reads the RSS before it signals, and again after, the bare
// window's floor with the same upkeep.
func reportMemory() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR1)
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	go func() {
		for range ch {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			log.Info("memory", "heap_alloc_mb", mb(m.HeapAlloc), "heap_inuse_mb", mb(m.HeapInuse),
				"go_held_mb", mb(m.Sys-m.HeapReleased), "stacks_mb", mb(m.StackSys), "goroutines", runtime.NumGoroutine())
			debug.FreeOSMemory()
			memtrim.Trim()
			log.Info("given back")
		}
	}()
}

func mb(n uint64) float64 { return float64(n*10/(1<<20)) / 10 }
