package main

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/keys"
	"deckhand/testutil"
)

// Other… in the model picker opens a field wide enough for a model's
// name, with the keyboard in it: what is typed lands there, and Enter
// uses the name.
func TestWindowOtherModel(t *testing.T) {
	model := testutil.NewModelServer(t)
	model.SetModels("scripted", "bigger")
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.clickText("select", "scripted")
	// The menu's items are not on the screen dump: the keys choose the
	// last, Other….
	w.key("Down", "Down", "Down", "Return")
	s := w.waitScreen("the Other… dialog", func(s gui.Screen) bool { _, ok := findEntry(s, "the model's name"); return ok })
	field, _ := findEntry(s, "the model's name")
	if field.W < 300 {
		t.Errorf("the model's field is %.0f px wide, want at least 300", field.W)
	}
	if f, ok := focused(s); !ok || f.Hint != field.Hint {
		t.Errorf("the model's field has not the keyboard; focused: %+v", f)
	}
	w.typeText("my-own-model")
	w.waitScreen("the name typed in the field", func(s gui.Screen) bool {
		e, ok := findEntry(s, "the model's name")
		return ok && e.Text == "my-own-model"
	})
	w.keep("other-model.png")
	w.key("Return")
	s = w.waitScreen("the typed model picked", func(s gui.Screen) bool {
		_, open := findEntry(s, "the model's name")
		_, ok := find(s, "select", "my-own-model")
		return ok && !open
	})
	box, ok := findEntry(s, "Message Deckhand")
	if ok && strings.Contains(box.Text, "my-own-model") {
		t.Errorf("the name went into the message box")
	}
	// The keyboard goes on to the message box, for the message to that
	// model (it stayed on the picker).
	if f, fok := focused(s); !ok || !fok || f.Hint != box.Hint {
		t.Errorf("the message box has not the keyboard after the name was used; focused: %+v", f)
	}
}

// The question whether to grant a server the folder it names defaults to
// the narrowest grant that serves it: Enter answers Read only, and the
// server is saved with read = ["~/Documents"] and no write.
func TestWindowGrantDefaultsToReadOnly(t *testing.T) {
	w, home := askToGrantDocuments(t, nil)
	w.key("Return")
	saved := w.savedServer()
	docs := filepath.Join(home, "Documents")
	if !strings.Contains(saved, `read = ["`+docs+`"]`) || strings.Contains(saved, `write = ["`+docs) {
		t.Errorf("Enter did not grant the folder read only:\n%s", saved)
	}
}

// The quick prompt's chat, listed in the sidebar, can be deleted while
// Deckhand runs: Delete and its confirmation take it out of the list and
// the log (the delete was dropped without a word), and the next quick
// question starts a chat of its own.
func TestWindowDeleteQuickChat(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("the quick answer")},
		testutil.ModelResponse{Body: testutil.TextChunks("the second answer")},
	)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.key("ctrl+k")
	w.waitScreen("the quick prompt", func(s gui.Screen) bool { return windowOf(s, "Deckhand: quick prompt") != nil })
	w.typeText("a quick question")
	w.key("Return")
	w.waitScreen("the quick answer", func(s gui.Screen) bool { return shows(s, "the quick answer") })
	w.key("Escape")
	w.xdo("windowactivate", "--sync", w.win)
	row := func(s gui.Screen) (gui.ScreenItem, bool) {
		for _, it := range s.Items {
			if it.Visible && it.Window == "Deckhand" && it.Kind == "label" && it.Text == "a quick question" {
				return it, true
			}
		}
		return gui.ScreenItem{}, false
	}
	s := w.waitScreen("the quick chat in the sidebar", func(s gui.Screen) bool { _, ok := row(s); return ok })
	it, _ := row(s)
	// A click gives the message box the keyboard: the row's menu deletes.
	w.click(it, "3")
	w.key("Down", "Down", "Down", "Down", "Down", "Return") // Pin, Export ×2, Rename…, Delete…
	w.clickText("button", "Delete")
	w.waitScreen("the quick chat gone from the sidebar", func(s gui.Screen) bool { _, ok := row(s); return !ok })
	w.keep("quick-chat-deleted.png")
	out := w.deckhand("sessions")
	if strings.Contains(out, "a quick question") {
		t.Errorf("the quick chat is still in the log:\n%s", out)
	}
	// The next quick question is a chat of its own.
	w.key("ctrl+k")
	w.waitScreen("the quick prompt again", func(s gui.Screen) bool {
		return windowOf(s, "Deckhand: quick prompt") != nil && !shows(s, "the quick answer")
	})
	w.typeText("another one")
	w.key("Return")
	w.waitScreen("the second answer", func(s gui.Screen) bool { return shows(s, "the second answer") })
}

