//go:build deckhand_testhooks

package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"

	"deckhand/memtrim"
	"deckhand/tools"
)

// With DECKHAND_HEAP_PROFILES set, the heap profiles sample an
// allocation every 16 KiB rather than 512: a window's growth of a few MB
// is then made of many samples, not of a handful that each stand for
// half a megabyte. Set before main runs, so that it covers every
// allocation.
func init() {
	if os.Getenv("DECKHAND_HEAP_PROFILES") != "" {
		runtime.MemProfileRate = 16 << 10
	}
}

// memoryReports logs the process's memory (Go heap, what the Go runtime
// holds from the system, RSS before and after giving memory back) each
// time it gets SIGUSR1, after a collection: `kill -USR1 <pid>` while the
// window runs, to see whether memory grows with use. The window benchmark
// reads these lines; with DECKHAND_HEAP_PROFILES naming a folder, each
// also writes a heap profile there.
func memoryReports(log *slog.Logger) func() {
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
				before := selfRSS()
				at := heapClasses()
				runtime.GC()
				giveBack()
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				// The profile first: once the line is logged, it is whole.
				if dir := os.Getenv("DECKHAND_HEAP_PROFILES"); dir != "" {
					n++
					writeHeapProfile(log, filepath.Join(dir, fmt.Sprintf("heap-%d.pprof", n)))
				}
				cUsed, cFree := memtrim.Stats()
				log.Info("memory", "heap_alloc_mb", mb(m.HeapAlloc), "heap_inuse_mb", mb(m.HeapInuse),
					"go_sys_mb", mb(m.Sys), "go_held_mb", mb(m.Sys-m.HeapReleased), "stacks_mb", mb(m.StackSys), "goroutines", runtime.NumGoroutine(),
					"rss_mb", before, "rss_trimmed_mb", selfRSS(), "rss_anon_mb", selfStatus("RssAnon:"), "rss_file_mb", selfStatus("RssFile:"),
					"c_inuse_mb", mb(cUsed), "c_free_mb", mb(cFree), "cpu_s", cpuSeconds(), "filters_compiled", tools.CompiledFilters(), "at_signal", at, "font_faces", strings.Join(fontFaces(), ";"))
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

// cpuProfile profiles the window from start to end into the file
// DECKHAND_CPU_PROFILE names, if set: what an idle window spends its CPU
// on (`go tool pprof -top FILE`).
func cpuProfile(log *slog.Logger) func() {
	path := os.Getenv("DECKHAND_CPU_PROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		log.Warn("cpu profile", "err", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Warn("cpu profile", "err", err)
		f.Close()
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
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

// cpuSeconds is the CPU time the process has used, user and system: what a
// way of keeping memory low costs.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e9
}

func mb(n uint64) float64 { return float64(n*10/(1<<20)) / 10 }

// selfRSS is this process's resident memory in MB, from /proc (0
// elsewhere).
func selfRSS() float64 { return selfStatus("VmRSS:") }

// selfStatus is the figure in kB named key in /proc/self/status, in MB:
// VmRSS, and its parts RssAnon (the heaps, Go's and C's) and RssFile (the
// program and the libraries, mapped from their files).
func selfStatus(key string) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == key {
			kb, _ := strconv.Atoi(f[1])
			return float64(kb*10/1024) / 10
		}
	}
	return 0
}

// heapClasses is what Go holds from the system by class, in MB, as it is
// when the signal comes (before the report's collection): live and dead
// objects, the holes among them in spans in use, free pages not yet given
// back, stacks, the runtime's own metadata.
func heapClasses() string {
	names := []string{"heap/objects", "heap/unused", "heap/free", "heap/stacks", "metadata/mspan/inuse", "metadata/mcache/inuse", "metadata/other", "os-stacks", "other", "profiling/buckets"}
	samples := make([]metrics.Sample, len(names))
	for i, n := range names {
		samples[i].Name = "/memory/classes/" + n + ":bytes"
	}
	metrics.Read(samples)
	var b strings.Builder
	for i, s := range samples {
		if s.Value.Kind() == metrics.KindUint64 {
			fmt.Fprintf(&b, "%s=%.1f ", names[i], float64(s.Value.Uint64())/(1<<20))
		}
	}
	return strings.TrimSpace(b.String())
}
