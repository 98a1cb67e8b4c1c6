package main

import (
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

	"deckhand/gui"
	"deckhand/testutil"
)

// BenchmarkWindowMemory measures the real window's memory as a person uses
// it, on a virtual X display, driven with xdotool: resident memory (RSS)
// and the Go heap (logged by the window on SIGUSR1, after a collection)
// after start, after the first message, after 200 messages, after 40
// switches between that long session and a short one, and after opening
// and closing the servers panel, a server's tools and the settings 20
// times each. The baseline,
// measured in the same run, is a bare Fyne window of the same size with a
// list and an entry (testutil/barewindow), in the same theme variant and
// text size, once before Deckhand starts and once after it ends, each
// settled as long as Deckhand's measures. Reported: each figure, the idle
// ratio to the mean of the two bare measures (to the smaller, and to their
// mean once the bare window has given memory back as Deckhand does), their
// spread, the parts of each RSS (anonymous, the program's own file, the
// other files mapped) and the gap between them, the
// growth from idle to 200 messages (and how much of it the first message
// made), the growth from idle to the end, the growth over the last 19 openings of
// the panels (after the first made their windows), and how many font faces
// Fyne holds at idle, after the messages and at the end (one a text style
// drawn, each with its own parse of the fonts: see fontcache.go).
//
// One sub-benchmark per look: the light and the dark theme, at 100% and
// 120% text (light-100, dark-120, …); run one with -bench
// 'WindowMemory/dark-120'.
func BenchmarkWindowMemory(b *testing.B) {
	for _, p := range []string{"xdotool"} {
		if !hasProgram(p) {
			b.Skip("no " + p)
		}
	}
	for _, scale := range []int{100, 120} {
		for _, variant := range []string{"light", "dark"} {
			b.Run(fmt.Sprintf("%s-%d", variant, scale), func(b *testing.B) {
				bare := testutil.BuildProgram(b, "./testutil/barewindow")
				server := stdioServerBin(b)
				l := memLook{theme: variant, scale: float64(scale) / 100}
				var shots string
				for b.Loop() {
					m := windowMemoryRun(b, bare, server, l)
					for k, v := range m {
						b.ReportMetric(v, k)
					}
					shots = m.String()
				}
				b.Log(shots)
			})
		}
	}
}

// memLook is the theme variant and text scale a memory run measures at.
type memLook struct {
	theme string  // light or dark
	scale float64 // 1 is 100%
}

type memFigures map[string]float64

func (m memFigures) String() string {
	var b strings.Builder
	for _, k := range []string{"bare-rss-MB", "bare-end-rss-MB", "bare-spread-MB", "idle-rss-MB", "idle-ratio", "idle-ratio-max", "idle-heap-MB",
		"bare-patched-rss-MB", "idle-ratio-same-fyne",
		"bare-trimmed-rss-MB", "bare-end-trimmed-rss-MB", "idle-ratio-trimmed",
		"bare-anon-MB", "bare-binary-MB", "bare-file-MB", "bare-heap-MB", "bare-end-anon-MB", "bare-end-binary-MB", "bare-end-file-MB", "bare-end-heap-MB",
		"idle-anon-MB", "idle-binary-MB", "idle-file-MB", "gap-binary-MB", "gap-libraries-MB", "gap-anon-MB", "gap-heap-MB", "first-rss-MB", "first-heap-MB", "messages-rss-MB", "messages-heap-MB",
		"switches-rss-MB", "switches-heap-MB", "panels-once-rss-MB", "panels-once-heap-MB", "panels-rss-MB", "panels-heap-MB",
		"idle-font-faces", "messages-font-faces", "panels-font-faces",
		"messages-growth-rss-MB", "first-growth-rss-MB", "after-first-growth-rss-MB", "after-first-growth-heap-MB", "growth-rss-MB", "growth-heap-MB", "reuse-growth-rss-MB", "reuse-growth-heap-MB"} {
		fmt.Fprintf(&b, "%s=%.1f ", k, m[k])
	}
	return b.String()
}

