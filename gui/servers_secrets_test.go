package gui

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/keys"
	"deckhand/testutil"
)

// TestServersFormSecretInKeyring: a secret's value given in the connect
// form reaches the server's process (a real child, which says whether the
// variable is set and the value's SHA-256, never the value), kept in the
// keyring under that server's alias: not in the config file, not in any
// file of the config's or the log's folder, not in the SQLite log. Another
// server does not get it, whether it names no secret or names the same
// one. Edit says where the value comes from, and Remove (asked first)
// takes it out of the keyring. Before, the form only named the variable,
// which policy.secrets.keys (config.toml only) had to allow and Deckhand's
// own environment had to hold.
func TestServersFormSecretInKeyring(t *testing.T) {
	keys.MockInit()
	t.Cleanup(keys.MockInit)
	const name = "DECKHAND_TEST_FORM_SECRET"
	const value = "s3cr3t-form-5b7e1c0d"
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte(value)))

	plain := testutil.StdioServer(t, "-hasenv", "-probe")
	greedy := testutil.StdioServer(t, "-hasenv")
	greedy.Secrets, greedy.AllowSecrets = []string{name}, []string{name}
	servers := map[string]config.Server{"plain": plain, "greedy": greedy}
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	h := newHarness(t, harnessOptions{dbPath: dbPath, cfg: func(c *config.Config) {
		if err := config.AddServers(c.Path, servers); err != nil {
			t.Fatal(err)
		}
		c.MCP.Servers = servers
	}})
	cfg, err := config.Load(h.cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	h.ui.setConfig(cfg)
	h.ui.showServers()
	sw := h.ui.serversW
	h.until("plain ready", func() bool { return h.serverState(sw, "plain") == "ready" })

	sw.ShowConnect()
	f := sw.Form
	f.Kind.SetSelected("Command")
	f.Target.SetText(strings.Join(append([]string{plain.Command}, plain.Args...), " "))
	f.Alias.SetText("mine")
	f.Secrets.SetText(name)
	if got := f.SecretStatus(name); !strings.HasPrefix(got, "Not set") {
		t.Errorf("a secret kept nowhere says %q", got)
	}
	f.SecretValue(name).SetText(value)
	test.Tap(f.Submit)
	h.until("the try to end", func() bool { return !f.Trying() })
	if !f.Closed {
		t.Fatalf("the server was not saved: %s\n%s", f.Heading.Text, f.Problem.Text)
	}
	h.until("mine ready", func() bool { return h.serverState(sw, "mine") == "ready" })

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	hasenv := func(alias string) string {
		t.Helper()
		res, err := h.sys.CallTool(ctx, alias+".hasenv", json.RawMessage(`{"name":"`+name+`"}`), nil)
		if err != nil {
			t.Fatalf("%s.hasenv: %v", alias, err)
		}
		data, _ := json.Marshal(res)
		return string(data)
	}
	if got := hasenv("mine"); !strings.Contains(got, name+" is set, sha256 "+sum) {
		t.Errorf("the server's process did not get the value: %s", got)
	}
	// Echoed back, it is removed from the result as from everything else
	// (the value came from the keyring: known to no config).
	res, err := h.sys.CallTool(ctx, "mine.getenv", json.RawMessage(`{"name":"`+name+`"}`), nil)
	if data, _ := json.Marshal(res); err != nil || strings.Contains(string(data), value) || !strings.Contains(string(data), "[redacted") {
		t.Errorf("the value echoed back by the server: %s, %v", data, err)
	}
	if got := hasenv("plain"); !strings.Contains(got, name+" is not set") {
		t.Errorf("a server naming no secret got it: %s", got)
	}
	if st := h.serverState(sw, "greedy"); st == "ready" {
		t.Errorf("a server naming the same secret started (%s): it must not get mine's", st)
	}

	// The config names it, never its value.
	text := h.configText()
	saved := h.ui.cfg.MCP.Servers["mine"]
	if strings.Contains(text, value) || len(saved.AllowSecrets) != 1 || saved.AllowSecrets[0] != name {
		t.Errorf("the config holds the value, or no grant (allow_secrets %q):\n%s", saved.AllowSecrets, text)
	}
	if err := h.sys.SyncLog(ctx); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Dir(h.cfg.Path), filepath.Dir(dbPath)} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if data, err := os.ReadFile(path); err == nil && bytes.Contains(data, []byte(value)) {
				t.Errorf("%s holds the secret's value", path)
			}
			return nil
		})
	}

	// Edit says where it comes from; Remove asks, then takes it away.
	test.Tap(sw.Rows["mine"].Edit)
	f = sw.Form
	h.until("the keyring's answer", func() bool { return strings.HasPrefix(f.SecretStatus(name), "Saved in the keyring") })
	test.Tap(f.SecretRemove(name))
	if _, err := keys.ServerSecret("mine", name); err != nil {
		t.Fatalf("Remove removed the value before it was confirmed: %v", err)
	}
	test.Tap(h.buttonIn(f.Win.Canvas().Overlays().Top(), "Remove"))
	h.until("the value removed", func() bool { return !strings.HasPrefix(f.SecretStatus(name), "Saved in the keyring") })
	if _, err := keys.ServerSecret("mine", name); err == nil {
		t.Error("the keyring still holds the value after Remove")
	}
	f.Close()

	// A server removed takes its saved secrets with it: one added later
	// under its alias does not inherit them.
	if err := keys.StoreSecret("mine", name, value); err != nil {
		t.Fatal(err)
	}
	test.Tap(sw.Rows["mine"].Remove)
	test.Tap(h.buttonIn(sw.Win.Canvas().Overlays().Top(), "Remove"))
	h.until("the secret gone with its server", func() bool {
		_, err := keys.ServerSecret("mine", name)
		return err != nil
	})
}

