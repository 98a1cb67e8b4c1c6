package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// Adding server-filesystem for ~/Documents through the window asks, in the
// form, whether to grant it that folder; answering Read and write saves it
// with write = ["~/Documents"], and it connects and serves it.
func TestWindowAddServerGrantsItsFolder(t *testing.T) {
	w, home := askToGrantDocuments(t, func(docs string) {
		os.WriteFile(filepath.Join(docs, "plan.txt"), []byte("the plan"), 0o644)
	})
	w.keep("grant-folder.png")
	w.clickText("button", "Read and write")
	saved := w.savedServer()
	if !strings.Contains(saved, `write = ["`+filepath.Join(home, "Documents")+`"]`) {
		t.Errorf("the folder was not granted:\n%s", saved)
	}
	w.waitScreen("the server ready with its tools", func(s gui.Screen) bool { return shows(s, "tools") && shows(s, "ready") })
}

// askToGrantDocuments starts the window on a new home with a Documents
// folder (where setup, if any, puts what the test needs), connects
// server-filesystem for that folder from the Servers panel, and waits for
// the form's question whether to grant it the folder. It returns the
// window and its home.
func askToGrantDocuments(t *testing.T, setup func(docs string)) (w *realWindow, home string) {
	t.Helper()
	p := testutil.RequirePeers(t)
	cfg := "[tools]\nenabled = false\n"
	w = startRealWindow(t, cfg, func(env []string, h string) {
		home = h
		os.MkdirAll(filepath.Join(h, "Documents"), 0o755)
		if setup != nil {
			setup(filepath.Join(h, "Documents"))
		}
	})
	w.clickText("button", "Servers")
	w.clickText("button", "Connect a server")
	s := w.waitScreen("the form", func(s gui.Screen) bool { _, ok := findEntry(s, "https://mcp.example.com"); return ok })
	target, _ := findEntry(s, "https://mcp.example.com")
	w.click(target)
	w.typeText(fmt.Sprintf("%s %s %s", p.Node, p.Filesystem, filepath.Join(home, "Documents")))
	w.clickText("button", "Connect and save")
	w.waitScreen("the question", func(s gui.Screen) bool { return shows(s, "outside the folders servers may use") })
	return w, home
}

// savedServer waits until the window has saved server-filesystem in its
// config, and returns the config.
func (w *realWindow) savedServer() string {
	w.t.Helper()
	cfgPath := filepath.Join(w.dir, "config", "deckhand", "config.toml")
	var saved string
	testutil.Eventually(w.t, 60*time.Second, func() bool {
		data, _ := os.ReadFile(cfgPath)
		saved = string(data)
		return strings.Contains(saved, "server-filesystem")
	}, "the server was never saved; stderr:\n%s", w.stderr)
	return saved
}

// Where no keyring runs, the settings offer to keep the API key in a file
// (asked first, said to be less safe), and keep it there 0600; a 401 from
// the model then says which key was sent, and offers the settings, which
// open at the key.
func TestWindowKeyFileAnd401(t *testing.T) {
	// Refused twice: first without a key (the chat asks the key file only
	// when the model wants a key), then with the key in the file.
	refusal := testutil.ModelResponse{Status: 401, Header: map[string]string{"Content-Type": "application/json"}, Body: `{"error":{"message":"Incorrect API key provided"}}`}
	model := testutil.NewModelServer(t, refusal, refusal)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.clickText("button", "Settings")
	path := w.keepKeyInFile("sk-test-in-a-file-0123456789")
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("the key file's mode is %v", st.Mode().Perm())
	}

	w.say("hello")
	s := w.waitScreen("the refusal", func(s gui.Screen) bool { return shows(s, "401") && shows(s, "Deckhand sent the key in the key file") })
	if strings.Contains(s.ScreenText(), "sk-test-in-a-file") {
		t.Errorf("the key is on screen")
	}
	if auth := model.Headers(); len(auth) != 2 || auth[0].Get("Authorization") != "" || auth[1].Get("Authorization") != "Bearer sk-test-in-a-file-0123456789" {
		t.Errorf("the key from the file was not sent")
	}
	w.keep("key-refused.png")
	settings, ok := find(s, "button", "Settings")
	if !ok {
		t.Fatal("no Settings button")
	}
	// Two Settings buttons: the sidebar's, and the notice's to its right.
	for _, it := range s.Items {
		if it.Kind == "button" && it.Text == "Settings" && it.X > settings.X {
			settings = it
		}
	}
	w.click(settings)
	w.waitScreen("the settings at the key", func(s gui.Screen) bool {
		f, ok := focused(s)
		return ok && f.Kind == "entry" && f.Window == "Deckhand" && strings.Contains(f.Hint, "saved (hidden)")
	})
}