// deckhand runs the binary the window runs, with its home, and returns
// what it printed.
func (w *realWindow) deckhand(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(w.cmd.Path, args...)
	cmd.Env, cmd.Dir = w.cmd.Env, w.cmd.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("deckhand %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// withTags builds the window's binary with these build tags ("" for a
// plain go build).
func withTags(tags string) windowOption { return func(s *windowSetup) { s.tags = &tags } }

// A plain go build (what go install makes) turns Fyne's animations off, as
// the no_animations tag does: the text cursor's blink redrew the window at
// the frame rate while the message box had the focus (5.5% of a core at
// rest, 1.2% without; BenchmarkWindowIdleCPUBuilds). Only -tags blink
// has the cursor blink.
func TestWindowStillByDefault(t *testing.T) {
	cfg := "[model]\nbase_url = \"http://127.0.0.1:9/v1\"\nname = \"m\"\n\n[tools]\nenabled = false\n"
	for _, c := range []struct {
		name, tags string
		animates   bool
	}{
		{"plain", "", false},
		{"no_animations", "no_animations", false},
		{"blink", "blink", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := startRealWindow(t, cfg, nil, withTags(c.tags))
			if got := w.screen().Animations; got != c.animates {
				t.Errorf("built with tags %q, Fyne animates: %v, want %v", c.tags, got, c.animates)
			}
		})
	}
}

// lockedKeyring starts gnome-keyring on bus for the home of env, and locks
// its login keyring, as a desktop whose keyring was locked (by the screen
// locker, or never unlocked at login) has it.
func lockedKeyring(t *testing.T, env []string, bus string) {
	t.Helper()
	gnomeKeyring(t, env, bus, nil)()
}

// gnomeKeyring starts gnome-keyring on bus for the home of env, its login
// keyring unlocked and holding Deckhand's keys (base URL → key), and
// returns what locks it.
func gnomeKeyring(t *testing.T, env []string, bus string, saved map[string]string) (lock func()) {
	t.Helper()
	if _, err := exec.LookPath("gnome-keyring-daemon"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("gnome-keyring-daemon is missing under CI (make test installs gnome-keyring)")
		}
		t.Skip("no gnome-keyring-daemon")
	}
	env = append(env, "DBUS_SESSION_BUS_ADDRESS="+bus)
	d := exec.Command("gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets")
	d.Env, d.Stdin = env, strings.NewReader("pw")
	log := &testutil.LockedBuffer{}
	d.Stdout, d.Stderr = log, log
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Process.Kill(); d.Wait() })
	send := func(args ...string) (string, error) {
		c := exec.Command("dbus-send", append([]string{"--session", "--print-reply"}, args...)...)
		c.Env = env
		out, err := c.CombinedOutput()
		return string(out), err
	}
	locked := func() string {
		out, _ := send("--dest=org.freedesktop.secrets", "/org/freedesktop/secrets/collection/login",
			"org.freedesktop.DBus.Properties.Get", "string:org.freedesktop.Secret.Collection", "string:Locked")
		return out
	}
	// Asked before it owns its name, the bus would start another
	// keyring (D-Bus activation), without the login keyring.
	testutil.Eventually(t, 20*time.Second, func() bool {
		out, _ := send("--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets")
		return strings.Contains(out, "boolean true")
	}, "gnome-keyring on the bus:\n%s", log)
	testutil.Eventually(t, 20*time.Second, func() bool { return strings.Contains(locked(), "boolean false") }, "the login keyring unlocked on the bus: %s\n%s", stringer(locked), log)
	if len(saved) > 0 {
		set := testutil.BuildProgram(t, "./testutil/escape")
		for base, key := range saved {
			c := exec.Command(set, "keyring-set", keys.Service, keys.Account(base), key)
			c.Env = env
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("keeping the key in the keyring: %v\n%s", err, out)
			}
		}
	}
	return func() {
		t.Helper()
		if out, err := send("--dest=org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock",
			"array:objpath:/org/freedesktop/secrets/collection/login"); err != nil {
			t.Fatalf("locking the keyring: %v\n%s", err, out)
		}
		testutil.Eventually(t, 10*time.Second, func() bool { return strings.Contains(locked(), "boolean true") }, "the login keyring locked: %s", stringer(locked))
	}
}

