package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"deckhand/testutil"
)

// BenchmarkChatStartLocal measures a whole `chat -p` (start, one answer,
// exit; no configured server) with the built-in tools server on, against
// the same with it off, in one run: the ratio is what `local` costs a start
// that does not call it. It is built when first needed, so the aim is 1.0×.
// Reported: wall time and peak RSS, each as on/off.
//
//	go test -run '^$' -bench BenchmarkChatStartLocal -benchtime 20x ./cmd/deckhand
func BenchmarkChatStartLocal(b *testing.B) {
	bin := testutil.BuildProgram(b, "./cmd/deckhand")
	model := testutil.NewModelServer(b)
	model.Fallback = func(map[string]any) testutil.ModelResponse {
		return testutil.ModelResponse{Body: testutil.TextChunks("hello")}
	}
	home := b.TempDir()
	config := func(on bool) string {
		path := filepath.Join(b.TempDir(), "config.toml")
		text := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[tools]\nenabled = %v\n", model.URL, on)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			b.Fatal(err)
		}
		return path
	}
	dbOn, dbOff := filepath.Join(b.TempDir(), "on.db"), filepath.Join(b.TempDir(), "off.db")
	cfgOn, cfgOff := config(true), config(false)
	run := func(cfg, db string) (time.Duration, int64) {
		cmd := exec.Command(bin, "--config", cfg, "--db", db, "chat", "-p", "hi", "--wait", "5s")
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local/share"))
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("chat -p: %v\n%s", err, out)
		}
		return time.Since(start), cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	}
	// The first start with local on builds it and keeps its tools (as any
	// first start does); the runs measured are the starts after.
	run(cfgOn, dbOn)
	run(cfgOff, dbOff)
	var onT, offT time.Duration
	var onRSS, offRSS int64
	b.ResetTimer()
	for range b.N {
		t, r := run(cfgOff, dbOff)
		offT, offRSS = offT+t, offRSS+r
		t, r = run(cfgOn, dbOn)
		onT, onRSS = onT+t, onRSS+r
	}
	n := float64(b.N)
	b.ReportMetric(float64(onT.Milliseconds())/n, "ms/on")
	b.ReportMetric(float64(offT.Milliseconds())/n, "ms/off")
	b.ReportMetric(float64(onT)/float64(offT), "time-on/off")
	b.ReportMetric(float64(onRSS)/n/1024, "MB-RSS/on")
	b.ReportMetric(float64(offRSS)/n/1024, "MB-RSS/off")
	b.ReportMetric(float64(onRSS)/float64(offRSS), "rss-on/off")
}
