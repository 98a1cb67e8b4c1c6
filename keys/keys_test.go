package keys

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"

	"deckhand/config"
)

const secret = "sk-test-0123456789abcdef"

func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

func TestResolveOrder(t *testing.T) {
	if os.Getenv(realChild) != "" {
		t.Skip("inside the real keyring's session")
	}
	MockInit()
	base := "https://api.example.com/v1/"
	m := config.Model{BaseURL: base, Name: "m", APIKeyEnv: "EXAMPLE_KEY"}

	// Nothing anywhere: no key, no error (local servers need none).
	k, err := Resolve(m, env(nil))
	if err != nil || k.Source != None || k.Value() != "" {
		t.Fatalf("nothing saved: %v %v", k, err)
	}
	if err := Store(base, "  "+secret+"\n"); err != nil {
		t.Fatal(err)
	}
	// The keyring, when the variable is unset or empty.
	for _, vars := range []map[string]string{nil, {"EXAMPLE_KEY": " "}} {
		k, err = Resolve(m, env(vars))
		if err != nil || k.Source != Keyring || k.Value() != secret {
			t.Fatalf("keyring with %v: %v %v", vars, k, err)
		}
	}
	// The same URL without its trailing slash finds the same key.
	if v, err := Get("https://api.example.com/v1"); err != nil || v != secret {
		t.Fatalf("Get without slash: %q %v", v, err)
	}
	// The variable wins when it is set.
	k, err = Resolve(m, env(map[string]string{"EXAMPLE_KEY": "from-env"}))
	if err != nil || k.Source != Env || k.Value() != "from-env" || k.Env != "EXAMPLE_KEY" {
		t.Fatalf("env: %v %v", k, err)
	}
	// Another provider has its own key.
	if k, _ := Resolve(config.Model{BaseURL: "https://other.example/v1"}, env(nil)); k.Source != None {
		t.Fatalf("other provider: %v", k)
	}
	if err := Remove(base); err != nil {
		t.Fatal(err)
	}
	if err := Remove(base); err != nil {
		t.Fatalf("removing twice: %v", err)
	}
	if k, _ := Resolve(m, env(nil)); k.Source != None {
		t.Fatalf("after Remove: %v", k)
	}
}

func TestStoreRefuses(t *testing.T) {
	if os.Getenv(realChild) != "" {
		t.Skip("inside the real keyring's session")
	}
	MockInit()
	for _, c := range []struct{ base, key, want string }{
		{"", secret, "model URL"},
		{"http://x/v1", "  ", "empty"},
		{"http://x/v1", "a\nb", "one line"},
	} {
		err := Store(c.base, c.key)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Store(%q, %q) = %v, want %q", c.base, c.key, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("the error shows the key: %v", err)
		}
	}
}

func TestKeyNeverPrints(t *testing.T) {
	k := Key{value: secret, Source: Keyring}
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("resolved", "key", k)
	for _, s := range []string{fmt.Sprint(k), fmt.Sprintf("%v %+v %#v %s %q", k, k, k, k, k), logged.String()} {
		if strings.Contains(s, secret) {
			t.Fatalf("the key shows: %s", s)
		}
	}
	if !strings.Contains(logged.String(), "the key in the keyring") {
		t.Fatalf("log: %s", logged.String())
	}
}

func TestUnavailable(t *testing.T) {
	if os.Getenv(realChild) != "" {
		t.Skip("inside the real keyring's session")
	}
	MockUnavailable()
	defer MockInit()
	m := config.Model{BaseURL: "http://x/v1", Name: "m"}
	if k, err := Resolve(m, env(nil)); err != nil || k.Source != None {
		t.Fatalf("no keyring is no key, not an error: %v %v", k, err)
	}
	if err := Store("http://x/v1", secret); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Store without a keyring: %v", err)
	}
	// The variable still works.
	m.APIKeyEnv = "K"
	if k, err := Resolve(m, env(map[string]string{"K": "v"})); err != nil || k.Source != Env {
		t.Fatalf("env without a keyring: %v %v", k, err)
	}
}

func TestNoSessionBusIsUnavailable(t *testing.T) {
	if os.Getenv(realChild) != "" {
		t.Skip("inside the real keyring's session")
	}
	mock.Store(mockNone)
	defer MockInit()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if _, err := Get("http://x/v1"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("without a session bus: %v", err)
	}
}

