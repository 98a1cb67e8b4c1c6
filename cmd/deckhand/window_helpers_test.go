package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"deckhand/testutil"
)

// realWindow is the real binary's window on a virtual display, started
// from an empty home with a config of the test's, driven with xdotool.
type realWindow struct {
	t       *testing.T
	display string
	dir     string // holds home/, config/ and data/
	win     string // the main window's X id
	stderr  *testutil.LockedBuffer
}

// startRealWindow writes cfg as the config of a fresh home, runs setup
// (if any) on that home's environment, starts Deckhand and waits for its
// window (and two seconds more: the servers connect, the message box takes
// the focus), then activates it.
func startRealWindow(t *testing.T, cfg string, setup func(env []string, home string)) *realWindow {
	t.Helper()
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	w := &realWindow{t: t, display: xvfb(t), stderr: &testutil.LockedBuffer{}}
	env, dir := freshHome(t)
	w.dir = dir
	if setup != nil {
		setup(env, filepath.Join(dir, "home"))
	}
	cfgPath := filepath.Join(dir, "config", "deckhand", "config.toml")
	os.MkdirAll(filepath.Dir(cfgPath), 0o700)
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env, cmd.Dir = append(env, "DISPLAY="+w.display), dir
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	testutil.Eventually(t, 30*time.Second, func() bool { w.win = w.xdo("search", "--name", "^Deckhand$"); return w.win != "" }, "the window; stderr:\n%s", w.stderr)
	time.Sleep(2 * time.Second)
	w.xdo("windowactivate", "--sync", w.win)
	return w
}

// run runs an X client (xdotool, xclip) on the window's display.
func (w *realWindow) run(name string, args ...string) string {
	c := exec.Command(name, args...)
	c.Env = append(os.Environ(), "DISPLAY="+w.display)
	out, _ := c.Output()
	return string(bytes.TrimSpace(out))
}

func (w *realWindow) xdo(args ...string) string { return w.run("xdotool", args...) }

// keep saves a screenshot of the display, and copies it to DECKHAND_SHOTS
// when that is set.
func (w *realWindow) keep(name string) {
	shot := filepath.Join(w.t.TempDir(), name)
	if screenshot(w.t, w.display, shot) {
		w.t.Logf("screenshot: %s", shot)
		if out := os.Getenv("DECKHAND_SHOTS"); out != "" {
			data, _ := os.ReadFile(shot)
			os.WriteFile(filepath.Join(out, name), data, 0o644)
		}
	}
}
