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
// (Short names: gnome-keyring's control socket lives in the test's home,
// and a path past 108 bytes cannot be bound.)
func TestWindowKeyringQuiet(t *testing.T) {
	for _, c := range []struct {
		name  string
		start func(t *testing.T, env []string, bus string)
	}{
		{"nologin", keyringWithoutLogin},
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
			w.keep("settings-quiet-keyring-" + c.name + ".png")
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
// with no login keyring, as the new-user pass had it (unlocked with no
// password line at all, as a fresh account can have it): started with
// its login keyring, which is then deleted.
func keyringWithoutLogin(t *testing.T, env []string, bus string) {
	t.Helper()
	gnomeKeyring(t, env, bus, nil)
	c := exec.Command("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.secrets",
		"/org/freedesktop/secrets/collection/login", "org.freedesktop.Secret.Collection.Delete")
	c.Env = append(env, "DBUS_SESSION_BUS_ADDRESS="+bus)
	if out, err := c.CombinedOutput(); err != nil || !strings.Contains(string(out), `object path "/"`) {
		t.Fatalf("deleting the login keyring (no prompt expected): %v\n%s", err, out)
	}
}