// realChild marks the test binary run again inside dbus-run-session.
const realChild = "DECKHAND_KEYRING_SESSION"

// ownsSecrets waits (up to 20 s) until the keyring started in the session
// owns its name on the bus: gnome-keyring-daemon --unlock prints its
// address before that, and a test asking at once makes the bus start a
// second keyring, without the login keyring the test unlocked.
const ownsSecrets = `i=0; until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus ` +
	`org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; do ` +
	`i=$((i+1)); [ $i -lt 400 ] || { echo 'gnome-keyring never owned org.freedesktop.secrets' >&2; exit 1; }; sleep 0.05; done`

// TestRealGnomeKeyring stores, reads and removes a key in a real
// gnome-keyring, in a D-Bus session of its own: the test binary runs
// itself again inside dbus-run-session, after unlocking a fresh keyring
// (in a temporary home) with an empty password: an empty line on stdin,
// since no line at all leaves the login keyring uncreated.
func TestRealGnomeKeyring(t *testing.T) {
	if os.Getenv(realChild) == "1" {
		realKeyring(t)
		return
	}
	for _, p := range []string{"dbus-run-session", "dbus-send", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (apt-get install dbus-x11 gnome-keyring; make test installs them): the real keyring is not tested", p)
		}
	}
	home := t.TempDir()
	script := `printf '\n' | gnome-keyring-daemon --unlock --components=secrets >/dev/null && ` + ownsSecrets + ` && exec "$0" -test.run='^TestRealGnomeKeyring$' -test.v`
	cmd := exec.Command("dbus-run-session", "--", "sh", "-c", script, os.Args[0])
	cmd.Env = append(os.Environ(), realChild+"=1", "HOME="+home, "XDG_DATA_HOME="+home+"/.local/share",
		"XDG_RUNTIME_DIR="+home, "XDG_CONFIG_HOME="+home+"/.config", "DBUS_SESSION_BUS_ADDRESS=")
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), secret) {
		t.Errorf("the key was printed:\n%s", out)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: TestRealGnomeKeyring") {
		t.Fatalf("in the keyring's session: %v\n%s", err, out)
	}
	// gnome-keyring-daemon outlives the session's bus by a moment; it
	// exits when the bus does.
}

func realKeyring(t *testing.T) {
	mock.Store(mockNone)
	base := "https://api.example.com/v1"
	m := config.Model{BaseURL: base, Name: "m"}
	if k, err := Resolve(m, env(nil)); err != nil || k.Source != None {
		t.Fatalf("fresh keyring: %v %v", k, err)
	}
	if err := Store(base, secret); err != nil {
		t.Fatalf("Store: %v", err)
	}
	k, err := Resolve(m, env(nil))
	if err != nil || k.Source != Keyring || k.Value() != secret {
		t.Fatalf("Resolve after Store: %v %v", k, err)
	}
	if err := Store(base, secret+"2"); err != nil {
		t.Fatalf("Store again: %v", err)
	}
	if v, err := Get(base); err != nil || v != secret+"2" {
		t.Fatalf("replaced key: ok=%v %v", v == secret+"2", err)
	}
	if err := Remove(base); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	if k, err := Resolve(m, env(nil)); err != nil || k.Source != None {
		t.Fatalf("after Remove: %v %v", k, err)
	}

	// Locked, the keyring is searched without a prompt (there is no
	// prompter here: one would fail or wait): a key saved is found, and
	// a model whose key was never saved has none, with no unlock asked.
	if err := Store(base, secret); err != nil {
		t.Fatalf("Store: %v", err)
	}
	conn, err := dbus.SessionBus()
	if err != nil {
		t.Fatal(err)
	}
	var lockedPaths []dbus.ObjectPath
	var prompt dbus.ObjectPath
	if err := conn.Object("org.freedesktop.secrets", "/org/freedesktop/secrets").Call("org.freedesktop.Secret.Service.Lock", 0,
		[]dbus.ObjectPath{"/org/freedesktop/secrets/collection/login"}).Store(&lockedPaths, &prompt); err != nil || len(lockedPaths) != 1 {
		t.Fatalf("locking the login keyring: %v (locked %v, prompt %v)", err, lockedPaths, prompt)
	}
	if saved, locked, err := Saved(base); !saved || !locked || err != nil {
		t.Errorf("Saved(%q) locked = %v, %v, %v; want saved and locked", base, saved, locked, err)
	}
	other := config.Model{BaseURL: "http://127.0.0.1:4291/v1", Name: "m"}
	if k, err := Resolve(other, env(nil)); err != nil || k.Source != None {
		t.Errorf("Resolve of a model with no key saved, keyring locked = %v, %v; want no key and no unlock", k, err)
	}
}

