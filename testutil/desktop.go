package testutil

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// Xvfb starts a virtual X display of size WxH ("" for 1280x800) for the
// test, or skips it when Xvfb is not installed. Xvfb picks a free display
// number itself (-displayfd) and is stopped with SIGTERM, so that it
// removes its socket and lock file: a killed Xvfb leaves them behind, and
// they pile up run after run. With -noreset it does not reset when its
// last client leaves: a program connecting during a reset (as the window
// does while a test polls with xdotool) is refused.
func Xvfb(tb testing.TB, size string) string {
	tb.Helper()
	if size == "" {
		size = "1280x800"
	}
	if _, err := exec.LookPath("Xvfb"); err != nil {
		tb.Skip("Xvfb is not installed (apt-get install xvfb)")
	}
	r, w, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-noreset", "-screen", "0", size+"x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	err = cmd.Start()
	w.Close()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	n := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		n <- strings.TrimSpace(line)
	}()
	select {
	case num := <-n:
		if num == "" {
			tb.Fatal("Xvfb exited without a display")
		}
		return ":" + num
	case <-time.After(20 * time.Second):
		tb.Fatal("Xvfb did not start within 20s")
	}
	return ""
}

// SessionBus starts a D-Bus session bus of the test's own (dbus-daemon
// --session) and returns its address, for DBUS_SESSION_BUS_ADDRESS. It
// skips the test when dbus-daemon is not installed, or fails it under CI.
func SessionBus(tb testing.TB) string {
	tb.Helper()
	need(tb, "dbus-daemon", "dbus")
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		addr <- strings.TrimSpace(line)
	}()
	select {
	case a := <-addr:
		if a == "" {
			tb.Fatal("dbus-daemon exited without an address")
		}
		return a
	case <-time.After(20 * time.Second):
		tb.Fatal("dbus-daemon did not start within 20s")
	}
	return ""
}

// Dunst starts the dunst notification daemon on display and bus, with
// notifications kept until closed and dmenu (its context menu, where a
// notification's actions are chosen) set to the given program, if any.
// It returns a function running dunstctl on that bus.
func Dunst(tb testing.TB, display, bus, dmenu string) func(args ...string) (string, error) {
	tb.Helper()
	need(tb, "dunst", "dunst")
	dir := tb.TempDir()
	conf := filepath.Join(dir, "dunstrc")
	rc := "[global]\n    monitor = 0\n    follow = none\n    markup = full\n    format = \"<b>%s</b>\\n%b\"\n"
	if dmenu != "" {
		rc += fmt.Sprintf("    dmenu = %s\n", dmenu)
	}
	for _, u := range []string{"low", "normal", "critical"} {
		rc += fmt.Sprintf("[urgency_%s]\n    timeout = 0\n", u)
	}
	if err := os.WriteFile(conf, []byte(rc), 0o600); err != nil {
		tb.Fatal(err)
	}
	env := append(os.Environ(), "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS="+bus)
	cmd := exec.Command("dunst", "-conf", conf)
	cmd.Env = env
	log := &LockedBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		if tb.Failed() {
			tb.Logf("dunst:\n%s", log)
		}
	})
	ctl := func(args ...string) (string, error) {
		c := exec.Command("dunstctl", args...)
		c.Env = env
		out, err := c.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	// Only once this dunst owns the name is dunstctl asked anything: the
	// bus starts a notification server for a call to the name while
	// nobody owns it (dunst's D-Bus service file), a second dunst, on the
	// test process's display and config, racing this one for the name.
	Eventually(tb, 20*time.Second, func() bool {
		if ProcessGone(cmd.Process.Pid) {
			tb.Fatalf("dunst exited before it owned org.freedesktop.Notifications:\n%s", log)
		}
		return nameOwner(bus, "org.freedesktop.Notifications") == cmd.Process.Pid
	}, "dunst (pid %d) owning org.freedesktop.Notifications on the bus (owner: pid %d):\n%s", cmd.Process.Pid, nameOwner(bus, "org.freedesktop.Notifications"), log)
	Eventually(tb, 20*time.Second, func() bool { _, err := ctl("is-paused"); return err == nil }, "dunst on the bus:\n%s", log)
	return ctl
}

// nameOwner is the pid of the process owning name on the bus at addr, or
// 0 when nobody does. It never starts a service for the name.
func nameOwner(addr, name string) int {
	conn, err := dbus.Connect(addr)
	if err != nil {
		return 0
	}
	defer conn.Close()
	var pid uint32
	if err := conn.BusObject().Call("org.freedesktop.DBus.GetConnectionUnixProcessID", 0, name).Store(&pid); err != nil {
		return 0
	}
	return int(pid)
}

// need skips the test when program is missing (fails it under CI, where
// make test installs the Debian package pkg).
func need(tb testing.TB, program, pkg string) {
	tb.Helper()
	if _, err := exec.LookPath(program); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%s is missing under CI (make test installs %s)", program, pkg)
		}
		tb.Skipf("%s is not installed (apt-get install %s)", program, pkg)
	}
}
