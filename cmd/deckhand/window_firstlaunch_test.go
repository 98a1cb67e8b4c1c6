package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/testutil"
)

// freshHome is a first launch's environment: this process's, with HOME and
// the XDG directories pointing at new empty folders (no config, no log, no
// ~/.cache) and no display. It returns the environment and the folder
// holding XDG_CONFIG_HOME ("config"), XDG_DATA_HOME ("data") and HOME
// ("home").
func freshHome(tb testing.TB) ([]string, string) {
	tb.Helper()
	dir := tb.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "DISPLAY", k == "WAYLAND_DISPLAY", k == "DBUS_SESSION_BUS_ADDRESS",
			strings.HasPrefix(k, "XDG_"):
			continue
		}
		env = append(env, kv)
	}
	for _, d := range []string{"config", "data", "home"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			tb.Fatal(err)
		}
	}
	env = append(env,
		"HOME="+filepath.Join(dir, "home"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_DATA_HOME="+filepath.Join(dir, "data"),
	)
	return env, dir
}

// sessionBus starts a private D-Bus session bus, as a desktop session has,
// and returns its address, or "" when dbus-daemon is not installed.
func sessionBus(tb testing.TB, dir string) string {
	tb.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		return ""
	}
	addr := "unix:path=" + filepath.Join(dir, "bus")
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--address="+addr)
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	testutil.Eventually(tb, 10*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(dir, "bus"))
		return err == nil
	}, "dbus-daemon listening on %s", addr)
	return addr
}

// fyneErrors are the "Fyne error" lines in a log, less the one a machine
// with no D-Bus session bus always has (the theme is watched over D-Bus).
func fyneErrors(log string, haveBus bool) []string {
	var out []string
	lines := strings.Split(log, "\n")
	for i, l := range lines {
		if !strings.Contains(l, "Fyne error") {
			continue
		}
		if !haveBus && strings.Contains(l, "failed to watch theme settings") {
			continue
		}
		if i+1 < len(lines) && strings.Contains(lines[i+1], "Cause:") {
			l += " " + strings.TrimSpace(lines[i+1])
		}
		out = append(out, l)
	}
	return out
}

// screenshot saves the display's root window as a PNG at path, and reports
// whether it could: with ImageMagick's import, or xwd and convert.
func screenshot(tb testing.TB, display, path string) bool {
	tb.Helper()
	var cmd *exec.Cmd
	switch {
	case hasProgram("import"):
		cmd = exec.Command("import", "-window", "root", path)
	case hasProgram("xwd") && hasProgram("convert"):
		cmd = exec.Command("sh", "-c", `xwd -root -silent | convert xwd:- png:"$1"`, "sh", path)
	default:
		tb.Log("no screenshot: neither ImageMagick's import nor xwd and convert are installed")
		return false
	}
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("screenshot of %s: %v\n%s", display, err, out)
	}
	return true
}

func hasProgram(name string) bool { _, err := exec.LookPath(name); return err == nil }

// needPrograms skips the test when one of the programs is not installed.
func needPrograms(t *testing.T, names ...string) {
	t.Helper()
	for _, p := range names {
		if !hasProgram(p) {
			t.Skip("no " + p)
		}
	}
}

// colours counts the distinct colours of a PNG, up to limit: a window
// that drew nothing is a single colour.
func colours(tb testing.TB, path string, limit int) int {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("decoding %s: %v", path, err)
	}
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= limit {
				return limit
			}
		}
	}
	return len(seen)
}

// TestFirstLaunch runs the real binary's window on a virtual display, as a
// person's first launch would: empty home, config and data folders. The
// window must stay up, say nothing on stderr about Fyne or panics, and draw
// something (a screenshot of each case is kept in the test's folder and,
// when DECKHAND_SHOTS names a folder, there too).
func TestFirstLaunch(t *testing.T) {
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	server := stdioServerBin(t)
	tests := []struct {
		name   string
		config string // "" writes no config file
	}{
		{name: "no-config"},
		{name: "server-no-model", config: fmt.Sprintf("[mcp.servers.files]\ncommand = %q\n", server)},
		{name: "model-down", config: "[model]\nbase_url = \"http://127.0.0.1:9/v1\"\nname = \"offline\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			display := xvfb(t)
			env, dir := freshHome(t)
			if tt.config != "" {
				path := filepath.Join(dir, "config", "deckhand", "config.toml")
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(tt.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			runtime := filepath.Join(dir, "run")
			if err := os.Mkdir(runtime, 0o700); err != nil {
				t.Fatal(err)
			}
			env = append(env, "DISPLAY="+display, "XDG_RUNTIME_DIR="+runtime)
			bus := sessionBus(t, runtime)
			if bus != "" {
				env = append(env, "DBUS_SESSION_BUS_ADDRESS="+bus)
			}

			cmd := exec.Command(bin, "--log-level", "info")
			cmd.Env = env
			cmd.Dir = dir
			var stdout, stderr testutil.LockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			var waitErr error
			go func() { waitErr = cmd.Wait(); close(done) }()
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-done
			})
			exited := func() bool {
				select {
				case <-done:
					return true
				default:
					return false
				}
			}
			// The window opens, then must stay up: a first frame that
			// panics ends the process within these seconds.
			if hasProgram("xdotool") {
				testutil.Eventually(t, 30*time.Second, func() bool {
					find := exec.Command("xdotool", "search", "--name", "^Deckhand$")
					find.Env = append(os.Environ(), "DISPLAY="+display)
					out, _ := find.Output()
					return len(bytes.TrimSpace(out)) > 0 || exited()
				}, "the Deckhand window on %s; stderr:\n%s", display, &stderr)
			}
			select {
			case <-done:
				t.Fatalf("deckhand exited (%v) at first launch; stderr:\n%s", waitErr, &stderr)
			case <-time.After(5 * time.Second):
			}

			shot := filepath.Join(t.TempDir(), "first-launch-"+tt.name+".png")
			if screenshot(t, display, shot) {
				t.Logf("screenshot: %s", shot)
				if n := colours(t, shot, 16); n < 16 {
					t.Errorf("the screenshot %s has %d colours: the window drew nothing", shot, n)
				}
				if out := os.Getenv("DECKHAND_SHOTS"); out != "" {
					data, err := os.ReadFile(shot)
					if err == nil {
						err = os.WriteFile(filepath.Join(out, filepath.Base(shot)), data, 0o644)
					}
					if err != nil {
						t.Errorf("copying the screenshot to DECKHAND_SHOTS: %v", err)
					}
				}
			}

			log := stderr.String()
			if strings.Contains(log, "panic") {
				t.Errorf("stderr has a panic:\n%s", log)
			}
			if errs := fyneErrors(log, bus != ""); len(errs) > 0 {
				t.Errorf("stderr has Fyne errors:\n%s\nfull stderr:\n%s", strings.Join(errs, "\n"), log)
			}
			if exited() {
				t.Fatalf("deckhand exited (%v); stderr:\n%s", waitErr, log)
			}
		})
	}
}