// TestServersFormSecretWithoutKeyring: with no keyring running, a value
// typed for a secret cannot be kept: the form says so in its words (what
// to do instead) and saves nothing; a server that needs no secret
// connects and is saved as ever.
func TestServersFormSecretWithoutKeyring(t *testing.T) {
	keys.MockUnavailable()
	t.Cleanup(keys.MockInit)
	const name, value = "DECKHAND_TEST_NO_RING", "s3cr3t-no-ring-77aa"
	h, sw := serversHarness(t, nil)
	srv := testutil.StdioServer(t, "-hasenv")
	command := strings.Join(append([]string{srv.Command}, srv.Args...), " ")

	sw.ShowConnect()
	f := sw.Form
	f.Kind.SetSelected("Command")
	f.Target.SetText(command)
	f.Alias.SetText("ringless")
	f.Secrets.SetText(name)
	f.SecretValue(name).SetText(value)
	test.Tap(f.Submit)
	h.until("the try to end", func() bool { return !f.Trying() })
	if f.Closed || f.Heading.Text != "Connected, but not saved" || !strings.Contains(f.Problem.Text, "no keyring is running") || !strings.Contains(f.Problem.Text, "environment.d") {
		t.Errorf("without a keyring the form says (closed %v) %q:\n%s", f.Closed, f.Heading.Text, f.Problem.Text)
	}
	if strings.Contains(f.Problem.Text, value) || strings.Contains(h.configText(), "ringless") {
		t.Errorf("the value is shown, or the server saved:\n%s", f.Problem.Text)
	}

	f.Secrets.SetText("")
	f.Alias.SetText("plain")
	test.Tap(f.Submit)
	h.until("the try to end", func() bool { return !f.Trying() })
	if !f.Closed {
		t.Fatalf("a server with no secret was not saved without a keyring: %s", f.Problem.Text)
	}
	h.until("plain ready", func() bool { return h.serverState(sw, "plain") == "ready" })
}