// bareWarm runs the test process's first bare window, not counted.
var bareWarm sync.Once

func windowMemoryRun(b *testing.B, bare, server string, l memLook) memFigures {
	m := memFigures{}
	// The bare window, before Deckhand and again after it: its RSS moved
	// by up to 16 MB from one look to the next in one run, so the idle
	// ratio is given against the mean of the two and the spread with it.
	// The first bare window of the test process is not counted: its RSS
	// was well above the later ones' (155.1 MB, then 143.3, 139.1, 136.5
	// in one run; 138–140 in every look run alone), which flattered the
	// first look's ratio.
	bareWarm.Do(func() { measureBare(b, bare, l, memFigures{}, "warm-up") })
	measureBare(b, bare, l, m, "bare")

	model := testutil.NewModelServer(b)
	model.Fallback = func(map[string]any) testutil.ModelResponse {
		return testutil.ModelResponse{Body: testutil.TextChunks("A short answer, with **bold** text and a list:\n\n- one\n- two\n\n```go\nfunc main() { fmt.Println(\"code, highlighted\") }\n```\n")}
	}
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[ui]\ntheme = %q\ntext_scale = %g\n\n[mcp.servers.s]\ncommand = %q\n", model.URL, l.theme, l.scale, server)
	opts := []windowOption{withArgs("--log-level", "info")}
	if dir := os.Getenv("DECKHAND_HEAP_PROFILES"); dir != "" {
		opts = append(opts, withEnv("DECKHAND_HEAP_PROFILES="+dir)) // a heap profile at each measure
	}
	w := startRealWindow(b, cfg, nil, opts...)
	logs := w.stderr
	pid := w.cmd.Process.Pid
	heapRe := regexp.MustCompile(`msg=memory heap_alloc_mb=([0-9.]+)[^\n]*`)
	facesRe := regexp.MustCompile(`font_faces="([^"]+)"`)
	// measure waits until what was done has settled (Fyne keeps the
	// renderers of widgets gone from the screen for a minute; Go gives
	// freed memory back to the system within minutes), reads the RSS,
	// then has the window log its Go heap after a collection.
	measure := func(stage string) {
		time.Sleep(settle)
		m[stage+"-rss-MB"] = rssMB(b, pid)
		memParts(b, pid, m, stage)
		before := len(heapRe.FindAllStringSubmatch(logs.String(), -1))
		w.cmd.Process.Signal(syscall.SIGUSR1)
		var all [][]string
		testutil.Eventually(b, 10*time.Second, func() bool {
			all = heapRe.FindAllStringSubmatch(logs.String(), -1)
			return len(all) > before
		}, "a memory line; log:\n%s", logs)
		m[stage+"-heap-MB"], _ = strconv.ParseFloat(all[len(all)-1][1], 64)
		if f := facesRe.FindStringSubmatch(all[len(all)-1][0]); f != nil {
			m[stage+"-font-faces"] = float64(len(strings.Split(f[1], ";")))
		}
		if line := lineWith(logs.String(), all[len(all)-1][0]); line != "" {
			b.Logf("%s: %s", stage, line)
		}
		b.Logf("%s: rss %.1f MB, heap %.1f MB", stage, m[stage+"-rss-MB"], m[stage+"-heap-MB"])
	}
	w.waitScreen("the server connected", func(s gui.Screen) bool { return shows(s, "1 MCP server") || shows(s, "tools") })
	measure("idle")

	// 200 messages in one session.
	box, _ := findEntry(w.screen(), "Message Deckhand")
	w.click(box)
	for i := range 200 {
		w.xdo("type", "--delay", "5", fmt.Sprintf("message %d", i))
		w.key("Return")
		testutil.Eventually(b, 20*time.Second, func() bool { return len(model.Requests()) > i }, "request %d; log:\n%s", i, logs)
		if i == 0 {
			// The first message loads what any chat needs once (the
			// monospace and bold faces of its code and text, their glyphs):
			// what grows with the messages is measured from here too.
			measure("first")
		}
	}
	measure("messages")
	m["messages-growth-rss-MB"] = m["messages-rss-MB"] - m["idle-rss-MB"]
	m["first-growth-rss-MB"] = m["first-rss-MB"] - m["idle-rss-MB"]
	m["after-first-growth-rss-MB"] = m["messages-rss-MB"] - m["first-rss-MB"]
	m["after-first-growth-heap-MB"] = m["messages-heap-MB"] - m["first-heap-MB"]

	// A short session, then 40 switches between the two, clicking them in
	// the sidebar.
	w.key("ctrl+n")
	// Typed before the new chat shows, the first letters went to the long
	// one's draft (each chat keeps its own).
	w.waitScreen("a new chat, its message box focused", func(s gui.Screen) bool {
		f, _ := focused(s)
		return !shows(s, "message 199") && strings.Contains(f.Hint, "Message Deckhand")
	})
	w.typeText("a short one")
	w.key("Return")
	testutil.Eventually(b, 20*time.Second, func() bool { return len(model.Requests()) > 200 }, "the short session; log:\n%s", logs)
	s := w.waitScreen("both sessions listed", func(s gui.Screen) bool { return shows(s, "message 0") && shows(s, "a short one") })
	long, _ := find(s, "text", "message 0")
	short, _ := find(s, "text", "a short one")
	for i := range 40 {
		w.click([2]gui.ScreenItem{long, short}[i%2])
		time.Sleep(400 * time.Millisecond)
	}
	measure("switches")

	// The servers panel, a server's tools and the settings, 20 times.
	for i := range 20 {
		if i == 1 {
			// The first opening makes what the panels need: memory that
			// stays while Deckhand runs. What grows with use is measured
			// from here.
			measure("panels-once")
		}
		w.clickText("button", "Servers")
		s := w.waitScreen("the servers panel", func(s gui.Screen) bool { return serverTools(s, "s").W > 0 })
		w.click(serverTools(s, "s"))
		w.waitScreen("the tools of s", func(s gui.Screen) bool { return windowOf(s, "Deckhand: tools of s") != nil || shows(s, "Tools of s") })
		w.key("Escape") // the tools
		time.Sleep(300 * time.Millisecond)
		w.key("Escape") // the servers
		time.Sleep(300 * time.Millisecond)
		w.xdo("windowactivate", "--sync", w.win)
		w.key("ctrl+comma")
		w.waitScreen("the settings", func(s gui.Screen) bool { _, ok := findEntry(s, "Optional. For example"); return ok })
		w.key("Escape")
		time.Sleep(300 * time.Millisecond)
		w.xdo("windowactivate", "--sync", w.win)
	}
	if n := strings.Count(logs.String(), "level=ERROR"); n > 0 {
		b.Errorf("%d errors in the log:\n%s", n, logs)
	}
	measure("panels")
	m["growth-rss-MB"] = m["panels-rss-MB"] - m["idle-rss-MB"]
	m["reuse-growth-rss-MB"] = m["panels-rss-MB"] - m["panels-once-rss-MB"]
	m["reuse-growth-heap-MB"] = m["panels-heap-MB"] - m["panels-once-heap-MB"]
	m["growth-heap-MB"] = m["panels-heap-MB"] - m["idle-heap-MB"]
	w.keep("memory-end.png")
	w.cmd.Process.Kill()
	w.cmd.Wait()

	measureBare(b, bare, l, m, "bare-end")
	// The same bare window built with Deckhand's patched Fyne
	// (third_party/fyne parses its fallback fonts when a rune first needs
	// them): what Deckhand adds over the toolkit it ships with, where
	// idle-ratio is what it costs over Fyne as Fyne ships.
	measureBare(b, barePatched(b, bare), l, m, "bare-patched")
	m["idle-ratio-same-fyne"] = m["idle-rss-MB"] / m["bare-patched-rss-MB"]
	mean := (m["bare-rss-MB"] + m["bare-end-rss-MB"]) / 2
	m["bare-spread-MB"] = max(m["bare-rss-MB"], m["bare-end-rss-MB"]) - min(m["bare-rss-MB"], m["bare-end-rss-MB"])
	m["idle-ratio"] = m["idle-rss-MB"] / mean
	m["idle-ratio-max"] = m["idle-rss-MB"] / min(m["bare-rss-MB"], m["bare-end-rss-MB"])
	// Against the bare window's floor: its RSS once it has given memory
	// back as Deckhand does every 30 s (a collection, Go's free pages and
	// the C heap's free blocks returned).
	m["idle-ratio-trimmed"] = m["idle-rss-MB"] / ((m["bare-trimmed-rss-MB"] + m["bare-end-trimmed-rss-MB"]) / 2)
	// Where the idle gap is: the pages of each program's own file (the
	// binary), the other files it maps (the same libraries in both), and
	// anonymous memory (Go's heap and runtime, the C heap).
	m["gap-binary-MB"] = m["idle-binary-MB"] - m["bare-binary-MB"]
	m["gap-libraries-MB"] = (m["idle-file-MB"] - m["idle-binary-MB"]) - (m["bare-file-MB"] - m["bare-binary-MB"])
	m["gap-anon-MB"] = m["idle-anon-MB"] - m["bare-anon-MB"]
	m["gap-heap-MB"] = m["idle-heap-MB"] - m["bare-heap-MB"]
	return m
}

