package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// The settings never ask a locked keyring to unlock: on first run (no
// model yet), they see whether a keyring runs without reading from it. They
// asked with a read, and gnome-keyring put up "Unlock Login Keyring" over
// the window (Secret.Service.Unlock, then a prompt) for a key nobody
// needed.
func TestWindowSettingsLeaveALockedKeyringLocked(t *testing.T) {
	if !hasProgram("dbus-monitor") {
		t.Skip("no dbus-monitor")
	}
	bus := testutil.SessionBus(t)
	w := startRealWindow(t, "[tools]\nenabled = false\n", func(env []string, home string) {
		lockedKeyring(t, env, bus)
	}, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))
	mon := exec.Command("dbus-monitor", "--address", bus, "type='method_call',interface='org.freedesktop.Secret.Service'")
	calls := &testutil.LockedBuffer{}
	mon.Stdout, mon.Stderr = calls, calls
	if err := mon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mon.Process.Kill(); mon.Wait() })
	testutil.Eventually(t, 10*time.Second, func() bool { return strings.Contains(calls.String(), "NameAcquired") }, "dbus-monitor listening: %s", calls)

	w.key("ctrl+comma")
	w.waitScreen("the settings, the key's state said", func(s gui.Screen) bool {
		return shows(s, "Language model") && (shows(s, "No key saved") || shows(s, "key") && shows(s, "keyring"))
	})
	w.clickText("select", "")
	w.keep("settings-locked-keyring.png")
	w.key("Escape")
	w.clickText("tab", "Advanced")
	w.clickText("tab", "General")
	w.screen()
	if got := calls.String(); strings.Contains(got, "member=Unlock") {
		t.Errorf("the settings asked the keyring to unlock:\n%s", got)
	}
}