// keyringPrompts watches bus for what asks the person to unlock the
// keyring (Secret Service Unlock, and any prompt), from now on, and
// returns what it saw so far.
func keyringPrompts(t *testing.T, bus string) func() string {
	t.Helper()
	mon := exec.Command("dbus-monitor", "--address", bus,
		"type='method_call',interface='org.freedesktop.Secret.Service',member='Unlock'",
		"type='method_call',interface='org.freedesktop.Secret.Prompt'")
	log := &testutil.LockedBuffer{}
	mon.Stdout, mon.Stderr = log, log
	if err := mon.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mon.Process.Kill(); mon.Wait() })
	// A monitor is told it lost its own name once it is one.
	testutil.Eventually(t, 10*time.Second, func() bool { return strings.Contains(log.String(), "NameLost") }, "dbus-monitor watching the bus: %s", log)
	return func() string {
		var asked []string
		for _, l := range strings.Split(log.String(), "\n") {
			if strings.HasPrefix(l, "method call") {
				asked = append(asked, l)
			}
		}
		return strings.Join(asked, "\n")
	}
}

// A chat with a model that needs no key completes while the keyring is
// locked, and nothing asks to unlock it: the key is asked for only when
// the model refuses a request without one. Deckhand read the keyring at
// start (to hide the key from the log) and before the first request, and
// the locked keyring asked to be unlocked.
func TestWindowLockedKeyringKeylessChat(t *testing.T) {
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("the keyless answer")})
	bus := testutil.SessionBus(t)
	prompts := keyringPrompts(t, bus)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, func(env []string, home string) { lockedKeyring(t, env, bus) }, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))
	w.typeText("hello")
	w.key("Return")
	w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "the keyless answer") })
	if p := prompts(); p != "" {
		t.Errorf("Deckhand asked the locked keyring to unlock, for a model that needs no key:\n%s", p)
	}
	if h := model.Headers()[0].Get("Authorization"); h != "" {
		t.Errorf("Authorization %q, want none", h)
	}
}

// A model that refuses a request without its key gets the key from the
// keyring, unlocked; with the keyring locked, the chat says which key was
// needed and that the keyring is locked, and to unlock it.
func TestWindowKeyringKeyForAKeyedModel(t *testing.T) {
	const secret = "sk-in-the-keyring-71c3"
	for _, c := range []struct {
		name   string
		locked bool
		want   string
	}{
		{name: "unlocked", want: "the keyed answer"},
		{name: "locked", locked: true, want: "refused the request without a key (401); its key is kept in the keyring, which is locked: unlock it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("the keyed answer")})
			model.RequireKey(secret)
			bus := testutil.SessionBus(t)
			cfg := scriptedConfig(model.URL)
			w := startRealWindow(t, cfg, func(env []string, home string) {
				lock := gnomeKeyring(t, env, bus, map[string]string{model.URL: secret})
				if c.locked {
					lock()
				}
			}, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))
			w.typeText("hello")
			w.key("Return")
			s := w.waitScreen("the answer or the error", func(s gui.Screen) bool {
				return shows(s, "the keyed answer") || shows(s, "refused the request") || shows(s, "401")
			})
			w.keep("keyring-key-" + c.name + ".png")
			if !shows(s, c.want) {
				t.Errorf("the chat does not show %q:\n%s", c.want, s.ScreenText())
			}
			if shows(s, secret) {
				t.Errorf("the key shows on screen")
			}
			if got := len(model.Headers()); c.locked == (got > 0) {
				t.Errorf("the model answered %d requests with the key", got)
			}
		})
	}
}