// TestServersFormSecretMovesWithItsServer: a server renamed in Edit takes
// the values saved for it along (its process gets them under the new
// alias, the old alias keeps none); values typed in a Secrets row and
// then left hidden by choosing URL are not kept.
func TestServersFormSecretMovesWithItsServer(t *testing.T) {
	keys.MockInit()
	t.Cleanup(keys.MockInit)
	const name, value = "DECKHAND_TEST_MOVING", "s3cr3t-moving-0c4f"
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte(value)))
	// Made first, closed last: Deckhand's stream to it ends first.
	up := testutil.ServeHTTP(t, testutil.NewServer("h"))
	if err := keys.StoreSecret("old", name, value); err != nil {
		t.Fatal(err)
	}
	srv := testutil.StdioServer(t, "-hasenv")
	srv.Secrets, srv.AllowSecrets = []string{name}, []string{name}
	h, sw := serversHarness(t, map[string]config.Server{"old": srv})
	h.until("old ready", func() bool { return h.serverState(sw, "old") == "ready" })

	test.Tap(sw.Rows["old"].Edit)
	f := sw.Form
	f.Alias.SetText("renamed")
	test.Tap(f.Submit)
	h.until("the try to end", func() bool { return !f.Trying() })
	if !f.Closed {
		t.Fatalf("the renamed server was not saved: %s", f.Problem.Text)
	}
	if v, err := keys.ServerSecret("renamed", name); err != nil || v != value {
		t.Errorf("the value under the new alias: %v", err)
	}
	if _, err := keys.ServerSecret("old", name); err == nil {
		t.Error("the old alias still holds the value")
	}
	h.until("renamed ready", func() bool { return h.serverState(sw, "renamed") == "ready" })
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	res, err := h.sys.CallTool(ctx, "renamed.hasenv", json.RawMessage(`{"name":"`+name+`"}`), nil)
	if data, _ := json.Marshal(res); err != nil || !strings.Contains(string(data), "is set, sha256 "+sum) {
		t.Errorf("the renamed server's process: %s, %v", data, err)
	}

	sw.ShowConnect()
	f = sw.Form
	f.Kind.SetSelected("Command")
	f.Secrets.SetText("URL_HIDDEN")
	f.SecretValue("URL_HIDDEN").SetText("typed-then-hidden")
	f.Kind.SetSelected("URL")
	f.Target.SetText(up.StreamableURL)
	f.Alias.SetText("web")
	test.Tap(f.Submit)
	h.until("the try to end", func() bool { return !f.Trying() })
	if !f.Closed {
		t.Fatalf("the URL server was not saved: %s", f.Problem.Text)
	}
	if _, err := keys.ServerSecret("web", "URL_HIDDEN"); err == nil {
		t.Error("a value typed in a row the URL server hides was kept")
	}
}

// TestServersSecretInALockedKeyring: with the keyring locked, a server
// that needs no secret starts; the one whose secret is kept there asks
// the keyring to unlock as it starts (once), and, not unlocked, says so
// and what to do; its form says the value is saved in a locked keyring.
func TestServersSecretInALockedKeyring(t *testing.T) {
	const name, value = "DECKHAND_TEST_LOCKED", "s3cr3t-locked-9e1d"
	keys.MockLocked(map[string]string{keys.SecretAccount("locked", name): value}, nil)
	t.Cleanup(keys.MockInit)
	locked := testutil.StdioServer(t, "-hasenv")
	locked.Secrets, locked.AllowSecrets = []string{name}, []string{name}
	h, sw := serversHarness(t, map[string]config.Server{"locked": locked, "plain": testutil.StdioServer(t)})
	h.until("plain ready", func() bool { return h.serverState(sw, "plain") == "ready" })
	var reason string
	h.until("locked's reason", func() bool {
		for _, st := range h.ui.servers {
			if st.Alias == "locked" && st.Reason != "" {
				reason = st.Reason
				return true
			}
		}
		return false
	})
	if !strings.Contains(reason, "the keyring, which is locked and was not unlocked: unlock it") || strings.Contains(reason, value) {
		t.Errorf("the locked server says: %s", reason)
	}
	if keys.Prompts() == 0 {
		t.Error("the server's start did not ask the keyring to unlock")
	}

	test.Tap(sw.Rows["locked"].Edit)
	f := sw.Form
	h.until("the keyring's answer", func() bool { return strings.Contains(f.SecretStatus(name), "locked") })
	// (That the form's search never asks to unlock is keys'
	// TestServerSecretsLockedOrAbsent: here the server's reconnects ask.)
	if !strings.HasPrefix(f.SecretStatus(name), "Saved in the keyring") {
		t.Errorf("the form says %q", f.SecretStatus(name))
	}
	f.Close()
}
