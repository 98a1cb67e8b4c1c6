package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"deckhand/testutil"
)

// BenchmarkWindowMemory measures the real window's memory as a person uses
// it, on a virtual X display, driven with xdotool: resident memory (RSS)
// and the Go heap (logged by the window on SIGUSR1, after a collection)
// after start, after 200 messages, after 40 switches between that long
// session and a short one, and after opening and closing the servers
// panel, a server's tools and the settings 20 times each. The baseline,
// measured in the same run, is a bare Fyne window of the same size with a
// list and an entry (testutil/barewindow). Reported: each figure, the
// idle ratio to the bare window, the growth from idle to the end, and the
// growth over the last 19 openings of the panels (after the first made
// their windows).
func BenchmarkWindowMemory(b *testing.B) {
	for _, p := range []string{"xdotool"} {
		if !hasProgram(p) {
			b.Skip("no " + p)
		}
	}
	display := xvfb(b)
	bare := testutil.BuildProgram(b, "./testutil/barewindow")
	bin := testutil.BuildProgram(b, "./cmd/deckhand")
	server := stdioServerBin(b)
	var shots string
	for b.Loop() {
		m := windowMemoryRun(b, display, bin, bare, server)
		for k, v := range m {
			b.ReportMetric(v, k)
		}
		shots = m.String()
	}
	b.Log(shots)
}

type memFigures map[string]float64

func (m memFigures) String() string {
	var b strings.Builder
	for _, k := range []string{"bare-rss-MB", "idle-rss-MB", "idle-ratio", "idle-heap-MB", "messages-rss-MB", "messages-heap-MB",
		"switches-rss-MB", "switches-heap-MB", "panels-once-rss-MB", "panels-once-heap-MB", "panels-rss-MB", "panels-heap-MB",
		"growth-rss-MB", "growth-heap-MB", "reuse-growth-rss-MB", "reuse-growth-heap-MB"} {
		fmt.Fprintf(&b, "%s=%.1f ", k, m[k])
	}
	return b.String()
}

