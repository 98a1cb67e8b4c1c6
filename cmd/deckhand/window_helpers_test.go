package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// realWindow is the real binary's window on a virtual display, started
// from an empty home with a config of the test's, driven with xdotool.
type realWindow struct {
	t        testing.TB
	display  string
	dir      string // holds home/, config/ and data/
	win      string // the main window's X id
	stderr   *testutil.LockedBuffer
	cmd      *exec.Cmd
	shot     string // where the window writes what it shows (DECKHAND_TEST_SCREEN)
	lastClip string // what the last copy put on the clipboard
	// checkingSize: checkSized is reading the screen again.
	checkingSize bool
	// screenW, screenH: the display's size, once asked.
	screenW, screenH float32
}

// windowOption changes how startRealWindow starts Deckhand: more
// environment (FYNE_SCALE=2), or a display size.
type windowOption func(*windowSetup)

type windowSetup struct {
	env    []string
	args   []string // deckhand's, before the (default) window command
	screen string   // WxH of the virtual display
	tags   *string  // the binary's build tags, if not testutil.BuildTags
}

func withArgs(args ...string) windowOption {
	return func(s *windowSetup) { s.args = append(s.args, args...) }
}

func withEnv(kv ...string) windowOption { return func(s *windowSetup) { s.env = append(s.env, kv...) } }
func withDisplay(wxh string) windowOption {
	return func(s *windowSetup) { s.screen = wxh }
}

// startRealWindow writes cfg as the config of a fresh home, runs setup
// (if any) on that home's environment, starts Deckhand and waits for its
// window (and two seconds more: the servers connect, the message box takes
// the focus), then activates it.
func startRealWindow(t testing.TB, cfg string, setup func(env []string, home string), opts ...windowOption) *realWindow {
	t.Helper()
	var ws windowSetup
	for _, o := range opts {
		o(&ws)
	}
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	if ws.tags != nil {
		bin = testutil.BuildProgramWith(t, "./cmd/deckhand", *ws.tags)
	}
	w := &realWindow{t: t, display: desktopDisplay(t, ws.screen), stderr: &testutil.LockedBuffer{}}
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
	w.shot = filepath.Join(dir, "screen.json")
	cmd := exec.Command(bin, ws.args...)
	cmd.Env, cmd.Dir = append(append(env, "DISPLAY="+w.display, screenEnv+"="+w.shot), ws.env...), dir
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.cmd = cmd
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

// minimize minimizes the window, and returns what restores it: brings it
// to the front and waits until it is back where it was. Openbox animates
// the restore, and windowactivate --sync returns before the frame is back
// in place: a click at once went by the window's passing position, past
// the screen's edge (onto the desktop), and the dialog's button seemed to
// do nothing.
func (w *realWindow) minimize() (restore func()) {
	w.t.Helper()
	at := w.xdo("getwindowgeometry", "--shell", w.win)
	w.xdo("windowminimize", "--sync", w.win)
	return func() {
		w.t.Helper()
		w.xdo("windowactivate", "--sync", w.win)
		testutil.Eventually(w.t, 10*time.Second, func() bool { return w.xdo("getwindowgeometry", "--shell", w.win) == at },
			"the window back where it was (%s)", at)
	}
}

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

// desktopDisplay is a virtual display (size WxH, default 1280x800) with a
// window manager (openbox), as a person's desktop has: windows get
// decorations, focus and stacking from it.
func desktopDisplay(t testing.TB, size string) string {
	t.Helper()
	display := xvfbSized(t, size)
	if _, err := exec.LookPath("openbox"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("openbox is missing under CI (make test installs it)")
		}
		t.Log("no window manager (openbox is not installed)")
		return display
	}
	wm := exec.Command("openbox", "--sm-disable")
	wm.Env = append(os.Environ(), "DISPLAY="+display)
	if err := wm.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wm.Process.Kill(); wm.Wait() })
	return display
}

