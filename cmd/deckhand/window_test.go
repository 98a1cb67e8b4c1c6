package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"deckhand/testutil"
)

func TestWindowNeedsADisplay(t *testing.T) {
	r := deckhand(t, nil, "", "window")
	if r.code != exitFailure || !strings.Contains(r.stderr, "no display") || !strings.Contains(r.stderr, "deckhand chat") {
		t.Errorf("window without a display: exit %d, stderr %q; want exit 1 and advice", r.code, r.stderr)
	}
}

// xvfb starts a virtual X display for the test, or skips it when Xvfb is
// not installed. Xvfb picks a free display number itself (-displayfd) and
// is stopped with SIGTERM, so that it removes its socket and lock file: a
// killed Xvfb leaves them behind, and they pile up run after run. With
// -noreset it does not reset when its last client leaves: a program
// connecting during a reset (as the window does while a test polls with
// xdotool) is refused.
func xvfb(tb testing.TB) string { return xvfbSized(tb, "") }

// xvfbSized is xvfb with a screen of size WxH ("" for 1280x800).
func xvfbSized(tb testing.TB, size string) string { return testutil.Xvfb(tb, size) }

// window runs the deckhand binary's window with servers stdio servers on a
// virtual display, waits until every server is connected, and returns the
// process and its log.
func window(tb testing.TB, display string, servers int) (*exec.Cmd, *testutil.LockedBuffer) {
	tb.Helper()
	bin := testutil.BuildProgram(tb, "./cmd/deckhand")
	server := stdioServerBin(tb)
	dir := tb.TempDir()
	var cfg strings.Builder
	cfg.WriteString("[model]\nbase_url = \"http://127.0.0.1:9/v1\"\nname = \"idle\"\n")
	for i := range servers {
		fmt.Fprintf(&cfg, "\n[mcp.servers.s%d]\ncommand = %q\n", i, server)
	}
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", path, "--log-level", "info", "window")
	cmd.Env = append(os.Environ(), "DISPLAY="+display, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	logs := &testutil.LockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	testutil.Eventually(tb, 60*time.Second, func() bool {
		return strings.Count(logs.String(), "msg=connected") >= servers
	}, "%d servers connected; log:\n%s", servers, logs)
	return cmd, logs
}

// rssMB is a process's resident memory, from /proc.
func rssMB(tb testing.TB, pid int) float64 {
	tb.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			return float64(kb) / 1024
		}
	}
	tb.Fatal("no VmRSS")
	return 0
}

func TestWindowRunsAndQuitsOnSignal(t *testing.T) {
	cmd, logs := window(t, xvfb(t), 2)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the window exited with %v; log:\n%s", err, logs)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the window did not quit on SIGTERM; log:\n%s", logs)
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("errors in the log:\n%s", logs)
	}
}

// BenchmarkIdleWindowRSS measures the resident memory of Deckhand's idle
// window (the real binary on a virtual X display) with ten stdio servers
// connected, and, as the baseline in the same run, with none. The servers'
// own processes are not counted.
func BenchmarkIdleWindowRSS(b *testing.B) {
	display := xvfb(b)
	var ten, none float64
	for b.Loop() {
		measure := func(servers int) float64 {
			cmd, _ := window(b, display, servers)
			time.Sleep(3 * time.Second) // idle: let start-up garbage be collected
			rss := rssMB(b, cmd.Process.Pid)
			cmd.Process.Signal(syscall.SIGTERM)
			cmd.Wait()
			return rss
		}
		none += measure(0)
		ten += measure(10)
	}
	b.ReportMetric(ten/float64(b.N), "MB-rss-10-servers")
	b.ReportMetric(none/float64(b.N), "MB-rss-no-servers")
	b.ReportMetric(ten/none, "ratio")
}