// measureBare runs the bare window on a display of its own in look l,
// lets it settle as long as Deckhand's measures, and records its RSS and
// the RSS's parts (memParts) under stage, then its live heap (it logs it
// on SIGUSR1, after a collection: read after the RSS, so that collection
// does not change the figure).
func measureBare(b *testing.B, bare string, l memLook, m memFigures, stage string) {
	bw := exec.Command(bare, "-theme", l.theme, "-text-scale", strconv.FormatFloat(l.scale, 'f', -1, 64))
	bw.Env = append(os.Environ(), "DISPLAY="+desktopDisplay(b, ""))
	logs := &testutil.LockedBuffer{}
	bw.Stderr = logs
	if err := bw.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { bw.Process.Kill(); bw.Wait() }()
	time.Sleep(settle)
	m[stage+"-rss-MB"] = rssMB(b, bw.Process.Pid)
	memParts(b, bw.Process.Pid, m, stage)
	heapRe := regexp.MustCompile(`msg=memory heap_alloc_mb=([0-9.]+)`)
	bw.Process.Signal(syscall.SIGUSR1)
	var f []string
	testutil.Eventually(b, 10*time.Second, func() bool { f = heapRe.FindStringSubmatch(logs.String()); return f != nil }, "the bare window's memory line; log:\n%s", logs)
	m[stage+"-heap-MB"], _ = strconv.ParseFloat(f[1], 64)
	testutil.Eventually(b, 10*time.Second, func() bool { return strings.Contains(logs.String(), "msg=\"given back\"") }, "the bare window's upkeep; log:\n%s", logs)
	m[stage+"-trimmed-rss-MB"] = rssMB(b, bw.Process.Pid)
	b.Logf("%s: rss %.1f MB (anonymous %.1f, its binary %.1f, other files %.1f), heap %.1f MB; %.1f MB once it gives memory back as Deckhand does", stage, m[stage+"-rss-MB"],
		m[stage+"-anon-MB"], m[stage+"-binary-MB"], m[stage+"-file-MB"]-m[stage+"-binary-MB"], m[stage+"-heap-MB"], m[stage+"-trimmed-rss-MB"])
}