// screen asks the window what it shows (it writes the file on SIGUSR2).
func (w *realWindow) screen() gui.Screen {
	w.t.Helper()
	// SIGUSR2 kills a process that does not catch it: wait until the
	// window listens (after a restart, too).
	testutil.Eventually(w.t, 30*time.Second, func() bool { return catches(w.cmd.Process.Pid, syscall.SIGUSR2) }, "the window never listened for SIGUSR2")
	// The last answer goes first, so that the one read is this one's:
	// telling them apart by time and size failed when two came within one
	// tick of the file system's clock with the screen unchanged.
	os.Remove(w.shot)
	w.cmd.Process.Signal(syscall.SIGUSR2)
	var s gui.Screen
	// Generous: on a loaded 2-core machine (the whole suite under -race
	// beside it) the window's goroutine can be long in coming round.
	testutil.Eventually(w.t, 40*time.Second, func() bool {
		data, err := os.ReadFile(w.shot) // written whole (renamed into place)
		return err == nil && json.Unmarshal(data, &s) == nil
	}, "the window never said what it shows")
	w.checkSized(s)
	return s
}

// checkSized fails the test when a window grew past the screen, or shows
// something its container never laid out: shown in a container at rest
// without a relayout, it keeps no size and cannot be seen (as Settings'
// Check answer once did). Such an item is looked at again a moment later,
// since one shown during the frame the screen was read in is laid out at
// the next.
func (w *realWindow) checkSized(s gui.Screen) {
	w.t.Helper()
	if w.checkingSize {
		return
	}
	unsized := func(s gui.Screen) map[string]bool {
		out := map[string]bool{}
		for _, it := range s.Items {
			if it.Unsized {
				out[it.Window+" / "+it.Kind+" "+strconv.Quote(it.Text)] = true
			}
		}
		return out
	}
	if w.screenH == 0 {
		fmt.Sscan(w.xdo("getdisplaygeometry"), &w.screenW, &w.screenH)
	}
	for _, win := range s.Windows {
		// A window whose content needs more than the screen grows past
		// its edge, and what is at the bottom cannot be reached. (The main
		// window on a 480-pixel screen is a pixel wider than it: a pixel
		// of padding past the edge hides nothing, a few are let pass.)
		if w.screenH > 0 && (win.H > w.screenH || win.W > w.screenW+4) {
			w.keep("past-the-screen.png")
			w.t.Fatalf("window %q is %.0f×%.0f, past the %.0f×%.0f screen: its content needs more than the screen has",
				win.Title, win.W, win.H, w.screenW, w.screenH)
		}
	}
	first := unsized(s)
	if len(first) == 0 {
		return
	}
	time.Sleep(500 * time.Millisecond)
	w.checkingSize = true
	again := unsized(w.screen())
	w.checkingSize = false
	var still []string
	for k := range first {
		if again[k] {
			still = append(still, k)
		}
	}
	if len(still) > 0 {
		slices.Sort(still)
		w.keep("unsized.png")
		w.t.Fatalf("shown but never laid out (no size, so not seen): %s", strings.Join(still, "; "))
	}
}

