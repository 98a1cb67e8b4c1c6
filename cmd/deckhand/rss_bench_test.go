package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"deckhand/testutil"
)

// BenchmarkChatRSS5000 measures the host process's memory at its first
// model request carrying tools, with 100 stdio servers of 50 tools each
// (5,000 tools: make bench-peers' rss5000 scene), as `chat -p` with every
// server ready (so the catalog holds 5,000 tools; the request carries
// tool_search alone, since their schemas would take more than
// mcp.lazy_share of the context). The model holds that request while /proc is read:
// resident memory, its anonymous part (Go's heap, stacks, the C heap)
// and its file-backed part (mostly the binary's own pages); and the CPU
// time of the whole run (the servers' included: the process reaps them).
//
// DECKHAND_BASELINE=/path/to/an/older/deckhand runs that binary too, run
// by run in turn with this tree's, and reports the ratio of the two: the
// before and after of a change, in one run. DECKHAND_HEAP_PROFILES=DIR
// has this tree's binary write a heap profile at the hold (SIGUSR1).
//
//	DECKHAND_BASELINE=/tmp/deckhand-main go test -tags no_animations -run '^$' -bench ChatRSS5000 -benchtime 3x ./cmd/deckhand
func BenchmarkChatRSS5000(b *testing.B) {
	const servers, each = 100, 50
	bin := testutil.BuildProgram(b, "./cmd/deckhand")
	server := stdioServerBin(b)
	base := os.Getenv("DECKHAND_BASELINE")
	profiles := os.Getenv("DECKHAND_HEAP_PROFILES")

	var mu sync.Mutex
	var pid int
	var got *rssSample
	var memory chan string // this tree's binary: its memory log lines
	heapRe := regexp.MustCompile(`heap_alloc_mb=([0-9.]+)`)
	model := testutil.NewModelServer(b)
	model.Fallback = func(req map[string]any) testutil.ModelResponse {
		mu.Lock()
		defer mu.Unlock()
		if tools, _ := req["tools"].([]any); got == nil && len(tools) > 0 {
			s := readRSS(pid)
			s.tools = len(tools)
			got = &s
			if memory != nil {
				// The live heap, after a collection (and a heap profile
				// when asked), logged by the process on SIGUSR1.
				syscall.Kill(pid, syscall.SIGUSR1)
				select {
				case line := <-memory:
					b.Log(line)
					if m := heapRe.FindStringSubmatch(line); m != nil {
						got.heap, _ = strconv.ParseFloat(m[1], 64)
					}
				case <-time.After(time.Minute):
				}
			}
		}
		return testutil.ModelResponse{Body: testutil.TextChunks("done")}
	}
	var cfg strings.Builder
	cfg.WriteString(scriptedConfig(model.URL) + "\n")
	for i := 1; i <= servers; i++ {
		fmt.Fprintf(&cfg, "[mcp.servers.s%03d]\ncommand = %q\nargs = [\"-tools\", \"%d\"]\n\n", i, server, each)
	}
	cfgPath := filepath.Join(b.TempDir(), "config.toml")
	if err := os.WriteFile(cfgPath, []byte(cfg.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	home, logs := b.TempDir(), b.TempDir()
	run := func(bin string, this bool) rssSample {
		// One log per binary, kept from run to run as a person's is: the
		// servers' tools saved by the run before are read back at start.
		args := []string{"--config", cfgPath, "--db", filepath.Join(logs, filepath.Base(bin)+strconv.Itoa(len(bin))+".db")}
		if this {
			args = append(args, "--log-level", "info")
		}
		cmd := exec.Command(bin, append(args, "chat", "-p", "hi", "--wait", "60s", "--approve", "deny")...)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local/share"))
		var ch chan string
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if this {
			if profiles != "" {
				os.Remove(filepath.Join(profiles, "heap-1.pprof"))
				cmd.Env = append(cmd.Env, "DECKHAND_HEAP_PROFILES="+profiles)
			}
			ch = make(chan string, 1)
			cmd.Stderr = &lineWriter{w: &out, match: "msg=memory", lines: ch}
			cmd.Stdout = cmd.Stderr
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		mu.Lock()
		pid, got, memory = cmd.Process.Pid, nil, ch
		mu.Unlock()
		if err := cmd.Wait(); err != nil {
			b.Fatalf("%s chat -p: %v\n%s", bin, err, out.String())
		}
		mu.Lock()
		defer mu.Unlock()
		if got != nil {
			got.cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
		}
		if got == nil {
			b.Fatalf("%s sent no model request carrying tools\n%s", bin, out.String())
		}
		return *got
	}
	// A first run of each, not measured, saves the servers' tools in its log.
	if base != "" {
		run(base, false)
	}
	run(bin, true)
	var now, before rssSample
	b.ResetTimer()
	for range b.N {
		if base != "" {
			before.add(run(base, false))
		}
		now.add(run(bin, true))
	}
	n := float64(b.N)
	b.ReportMetric(now.rss/n, "MB-RSS")
	b.ReportMetric(now.heap/n, "MB-heap")
	b.ReportMetric(now.cpu/n, "s-CPU")
	b.ReportMetric(now.anon/n, "MB-anon")
	b.ReportMetric(now.file/n, "MB-file")
	if base != "" {
		b.ReportMetric(before.rss/n, "MB-RSS-base")
		b.ReportMetric(before.anon/n, "MB-anon-base")
		b.ReportMetric(now.rss/before.rss, "rss/base")
		b.ReportMetric(now.cpu/before.cpu, "cpu/base")
	}
}

// rssSample is a process's memory in MB (/proc/PID/smaps_rollup).
type rssSample struct {
	rss, anon, file float64
	heap            float64 // live heap after a collection (this tree's binary only)
	cpu             float64 // seconds of CPU the whole run took
	tools           int
}

func (s *rssSample) add(o rssSample) {
	s.rss, s.anon, s.file, s.heap, s.cpu = s.rss+o.rss, s.anon+o.anon, s.file+o.file, s.heap+o.heap, s.cpu+o.cpu
}

func readRSS(pid int) rssSample {
	var s rssSample
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return s
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		switch k {
		case "Rss":
			s.rss = kb / 1024
		case "Anonymous":
			s.anon = kb / 1024
		}
	}
	s.file = s.rss - s.anon
	return s
}

// lineWriter copies to w and sends the first line holding match on lines.
type lineWriter struct {
	w     *strings.Builder
	match string
	lines chan string
	mu    sync.Mutex
	buf   string
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(p)
	l.buf += string(p)
	for {
		line, rest, ok := strings.Cut(l.buf, "\n")
		if !ok {
			break
		}
		l.buf = rest
		if strings.Contains(line, l.match) {
			select {
			case l.lines <- line:
			default:
			}
		}
	}
	return len(p), nil
}