func windowMemoryRun(b *testing.B, display, bin, bare, server string) memFigures {
	m := memFigures{}
	// The bare window.
	bw := exec.Command(bare)
	bw.Env = append(os.Environ(), "DISPLAY="+display)
	if err := bw.Start(); err != nil {
		b.Fatal(err)
	}
	time.Sleep(settle)
	m["bare-rss-MB"] = rssMB(b, bw.Process.Pid)
	bw.Process.Kill()
	bw.Wait()

	model := testutil.NewModelServer(b)
	model.Fallback = func(map[string]any) testutil.ModelResponse {
		return testutil.ModelResponse{Body: testutil.TextChunks("A short answer, with **bold** text and a list:\n\n- one\n- two\n")}
	}
	env, dir := freshHome(b)
	cfgPath := filepath.Join(dir, "config", "deckhand", "config.toml")
	os.MkdirAll(filepath.Dir(cfgPath), 0o700)
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[mcp.servers.s]\ncommand = %q\n", model.URL, server)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "--log-level", "info")
	cmd.Env, cmd.Dir = append(env, "DISPLAY="+display), dir
	logs := &testutil.LockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	xdo := func(args ...string) string {
		c := exec.Command("xdotool", args...)
		c.Env = append(os.Environ(), "DISPLAY="+display)
		out, _ := c.Output()
		return string(bytes.TrimSpace(out))
	}
	find := func(name string) string {
		var w string
		testutil.Eventually(b, 20*time.Second, func() bool { w = xdo("search", "--name", name); return w != "" }, "window %q; log:\n%s", name, logs)
		return strings.Fields(w)[0]
	}
	heapRe := regexp.MustCompile(`msg=memory heap_alloc_mb=([0-9.]+)[^\n]*`)
	// measure waits until what was done has settled (Fyne keeps the
	// renderers of widgets gone from the screen for a minute; Go gives
	// freed memory back to the system within minutes), reads the RSS,
	// then has the window log its Go heap after a collection.
	measure := func(stage string) {
		time.Sleep(settle)
		m[stage+"-rss-MB"] = rssMB(b, cmd.Process.Pid)
		before := len(heapRe.FindAllStringSubmatch(logs.String(), -1))
		cmd.Process.Signal(syscall.SIGUSR1)
		var all [][]string
		testutil.Eventually(b, 10*time.Second, func() bool {
			all = heapRe.FindAllStringSubmatch(logs.String(), -1)
			return len(all) > before
		}, "a memory line; log:\n%s", logs)
		m[stage+"-heap-MB"], _ = strconv.ParseFloat(all[len(all)-1][1], 64)
		if line := lineWith(logs.String(), all[len(all)-1][0]); line != "" {
			b.Logf("%s: %s", stage, line)
		}
		b.Logf("%s: rss %.1f MB, heap %.1f MB", stage, m[stage+"-rss-MB"], m[stage+"-heap-MB"])
	}
	win := find("^Deckhand$")
	testutil.Eventually(b, 30*time.Second, func() bool { return strings.Contains(logs.String(), "msg=connected") }, "the server; log:\n%s", logs)
	xdo("windowactivate", "--sync", win)
	measure("idle")
	m["idle-ratio"] = m["idle-rss-MB"] / m["bare-rss-MB"]

	// 200 messages in one session.
	for i := range 200 {
		xdo("type", "--delay", "5", fmt.Sprintf("message %d", i))
		xdo("key", "Return")
		testutil.Eventually(b, 20*time.Second, func() bool { return len(model.Requests()) > i }, "request %d; log:\n%s", i, logs)
	}
	measure("messages")

	// A short session, then 40 switches between the two.
	xdo("key", "ctrl+n")
	xdo("type", "--delay", "5", "a short one")
	xdo("key", "Return")
	testutil.Eventually(b, 20*time.Second, func() bool { return len(model.Requests()) > 200 }, "the short session; log:\n%s", logs)
	time.Sleep(time.Second)
	for i := range 40 {
		y := sessionRowY[i%2]
		xdo("mousemove", "--sync", "120", strconv.Itoa(y))
		xdo("click", "1")
		time.Sleep(400 * time.Millisecond)
	}
	measure("switches")

	// The servers panel, a server's tools and the settings, 20 times. With
	// no window manager, keys go to the window under the pointer: each
	// window opens at the top left, over the one before.
	for i := range 20 {
		if i == 1 {
			// The first opening makes the three windows (a GL context
			// each): memory that stays while Deckhand runs. What grows
			// with use is measured from here.
			measure("panels-once")
		}
		xdo("mousemove", "--sync", "134", "657")
		xdo("click", "1")
		find("^Deckhand: servers$")
		time.Sleep(500 * time.Millisecond)
		xdo("mousemove", "--sync", strconv.Itoa(toolsButton[0]), strconv.Itoa(toolsButton[1]))
		xdo("click", "1")
		find("^Deckhand: tools of s$")
		time.Sleep(500 * time.Millisecond)
		xdo("key", "Escape") // the tools
		time.Sleep(300 * time.Millisecond)
		xdo("key", "Escape") // the servers
		time.Sleep(300 * time.Millisecond)
		xdo("key", "ctrl+comma")
		find("^Deckhand: settings$")
		time.Sleep(500 * time.Millisecond)
		xdo("key", "Escape")
		time.Sleep(300 * time.Millisecond)
	}
	if n := strings.Count(logs.String(), "level=ERROR"); n > 0 {
		b.Errorf("%d errors in the log:\n%s", n, logs)
	}
	measure("panels")
	m["growth-rss-MB"] = m["panels-rss-MB"] - m["idle-rss-MB"]
	m["reuse-growth-rss-MB"] = m["panels-rss-MB"] - m["panels-once-rss-MB"]
	m["reuse-growth-heap-MB"] = m["panels-heap-MB"] - m["panels-once-heap-MB"]
	m["growth-heap-MB"] = m["panels-heap-MB"] - m["idle-heap-MB"]
	if os.Getenv("DECKHAND_SHOTS") != "" {
		screenshot(b, display, filepath.Join(os.Getenv("DECKHAND_SHOTS"), "memory-end.png"))
	}
	return m
}

// settle is how long the benchmark waits before each measure: a little
// over Fyne's renderer cache lifetime (a minute).
var settle = 75 * time.Second

// Where to click in the 1100x720 main window.
var (
	sessionRowY = [2]int{135, 69}  // the second session in the sidebar, then the first
	toolsButton = [2]int{455, 116} // in the servers panel: the first server's Tools
)

// lineWith is the log line that holds s.
func lineWith(log, s string) string {
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