// waitScreen waits until the screen satisfies ok, and returns it.
func (w *realWindow) waitScreen(what string, ok func(gui.Screen) bool) gui.Screen {
	w.t.Helper()
	var s gui.Screen
	deadline := time.Now().Add(20 * time.Second)
	for {
		s = w.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			w.keep(strings.ReplaceAll(what, " ", "-") + ".png")
			f, _ := focused(s)
			w.t.Logf("stderr:\n%s", w.stderr)
			w.t.Fatalf("%s: never on screen; the focus is on %s %q; it shows:\n%s", what, f.Kind, f.Text+f.Hint, s.ScreenText())
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// wheelUntil turns the wheel down with the pointer resting on at, a notch
// at a time, until ok holds of the screen (at most 40 notches).
func (w *realWindow) wheelUntil(what string, at gui.ScreenItem, ok func(gui.Screen) bool) gui.Screen {
	w.t.Helper()
	win := w.windowID(at.Window)
	w.xdo("mousemove", "--window", win, fmt.Sprint(int(at.X+at.W/2)), fmt.Sprint(int(at.Y+at.H/2)))
	time.Sleep(300 * time.Millisecond) // the pointer rests, as a hand's does
	for range 40 {
		if s := w.screen(); ok(s) {
			return s
		}
		w.xdo("click", "5")
		time.Sleep(100 * time.Millisecond) // kept: a pause between wheel notches, as a hand makes
	}
	w.keep(strings.ReplaceAll(what, " ", "-") + ".png")
	w.t.Fatalf("%s: not there after 40 notches of the wheel over %s %q", what, at.Kind, at.Text+at.Hint)
	return gui.Screen{}
}

// find is the first visible item of kind ("" for any) whose text holds
// text.
func find(s gui.Screen, kind, text string) (gui.ScreenItem, bool) {
	for _, it := range s.Items {
		if it.Visible && (kind == "" || it.Kind == kind) && strings.Contains(it.Text, text) {
			return it, true
		}
	}
	return gui.ScreenItem{}, false
}

// findEntry is the first visible entry whose placeholder holds hint.
func findEntry(s gui.Screen, hint string) (gui.ScreenItem, bool) {
	for _, it := range s.Items {
		if it.Visible && it.Kind == "entry" && strings.Contains(it.Hint, hint) {
			return it, true
		}
	}
	return gui.ScreenItem{}, false
}

// focused is the item that has the keyboard focus.
func focused(s gui.Screen) (gui.ScreenItem, bool) {
	for _, it := range s.Items {
		if it.Focused {
			return it, true
		}
	}
	return gui.ScreenItem{}, false
}

// shows reports whether some visible text holds text.
func shows(s gui.Screen, text string) bool { _, ok := find(s, "", text); return ok }

// click clicks the middle of an item with the real mouse (button 1, or 3
// for a secondary click).
func (w *realWindow) click(it gui.ScreenItem, button ...string) {
	w.t.Helper()
	b := "1"
	if len(button) > 0 {
		b = button[0]
	}
	win := w.windowID(it.Window)
	// The middle of the part in sight: one half under a scroller's edge
	// is clicked where it shows.
	x, y := it.X+it.W/2, it.Y+it.H/2
	if it.CX > 0 || it.CY > 0 {
		x, y = it.CX, it.CY
	}
	w.xdo("mousemove", "--window", win, fmt.Sprint(int(x+0.5)), fmt.Sprint(int(y+0.5)))
	// The hand rests on what it clicks, and the window is at rest when
	// the press comes: what a click changes must be drawn with nothing
	// else redrawing the window (what Check found was not).
	time.Sleep(300 * time.Millisecond)
	w.xdo("click", b)
}

// clickText waits for a visible item of kind showing text, and clicks it.
func (w *realWindow) clickText(kind, text string) {
	w.t.Helper()
	s := w.waitScreen(kind+" "+text, func(s gui.Screen) bool { _, ok := find(s, kind, text); return ok })
	it, _ := find(s, kind, text)
	w.click(it)
}

// windowID is the X id of the window titled title (the main one for
// "Deckhand").
func (w *realWindow) windowID(title string) string {
	if title == "Deckhand" || title == "" {
		return w.win
	}
	var id string
	testutil.Eventually(w.t, 10*time.Second, func() bool {
		id = firstField(w.xdo("search", "--name", "^"+regexp.QuoteMeta(title)+"$"))
		return id != ""
	}, "no window titled %q", title)
	return id
}

// key presses keys (xdotool names: ctrl+n, Return, Escape) in the window
// that has the focus.
func (w *realWindow) key(keys ...string) {
	w.xdo(append([]string{"key", "--clearmodifiers"}, keys...)...)
}

// typeText types text as a person would.
//
// Typed into the entry that has the keyboard, it returns once the entry
// holds the text (for up to 15 s): under load the window takes the keys
// in well after xdotool has sent them, and a test that read the screen at
// once saw the start of what it typed (a find for the first words of a
// query marked fewer words than the whole).
func (w *realWindow) typeText(text string) {
	w.t.Helper()
	before, ok := focused(w.screen())
	w.xdo("type", "--delay", "20", text)
	if !ok || before.Kind != "entry" || strings.ContainsAny(text, "\n\r\t") {
		return
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		it, ok := focused(w.screen())
		if !ok || it.Kind != "entry" || strings.Contains(it.Text, text) {
			return // typed in, or the keys moved the focus (the test reads what followed)
		}
		if time.Now().After(deadline) {
			w.t.Logf("typed %q into the entry %q; after 15 s it holds %q", text, before.Hint, it.Text)
			return
		}
	}
}

// clickMessageBox clicks the message box, which takes the keyboard; a
// window without one fails the test.
func (w *realWindow) clickMessageBox() {
	w.t.Helper()
	box, ok := findEntry(w.screen(), "Message Deckhand")
	if !ok {
		w.t.Fatal("no message box")
	}
	w.click(box)
}

// waitServerReady waits until the window says its one server is ready.
// The window never waits for a server to send a message: a scripted model
// that calls the server's tool in its first request needs the server's
// tools in that request.
func (w *realWindow) waitServerReady() {
	w.t.Helper()
	w.waitServersReady(1)
}

// waitServersReady waits until the window says n servers are ready (the
// local tools server counts when it is on).
func (w *realWindow) waitServersReady(n int) {
	w.t.Helper()
	noun := "servers"
	if n == 1 {
		noun = "server"
	}
	want := fmt.Sprintf("%d %s ready", n, noun)
	w.waitScreen(want, func(s gui.Screen) bool { return shows(s, want) })
}

// openQuickPrompt calls up the quick prompt (Ctrl+K), and waits for its
// window and its entry.
func (w *realWindow) openQuickPrompt() {
	w.t.Helper()
	w.key("ctrl+k")
	w.waitScreen("the quick prompt", func(s gui.Screen) bool {
		_, ok := findEntry(s, "")
		return windowOf(s, "Deckhand: quick prompt") != nil && ok
	})
}

// say sends text from the message box, as a person would: a click in the
// box, the text typed, then Enter.
func (w *realWindow) say(text string) {
	box, _ := findEntry(w.screen(), "Message Deckhand")
	w.click(box)
	w.typeText(text)
	w.key("Return")
}

// firstField is the first word of s, or "".
func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// catches reports whether process pid has a handler for sig (SigCgt in
// /proc/PID/status).
func catches(pid int, sig syscall.Signal) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "SigCgt:"); ok {
			var mask uint64
			fmt.Sscanf(strings.TrimSpace(rest), "%x", &mask)
			return mask&(1<<(uint(sig)-1)) != 0
		}
	}
	return false
}

