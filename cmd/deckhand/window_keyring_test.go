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

// A keyring that cannot keep a key (no login keyring, as gnome-keyring
// unlocked without a password line leaves it; or locked) is no alarm in
// the settings of a model on this computer, which needs no key: they say
// no key is needed, not D-Bus's "Object does not exist at path
// …/collection/login" in orange, and nothing asks to unlock.
func TestWindowSettingsQuietAboutAKeyringNotNeeded(t *testing.T) {
	for _, c := range []struct {
		name  string
		start func(t *testing.T, env []string, bus string)
	}{
		{"no login keyring", keyringWithoutLogin},
		{"locked", lockedKeyring},
	} {
		t.Run(c.name, func(t *testing.T) {
			bus := testutil.SessionBus(t)
			prompts := keyringPrompts(t, bus)
			cfg := "[model]\nbase_url = \"http://127.0.0.1:9/v1\"\nname = \"m\"\n\n[tools]\nenabled = false\n"
			w := startRealWindow(t, cfg, func(env []string, home string) { c.start(t, env, bus) }, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))
			w.key("ctrl+comma")
			s := w.waitScreen("the key's status", func(s gui.Screen) bool {
				return shows(s, "No key saved") || shows(s, "Could not read") || shows(s, "login keyring") || shows(s, "is locked")
			})
			w.keep("settings-quiet-keyring-" + strings.ReplaceAll(c.name, " ", "-") + ".png")
			if !shows(s, "No key saved. Models on this computer need none.") || shows(s, "Could not read the keyring") || shows(s, "does not exist") {
				var said []string
				for _, it := range s.Items {
					if it.Visible && strings.Contains(it.Text, "key") {
						said = append(said, it.Text)
					}
				}
				t.Errorf("the settings say %q, want that a model on this computer needs no key", said)
			}
			if p := prompts(); p != "" {
				t.Errorf("the settings asked the keyring to unlock:\n%s", p)
			}
		})
	}
}

// keyringWithoutLogin starts gnome-keyring on bus for the home of env
// with no login keyring: unlocked with no password line at all, as the
// new-user pass had it.
func keyringWithoutLogin(t *testing.T, env []string, bus string) {
	t.Helper()
	if _, err := exec.LookPath("gnome-keyring-daemon"); err != nil {
		t.Skip("no gnome-keyring-daemon")
	}
	env = append(env, "DBUS_SESSION_BUS_ADDRESS="+bus)
	// Not --foreground: in the foreground, without a password line, it
	// did not take the bus's name. It forks, and leaves with the bus.
	d := exec.Command("gnome-keyring-daemon", "--unlock", "--components=secrets")
	d.Env, d.Stdin = env, strings.NewReader("")
	log := &testutil.LockedBuffer{}
	d.Stdout, d.Stderr = log, log
	if err := d.Run(); err != nil {
		t.Fatalf("gnome-keyring-daemon: %v\n%s", err, log)
	}
	testutil.Eventually(t, 20*time.Second, func() bool {
		c := exec.Command("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
			"org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets")
		c.Env = env
		out, _ := c.CombinedOutput()
		return strings.Contains(string(out), "boolean true")
	}, "gnome-keyring on the bus:\n%s", log)
}