var barePatchedBuild struct {
	once sync.Once
	path string
	err  error
}

// barePatched builds testutil/barewindow (a module of its own, requiring
// Fyne v2.8.1 as published) with Deckhand's copy of Fyne in its place,
// through a go.mod beside the build: the module's own go.mod plus the
// replace Deckhand's go.mod has, into a folder beside the bare window's
// own build (bare).
func barePatched(b *testing.B, bare string) string {
	b.Helper()
	barePatchedBuild.once.Do(func() {
		root := testutil.ModuleRoot(b)
		src := filepath.Join(root, "testutil", "barewindow")
		dir := filepath.Join(filepath.Dir(bare), "patched")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			barePatchedBuild.err = err
			return
		}
		mod, err := os.ReadFile(filepath.Join(src, "go.mod"))
		if err != nil {
			barePatchedBuild.err = err
			return
		}
		sum, err := os.ReadFile(filepath.Join(src, "go.sum"))
		if err != nil {
			barePatchedBuild.err = err
			return
		}
		mod = fmt.Appendf(mod, "\nreplace fyne.io/fyne/v2 => %s\n", filepath.Join(root, "third_party", "fyne"))
		if err := os.WriteFile(filepath.Join(dir, "bare.mod"), mod, 0o600); err != nil {
			barePatchedBuild.err = err
			return
		}
		if err := os.WriteFile(filepath.Join(dir, "bare.sum"), sum, 0o600); err != nil {
			barePatchedBuild.err = err
			return
		}
		path := filepath.Join(dir, "barewindow")
		tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid()) // another test process may run the one there
		defer os.Remove(tmp)
		cmd := exec.Command("go", "build", "-tags="+testutil.BuildTags, "-modfile="+filepath.Join(dir, "bare.mod"), "-o", tmp, ".")
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			barePatchedBuild.err = fmt.Errorf("%w\n%s", err, out)
			return
		}
		barePatchedBuild.path, barePatchedBuild.err = path, os.Rename(tmp, path)
	})
	if barePatchedBuild.err != nil {
		b.Fatalf("building the bare window with Deckhand's Fyne: %v", barePatchedBuild.err)
	}
	return barePatchedBuild.path
}

