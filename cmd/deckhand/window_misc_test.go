package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// Other… in the model picker opens a field wide enough for a model's
// name, with the keyboard in it: what is typed lands there, and Enter
// uses the name.
func TestWindowOtherModel(t *testing.T) {
	model := testutil.NewModelServer(t)
	model.SetModels("scripted", "bigger")
	cfg := "[model]\nbase_url = \"" + model.URL + "\"\nname = \"scripted\"\n\n[tools]\nenabled = false\n"
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
	if e, ok := findEntry(s, "Message Deckhand"); ok && strings.Contains(e.Text, "my-own-model") {
		t.Errorf("the name went into the message box")
	}
}

// The question whether to grant a server the folder it names defaults to
// the narrowest grant that serves it: Enter answers Read only, and the
// server is saved with read = ["~/Documents"] and no write.
func TestWindowGrantDefaultsToReadOnly(t *testing.T) {
	p := testutil.RequirePeers(t)
	cfg := "[tools]\nenabled = false\n"
	var home string
	w := startRealWindow(t, cfg, func(env []string, h string) {
		home = h
		os.MkdirAll(filepath.Join(h, "Documents"), 0o755)
	})
	w.clickText("button", "Servers")
	w.clickText("button", "Connect a server")
	s := w.waitScreen("the form", func(s gui.Screen) bool { _, ok := findEntry(s, "https://mcp.example.com"); return ok })
	target, _ := findEntry(s, "https://mcp.example.com")
	w.click(target)
	w.typeText(fmt.Sprintf("%s %s %s", p.Node, p.Filesystem, filepath.Join(home, "Documents")))
	w.clickText("button", "Connect and save")
	w.waitScreen("the question", func(s gui.Screen) bool { return shows(s, "outside the folders servers may use") })
	w.key("Return")
	cfgPath := filepath.Join(w.dir, "config", "deckhand", "config.toml")
	var saved string
	testutil.Eventually(t, 60*time.Second, func() bool {
		data, _ := os.ReadFile(cfgPath)
		saved = string(data)
		return strings.Contains(saved, "server-filesystem")
	}, "the server was never saved; stderr:\n%s", w.stderr)
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
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[tools]\nenabled = false\n", model.URL)
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
	w.click(it)
	w.key("Delete")
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