// A locked keyring does not break a model server that needs no key: its
// models fill the picker, and Settings' Check lists them, with no word of
// the keyring (Check failed with the keyring's error, said twice, red and
// orange, and the picker offered only the configured model and Other…).
func TestWindowLockedKeyringKeylessModel(t *testing.T) {
	model := testutil.NewModelServer(t)
	var names []string
	for i := range 22 {
		names = append(names, fmt.Sprintf("model-%02d", i+1))
	}
	model.SetModels(append([]string{"scripted"}, names...)...)
	bus := testutil.SessionBus(t)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, func(env []string, home string) { lockedKeyring(t, env, bus) }, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))

	// The picker: the server's models follow the configured one.
	w.clickText("select", "scripted")
	w.key("Down", "Down", "Return")
	w.waitScreen("a model of the server's picked", func(s gui.Screen) bool {
		_, other := findEntry(s, "the model's name")
		_, ok := find(s, "select", "model-01")
		return ok || other
	})
	if s := w.screen(); !shows(s, "model-01") {
		t.Errorf("the picker offers only the configured model and Other…:\n%s", s.ScreenText())
		w.key("Escape")
	}

	// Settings ▸ Check.
	w.key("ctrl+comma")
	w.clickText("button", "Check")
	s := w.waitScreen("what Check found", func(s gui.Screen) bool {
		_, asking := find(s, "", "for its models…")
		_, check := find(s, "button", "Check")
		return check && !asking
	})
	w.keep("locked-keyring-check.png")
	if !shows(s, "answers with 23 models") {
		t.Errorf("Check failed on the keyring although the server needs no key:\n%s", s.ScreenText())
	}
	// Nothing asked the keyring to unlock, nor says it failed: no key
	// is needed.
	if shows(s, "Could not read the keyring") || shows(s, "was not unlocked") || shows(s, "did not answer within") {
		t.Errorf("the settings say the keyring failed, for a server that needs no key:\n%s", s.ScreenText())
	}
}

// stringer prints as what f returns when printed.
type stringer func() string

func (f stringer) String() string { return f() }

// A server that wants a key, with the keyring locked. With no key saved
// for it, nothing asks the keyring to unlock (a locked keyring is searched
// as it is), and Check says the key is missing and where to paste it.
// With its key saved there, nothing asks at start either (the picker's
// list waits until the picker is opened); Check asks, and says which key
// was needed and that the keyring could not give it. (Issue 29: the
// unlock prompt came at start, and for a key that was never saved.)
func TestWindowLockedKeyringKeyNeeded(t *testing.T) {
	for _, c := range []struct {
		name  string
		saved bool
		want  []string
	}{
		{name: "no key saved", want: []string{"asks for an API key and none is saved for it: paste it in API key"}},
		{name: "key saved", saved: true, want: []string{"asks for an API key", "keyring"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var lists atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				lists.Add(1)
				if r.Header.Get("Authorization") == "" {
					http.Error(w, `{"error":{"message":"no key"}}`, http.StatusUnauthorized)
					return
				}
				w.Write([]byte(`{"data":[{"id":"keyed"}]}`))
			}))
			t.Cleanup(srv.Close)
			base := srv.URL + "/v1"
			bus := testutil.SessionBus(t)
			var prompts func() string
			cfg := "[model]\nbase_url = \"" + base + "\"\nname = \"keyed\"\n\n[tools]\nenabled = false\n"
			saved := map[string]string{}
			if c.saved {
				saved[base] = "sk-saved-4f1e"
			}
			w := startRealWindow(t, cfg, func(env []string, home string) {
				gnomeKeyring(t, env, bus, saved)()
				prompts = keyringPrompts(t, bus) // from Deckhand's start: the key was saved with an Unlock
			}, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))
			w.key("ctrl+comma")
			w.waitScreen("the key's status", func(s gui.Screen) bool { return shows(s, "saved") && lists.Load() > 0 })
			if p := prompts(); p != "" {
				t.Errorf("Deckhand asked the keyring to unlock before Check:\n%s", p)
			}
			w.clickText("button", "Check")
			s := w.waitScreen("what Check found", func(s gui.Screen) bool {
				_, asking := find(s, "", "for its models…")
				_, found := find(s, "", "asks for an API key")
				return found && !asking
			})
			w.keep("locked-keyring-key-needed-" + strings.ReplaceAll(c.name, " ", "-") + ".png")
			it, _ := find(s, "", "asks for an API key")
			for _, want := range append(c.want, base) {
				if !strings.Contains(it.Text, want) {
					t.Errorf("Check says %q, want %q in it", it.Text, want)
				}
			}
			if p := prompts(); !c.saved && p != "" {
				t.Errorf("Deckhand asked the keyring to unlock, for a key it does not hold:\n%s", p)
			}
			if shows(s, "need none") {
				t.Errorf("the settings say the model needs no key:\n%s", s.ScreenText())
			}
		})
	}
}

