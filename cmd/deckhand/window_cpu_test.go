package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"deckhand/procstat"
	"deckhand/testutil"
)

// BenchmarkWindowIdleCPU measures what an idle window costs: the CPU time
// the real window spends over idleFor with nothing happening, its message
// box holding the focus (the text cursor showing), on a virtual display
// with a window manager. The baseline, measured in the same run, is a bare
// Fyne window with a list and a focused entry, built as Fyne's defaults
// have it (its cursor fades in and out). Reported: each as a percentage of
// one core, and their ratio.
func BenchmarkWindowIdleCPU(b *testing.B) {
	if !hasProgram("xdotool") {
		b.Skip("no xdotool")
	}
	bare := testutil.BuildProgramWith(b, "./testutil/barewindow", "")
	bin := testutil.BuildProgram(b, "./cmd/deckhand")
	for b.Loop() {
		display := desktopDisplay(b, "")
		bareCPU := idleCPU(b, display, exec.Command(bare), "^Bare$")
		env, dir := freshHome(b)
		os.MkdirAll(dir+"/config/deckhand", 0o700)
		os.WriteFile(dir+"/config/deckhand/config.toml", []byte("[model]\nbase_url = \"http://127.0.0.1:9/v1\"\nname = \"m\"\n\n[tools]\nenabled = false\n"), 0o600)
		cmd := exec.Command(bin)
		cmd.Env, cmd.Dir = env, dir
		ours := idleCPU(b, display, cmd, "^Deckhand$")
		b.ReportMetric(bareCPU, "bare-cpu-%")
		b.ReportMetric(ours, "idle-cpu-%")
		b.ReportMetric(ours/max(bareCPU, 0.01), "ratio")
		b.Logf("idle, a box focused: Deckhand %.2f%% of a core, a bare Fyne window %.2f%%", ours, bareCPU)
	}
}

// idleFor is how long an idle window is watched.
const idleFor = 10 * time.Second

// idleCPU starts cmd on display, clicks into its window's bottom (the
// entry), waits for start-up to pass and returns the CPU it uses over
// idleFor, in percent of one core.
func idleCPU(b *testing.B, display string, cmd *exec.Cmd, title string) float64 {
	b.Helper()
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "DISPLAY="+display)
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
	var win string
	testutil.Eventually(b, 30*time.Second, func() bool { win = firstField(xdo("search", "--name", title)); return win != "" }, "window %s", title)
	time.Sleep(3 * time.Second)
	xdo("windowactivate", "--sync", win)
	geo := xdo("getwindowgeometry", "--shell", win)
	w, h := 1100, 720
	for _, l := range strings.Split(geo, "\n") {
		if v, ok := strings.CutPrefix(l, "WIDTH="); ok {
			w, _ = strconv.Atoi(v)
		}
		if v, ok := strings.CutPrefix(l, "HEIGHT="); ok {
			h, _ = strconv.Atoi(v)
		}
	}
	// The entry is at the bottom of both windows, to the right of
	// Deckhand's sidebar.
	xdo("mousemove", "--window", win, fmt.Sprint(w*6/10), fmt.Sprint(h-50))
	xdo("click", "1")
	xdo("mousemove", "0", "0") // no hover, no tooltip
	time.Sleep(2 * time.Second)
	t0 := cpuTicks(b, cmd.Process.Pid)
	time.Sleep(idleFor)
	t1 := cpuTicks(b, cmd.Process.Pid)
	return float64(t1-t0) / clockTicks / idleFor.Seconds() * 100
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat's times.
const clockTicks = 100

// cpuTicks is the user and system time the process has used.
func cpuTicks(tb testing.TB, pid int) int {
	st, err := procstat.Read(pid)
	if err != nil {
		tb.Fatal(err)
	}
	return int(st.Int(procstat.UTime) + st.Int(procstat.STime))
}

// BenchmarkWindowIdleCPUBuilds measures, in one run, what the idle window
// costs as each build makes it: a plain go build (what go install makes),
// one with Fyne's no_animations tag, and one with -tags blink (the text
// cursor blinks). Each as a percentage of one core, the message box
// holding the focus.
func BenchmarkWindowIdleCPUBuilds(b *testing.B) {
	if !hasProgram("xdotool") {
		b.Skip("no xdotool")
	}
	builds := []struct{ name, tags string }{{"plain", ""}, {"no_animations", "no_animations"}, {"blink", "blink"}}
	bins := map[string]string{}
	for _, c := range builds {
		bins[c.name] = testutil.BuildProgramWith(b, "./cmd/deckhand", c.tags)
	}
	for b.Loop() {
		display := desktopDisplay(b, "")
		var line []string
		for _, c := range builds {
			env, dir := freshHome(b)
			os.MkdirAll(dir+"/config/deckhand", 0o700)
			os.WriteFile(dir+"/config/deckhand/config.toml", []byte("[model]\nbase_url = \"http://127.0.0.1:9/v1\"\nname = \"m\"\n\n[tools]\nenabled = false\n"), 0o600)
			cmd := exec.Command(bins[c.name])
			cmd.Env, cmd.Dir = env, dir
			cpu := idleCPU(b, display, cmd, "^Deckhand$")
			b.ReportMetric(cpu, c.name+"-cpu-%")
			line = append(line, fmt.Sprintf("%s %.2f%%", c.name, cpu))
		}
		b.Logf("idle, the message box focused, of one core: %s", strings.Join(line, ", "))
	}
}
