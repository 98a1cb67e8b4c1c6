package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"deckhand/testutil"
)

// desktopPrograms are what testutil/desktop/run.sh needs, from the
// Makefile's DESKTOP_APT_PACKAGES.
var desktopPrograms = []string{
	"dbus-run-session", "dbus-monitor", "dbus-send", "Xvfb", "xdotool", "import", "convert",
	"status-notifier-watcher", "gtk-sni-tray-standalone", "dunst",
}

// TestDesktopTrayAndNotifications runs the tray and the notifications on a
// real desktop session bus, not a fake (testutil/desktop/run.sh): Deckhand
// registers a StatusNotifierItem that a real tray host draws, its menu
// comes over com.canonical.dbusmenu and opens the quick prompt, an approval
// asked while another window is in front is a Notify call that dunst
// shows, the icon comes back when the panel restarts, and Quit in the menu
// ends Deckhand. It skips, naming them, when the desktop's programs are not
// installed (make desktop-check installs them). Screenshots are kept
// (DECKHAND_SHOTS).
func TestDesktopTrayAndNotifications(t *testing.T) {
	var missing []string
	for _, p := range desktopPrograms {
		if !hasProgram(p) {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 && os.Getenv("CI") != "" {
		t.Fatalf("no desktop to check the tray and notifications on under CI: %s not installed (make test installs DESKTOP_APT_PACKAGES)", strings.Join(missing, ", "))
	}
	if len(missing) > 0 {
		t.Skipf("no desktop to check the tray and notifications on: %s not installed (make desktop-check installs DESKTOP_APT_PACKAGES)", strings.Join(missing, ", "))
	}
	testutil.RequirePeers(t) // aimock, the scripted model
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	server := stdioServerBin(t)
	shots := os.Getenv("DECKHAND_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	logs := t.TempDir()
	script := filepath.Join(testutil.ModuleRoot(t), "testutil", "desktop", "run.sh")

	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", script, bin, shots, logs)
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "DECKHAND_DESKTOP_BUS":
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "STDIOSERVER="+server)
	// The script and everything it starts are one process group: a
	// timeout stops them all, and the script's trap cleans up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 15 * time.Second
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 77 {
		t.Skipf("the desktop check skipped itself:\n%s", out)
	}
	if err != nil {
		t.Fatalf("the desktop check failed (%v); logs in %s:\n%s", err, logs, out)
	}
	t.Logf("%s", out)
	for _, want := range []string{
		"registered its StatusNotifierItem", "the tray host shows the icon", "items from com.canonical.dbusmenu",
		"opened the quick prompt", "sent org.freedesktop.Notifications.Notify, offering Allow once, and dunst shows it",
		"answered in the window, the notification was withdrawn",
		"the icon is back", "Quit in the tray menu ended Deckhand", "every check passed",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the desktop check did not report %q", want)
		}
	}
	dbusLog, err := os.ReadFile(filepath.Join(logs, "dbus.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"interface=org.kde.StatusNotifierWatcher; member=RegisterStatusNotifierItem",
		"interface=com.canonical.dbusmenu; member=GetLayout",
		"interface=org.freedesktop.Notifications; member=Notify",
		`string "Deckhand: Allow `,
		"interface=org.freedesktop.Notifications; member=CloseNotification",
	} {
		if !strings.Contains(string(dbusLog), want) {
			t.Errorf("the bus log lacks %q", want)
		}
	}
	for _, name := range []string{"tray-menu.png", "tray-quick-prompt.png", "approval-notification.png"} {
		if n := colours(t, filepath.Join(shots, name), 64); n < 16 {
			t.Errorf("%s has %d colours: nothing drawn?", name, n)
		}
	}
}