// keepKeyInFile, in Settings where no keyring runs, chooses the key file
// (answering its question), types key and saves; it returns the file once
// it holds the key.
func (w *realWindow) keepKeyInFile(key string) string {
	w.t.Helper()
	w.clickText("button", "Keep the key in a file")
	w.waitScreen("the question", func(s gui.Screen) bool { return shows(s, "less safe than a keyring") })
	w.clickText("button", "Yes")
	s := w.waitScreen("the key field", func(s gui.Screen) bool {
		e, ok := findEntry(s, "paste the key here")
		return ok && !e.Disabled
	})
	field, _ := findEntry(s, "paste the key here")
	w.click(field)
	w.typeText(key)
	w.clickText("button", "Save")
	path := filepath.Join(w.dir, "config", "deckhand", "api-keys.json")
	testutil.Eventually(w.t, 20*time.Second, func() bool {
		data, _ := os.ReadFile(path)
		return strings.Contains(string(data), key)
	}, "Save did not keep the key in the file")
	return path
}

// The connect form's parts that come and go are seen each time: the alias
// note (shown, hidden and shown again as the alias changes), the activity
// while a try is under way and, after a failed try, the reason, on a second
// failure too. Every screen read checks that nothing shown went unsized.
func TestWindowConnectFormNotesAndFailures(t *testing.T) {
	cfg := "[tools]\nenabled = false\n\n[mcp.servers.docs]\ncommand = \"/nonexistent/docs-server\"\n"
	w := startRealWindow(t, cfg, nil)
	w.clickText("button", "Servers")
	w.clickText("button", "Connect a server")
	s := w.waitScreen("the form", func(s gui.Screen) bool { _, ok := findEntry(s, "https://mcp.example.com"); return ok })
	target, _ := findEntry(s, "https://mcp.example.com")
	w.click(target)
	w.typeText("/nonexistent/mcp-thing --stdio")
	w.waitScreen("the derived alias", func(s gui.Screen) bool { return shows(s, `Saved as "thing"`) })

	alias := func(s gui.Screen) gui.ScreenItem {
		it, ok := findEntry(s, "derived from the URL or command")
		if !ok {
			t.Fatalf("no alias entry; the screen:\n%s", s.ScreenText())
		}
		return it
	}
	w.click(alias(s))
	w.typeText("docs")
	w.waitScreen("the alias taken", func(s gui.Screen) bool { return shows(s, `a server named "docs" already exists`) })
	w.key("ctrl+a", "BackSpace")
	w.waitScreen("the derived alias again", func(s gui.Screen) bool {
		return shows(s, `Saved as "thing"`) && !shows(s, "already exists")
	})
	w.typeText("fresh")
	w.waitScreen("no note", func(s gui.Screen) bool { return !shows(s, "Saved as") && !shows(s, "already exists") })
	w.key("ctrl+a", "BackSpace")
	w.waitScreen("the note shown again", func(s gui.Screen) bool { return shows(s, `Saved as "thing"`) })

	for try := 1; try <= 2; try++ {
		w.clickText("button", "Connect and save")
		s = w.waitScreen(fmt.Sprintf("the reason, try %d", try), func(s gui.Screen) bool {
			return shows(s, "Could not connect") && shows(s, "/nonexistent/mcp-thing")
		})
		w.waitScreen("the form ready again", func(s gui.Screen) bool {
			b, ok := find(s, "button", "Connect and save")
			return ok && !b.Disabled
		})
	}
	w.keep("connect-failed.png")
}