// memParts records the parts of process pid's RSS under stage: anonymous
// (stage-anon-MB: Go's heap and runtime, the C heap), mapped from files
// (stage-file-MB), and of those the pages of the program's own file
// (stage-binary-MB): the kernel maps a binary's pages in large blocks
// once they are read, so a larger program shows more of them resident
// whatever it runs.
func memParts(tb testing.TB, pid int, m memFigures, stage string) {
	tb.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "RssAnon:":
			m[stage+"-anon-MB"] = kb / 1024
		case "RssFile:":
			m[stage+"-file-MB"] = kb / 1024
		}
	}
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		tb.Fatal(err)
	}
	smaps, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		tb.Fatal(err)
	}
	var kb float64
	mine := false
	for _, line := range strings.Split(string(smaps), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"): // a mapping's header: range perms offset dev inode [path]
			mine = len(f) >= 6 && f[5] == exe
		case mine && f[0] == "Rss:" && len(f) >= 2:
			v, _ := strconv.ParseFloat(f[1], 64)
			kb += v
		}
	}
	m[stage+"-binary-MB"] = kb / 1024
}

// serverTools is the Tools button on the servers panel's row of alias:
// the first below the alias.
func serverTools(s gui.Screen, alias string) gui.ScreenItem {
	var row gui.ScreenItem
	for _, it := range s.Items {
		if it.Visible && it.Text == alias && it.Kind != "button" {
			row = it
		}
	}
	if row.W == 0 {
		return gui.ScreenItem{}
	}
	var best gui.ScreenItem
	for _, it := range s.Items {
		if it.Visible && it.Kind == "button" && it.Text == "Tools" && it.Window == row.Window && it.Y > row.Y-10 && (best.W == 0 || it.Y < best.Y) {
			best = it
		}
	}
	return best
}

// settle is how long the benchmark waits before each measure: a little
// over Fyne's renderer cache lifetime (a minute). DECKHAND_BENCH_SETTLE
// shortens it, to look around (a heap profile) rather than to measure.
var settle = func() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("DECKHAND_BENCH_SETTLE")); err == nil {
		return d
	}
	return 75 * time.Second
}()

// lineWith is the log line that holds s.
func lineWith(log, s string) string {
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