// An answer's code block shows in the quick prompt as in the main
// window: in its box, under its language and Copy, on the code background,
// its tokens in colour. It was plain grey text with no background.
func TestWindowQuickPromptDrawsCode(t *testing.T) {
	const code = "func main() {\n\tfmt.Println(\"hello\", 42)\n}"
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("Here it is:\n\n```go\n"+code+"\n```\n", "\nRun it.")})
	w := startRealWindow(t, scriptedConfig(model.URL), nil)
	w.openQuickPrompt()
	w.typeText("some go")
	w.key("Return")
	const title = "Deckhand: quick prompt"
	in := func(s gui.Screen, kind, text string) (gui.ScreenItem, bool) {
		for _, it := range s.Items {
			if it.Visible && it.Window == title && it.Kind == kind && strings.Contains(it.Text, text) {
				return it, true
			}
		}
		return gui.ScreenItem{}, false
	}
	s := w.waitScreen("the answer in the quick prompt", func(s gui.Screen) bool {
		_, done := in(s, "text", "Run it.")
		return done
	})
	w.keep("quick-prompt-code.png")
	codeItem, ok := in(s, "text", "fmt.Println(")
	_, lang := in(s, "label", "go")
	_, copyButton := in(s, "button", "Copy")
	if !ok || !lang || !copyButton {
		t.Fatalf("the quick prompt shows the code as a block of its own %v, its language %v, Copy %v; want all three:\n%s", ok, lang, copyButton, s.ScreenText())
	}
	shot, err := png.Decode(bytes.NewReader(windowShot(t, w, w.windowID(title))))
	if err != nil {
		t.Fatal(err)
	}
	// The background: inside the code's box, left of its text, against
	// the window's beside the box.
	x, y := int(codeItem.X), int(codeItem.Y+codeItem.H/2)
	if inside, outside := shot.At(x+2, y), shot.At(x-3, y); inside == outside {
		t.Errorf("the code has no background of its own: %v inside its box and beside it", inside)
	}
	// Highlighted: some of its text is in a colour (keywords, strings,
	// numbers), not all the grey of plain text.
	coloured := 0
	for py := int(codeItem.Y); py < int(codeItem.Y+codeItem.H); py++ {
		for px := int(codeItem.X); px < int(codeItem.X+codeItem.W); px++ {
			r, g, b, _ := shot.At(px, py).RGBA()
			if max(r, g, b)-min(r, g, b) > 0x5000 {
				coloured++
			}
		}
	}
	if coloured < 20 {
		t.Errorf("the code's text has %d coloured pixels, want its tokens highlighted", coloured)
	}
}