// A keyring that runs without a login keyring (gnome-keyring unlocked
// with no password line at all, as a fresh account can have it) is named
// as such: searching it and keeping a key in it say ErrNoCollection, in
// words a person can act on, not D-Bus's "Object does not exist at path".
func TestRealKeyringWithoutCollection(t *testing.T) {
	if os.Getenv(realChild) == "nocollection" {
		mock.Store(mockNone)
		for _, base := range []string{"", "http://127.0.0.1:8080/v1"} {
			if _, _, err := Saved(base); !errors.Is(err, ErrNoCollection) {
				t.Errorf("Saved(%q) = %v, want ErrNoCollection", base, err)
			}
		}
		if err := Store("https://api.example.com/v1", secret); !errors.Is(err, ErrNoCollection) {
			t.Errorf("Store = %v, want ErrNoCollection", err)
		}
		return
	}
	if os.Getenv(realChild) != "" {
		t.Skip("inside another keyring's session")
	}
	for _, p := range []string{"dbus-run-session", "dbus-send", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (apt-get install dbus-x11 gnome-keyring; make test installs them): the real keyring is not tested", p)
		}
	}
	home := t.TempDir()
	script := `: | gnome-keyring-daemon --unlock --components=secrets >/dev/null && ` + ownsSecrets + ` && exec "$0" -test.run='^TestRealKeyringWithoutCollection$' -test.v`
	cmd := exec.Command("dbus-run-session", "--", "sh", "-c", script, os.Args[0])
	cmd.Env = append(os.Environ(), realChild+"=nocollection", "HOME="+home, "XDG_DATA_HOME="+home+"/.local/share",
		"XDG_RUNTIME_DIR="+home, "XDG_CONFIG_HOME="+home+"/.config", "DBUS_SESSION_BUS_ADDRESS=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestRealKeyringWithoutCollection") {
		t.Fatalf("in the keyring's session: %v\n%s", err, out)
	}
}

func TestLockedKeyring(t *testing.T) {
	if os.Getenv(realChild) != "" {
		t.Skip("inside the real keyring's session")
	}
	err := explain(errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'"))
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "environment variable") {
		t.Fatalf("a locked keyring: %v", err)
	}
}

// The key file keeps keys 0600, by base URL, and refuses to be read once
// others may read it.
func TestKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", FileName)
	if _, err := GetFile(path, "https://api.example.com/v1"); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("no file: %v", err)
	}
	if err := StoreFile(path, "https://api.example.com/v1/", "sk-one"); err != nil {
		t.Fatal(err)
	}
	StoreFile(path, "https://other.example/v1", "sk-two")
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	if v, err := GetFile(path, "https://api.example.com/v1"); v != "sk-one" || err != nil {
		t.Errorf("GetFile = %q, %v", v, err)
	}
	RemoveFile(path, "https://api.example.com/v1")
	if _, err := GetFile(path, "https://api.example.com/v1"); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("after RemoveFile: %v", err)
	}
	os.Chmod(path, 0o644)
	if _, err := GetFile(path, "https://other.example/v1"); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a file others may read: %v", err)
	}
}

// The keyring can be swapped for a mock while an operation started
// earlier still runs (in the window's tests, an earlier test's settings
// reading its key on a goroutine of their own): under -race, the swap
// raced with go-keyring reading its provider (TestSettingsAPIKeyInKeyring,
// in a full run of package gui). Operations and swaps at once, a few
// hundred times: without the serial swap, -race finds the two accesses
// with nothing ordering them.
func TestMockWhileAnOperationRuns(t *testing.T) {
	MockInit()
	var wg sync.WaitGroup
	for i := range 300 {
		wg.Go(func() { Get("https://api.example.com") })
		if i%2 == 0 {
			MockInit()
		} else {
			MockLocked(nil, func() bool { return true })
		}
	}
	wg.Wait()
	MockInit()
}