// drag presses the mouse at (x0, y0) of the window titled title, moves it
// to (x1, y1) in steps, and lets go (pixels, within the window).
func (w *realWindow) drag(title string, x0, y0, x1, y1 float32) {
	win := w.windowID(title)
	w.xdo("mousemove", "--sync", "--window", win, fmt.Sprint(int(x0)), fmt.Sprint(int(y0)))
	w.xdo("mousedown", "1")
	for i := 1; i <= 10; i++ {
		x, y := x0+(x1-x0)*float32(i)/10, y0+(y1-y0)*float32(i)/10
		w.xdo("mousemove", "--sync", "--window", win, fmt.Sprint(int(x)), fmt.Sprint(int(y)))
	}
	w.xdo("mouseup", "1")
}

// copied presses Ctrl+C and returns what reached the clipboard, new since
// the last copy (what names the copy when nothing came), without its
// closing line breaks.
func (w *realWindow) copied(what string) string {
	w.t.Helper()
	w.key("ctrl+c")
	var got string
	testutil.Eventually(w.t, 5*time.Second, func() bool { got = w.clipboard(); return got != "" && got != w.lastClip }, "nothing copied (%s)", what)
	w.lastClip = got
	return strings.TrimRight(got, "\n")
}

// clipboard is what the display's clipboard holds.
func (w *realWindow) clipboard() string { return w.selection("clipboard") }

// selection is what one of the display's selections (clipboard,
// primary) holds, exactly.
func (w *realWindow) selection(name string) string {
	c := exec.Command("xclip", "-o", "-selection", name)
	c.Env = append(os.Environ(), "DISPLAY="+w.display)
	out, _ := c.Output()
	return string(out)
}

// setSelection puts text in one of the display's selections (clipboard,
// primary), which xclip serves.
func (w *realWindow) setSelection(name, text string) {
	w.t.Helper()
	cmd := exec.Command("xclip", "-selection", name, "-i")
	cmd.Env = append(os.Environ(), "DISPLAY="+w.display)
	cmd.Stdin = strings.NewReader(text)
	// xclip stays to serve the selection: its output is not waited for.
	if err := cmd.Run(); err != nil {
		w.t.Fatalf("xclip: %v", err)
	}
	// xclip serves it from a child once that owns the selection: wait for
	// that, or a paste may get what was there before.
	testutil.Eventually(w.t, 10*time.Second, func() bool { return w.selection(name) == text }, "the %s selection to hold %d bytes", name, len(text))
}
