package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"syscall"
)

// logMemoryOnSignal logs the process's memory (Go heap, and what the Go
// runtime holds from the system) each time it gets SIGUSR1, after a
// collection: `kill -USR1 <pid>` while the window runs, to see whether
// memory grows with use. The window benchmark reads these lines.
func logMemoryOnSignal(log *slog.Logger) func() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR1)
	done := make(chan struct{})
	n := 0
	go func() {
		for {
			select {
			case <-done:
				return
			case <-ch:
				runtime.GC()
				debug.FreeOSMemory()
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				log.Info("memory", "heap_alloc_mb", mb(m.HeapAlloc), "heap_inuse_mb", mb(m.HeapInuse),
					"go_sys_mb", mb(m.Sys), "goroutines", runtime.NumGoroutine())
				if dir := os.Getenv("DECKHAND_HEAP_PROFILES"); dir != "" {
					n++
					writeHeapProfile(log, filepath.Join(dir, fmt.Sprintf("heap-%d.pprof", n)))
				}
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

// writeHeapProfile writes a heap profile (DECKHAND_HEAP_PROFILES names the
// folder): `go tool pprof -top -sample_index=inuse_space FILE`.
func writeHeapProfile(log *slog.Logger, path string) {
	f, err := os.Create(path)
	if err != nil {
		log.Warn("heap profile", "err", err)
		return
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		log.Warn("heap profile", "err", err)
	}
}

func mb(n uint64) float64 { return float64(n*10/(1<<20)) / 10 }
