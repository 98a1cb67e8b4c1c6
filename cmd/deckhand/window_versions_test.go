package main

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"deckhand/actors/conversation"
	"deckhand/gui"
	"deckhand/testutil"
)

// Right-click ▸ Pin on a chat of the sidebar puts it first, marked, and it
// stays first after a restart (the log keeps it); Unpin puts it back in
// its place.
func TestWindowPinChat(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("answer one")},
		testutil.ModelResponse{Body: testutil.TextChunks("answer two")},
	)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, pastChats(t, cfg))
	order := func(s gui.Screen) string {
		a, okA := find(s, "row", "first question")
		b, okB := find(s, "row", "second question")
		switch {
		case !okA || !okB:
			return ""
		case a.Y < b.Y:
			return "first"
		}
		return "second"
	}
	s := w.waitScreen("two sessions, the newest first", func(s gui.Screen) bool { return order(s) == "second" })
	row, _ := find(s, "row", "first question")
	w.click(row, "3")
	// The menu (Pin, Rename…, Delete…) has the keyboard: Down reaches Pin.
	w.keep("pin-menu.png")
	w.key("Down", "Return")
	s = w.waitScreen("the pinned chat first", func(s gui.Screen) bool { return order(s) == "first" })
	if !shows(s, "📌 first question") {
		t.Errorf("the pinned chat is not marked:\n%s", s.ScreenText())
	}
	w.keep("pinned-chat.png")

	// After a restart, from the same home.
	w.restart()
	s = w.waitScreen("the pinned chat still first, marked", func(s gui.Screen) bool { return order(s) == "first" && shows(s, "📌 first question") })
	row, _ = find(s, "row", "first question")
	w.click(row, "3")
	w.keep("unpin-menu.png")
	w.key("Down", "Return")
	w.waitScreen("the chats in their order again", func(s gui.Screen) bool { return order(s) == "second" })
}

// restart quits Deckhand (as the session's end would: SIGTERM) and starts
// it again from the same home, on the same display.
func (w *realWindow) restart() {
	w.t.Helper()
	old := w.cmd
	old.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- old.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		w.t.Fatalf("Deckhand did not quit on SIGTERM; stderr:\n%s", w.stderr)
	}
	cmd := exec.Command(old.Path, old.Args[1:]...)
	cmd.Env, cmd.Dir, cmd.Stderr = old.Env, old.Dir, w.stderr
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.cmd = cmd
	w.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	testutil.Eventually(w.t, 30*time.Second, func() bool { w.win = w.xdo("search", "--name", "^Deckhand$"); return w.win != "" }, "the window again; stderr:\n%s", w.stderr)
	w.xdo("windowactivate", "--sync", w.win)
}

// F1 and Ctrl+/ open the list of the window's keyboard shortcuts, from
// the message box or anywhere; Escape closes it.
func TestWindowShortcutsList(t *testing.T) {
	model := testutil.NewModelServer(t)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.clickMessageBox()
	listed := func(s gui.Screen) bool {
		return shows(s, "Keyboard shortcuts") && shows(s, "Ctrl+N") && shows(s, "New chat") && shows(s, "Quick prompt") &&
			shows(s, "Ctrl+/") && shows(s, "Stop the answer being written; close a dialog")
	}
	w.key("F1")
	w.waitScreen("the shortcuts, after F1", listed)
	w.keep("shortcuts.png")
	w.key("Escape")
	w.waitScreen("the list closed", func(s gui.Screen) bool { return !shows(s, "Keyboard shortcuts") })
	w.key("ctrl+slash")
	w.waitScreen("the shortcuts, after Ctrl+/", listed)
	w.key("Escape")
	s := w.waitScreen("the list closed again", func(s gui.Screen) bool { return !shows(s, "Keyboard shortcuts") })
	// The focus is back in the message box: typing goes on there.
	if f, ok := focused(s); !ok || f.Hint == "" || !strings.Contains(f.Hint, "Message Deckhand") {
		t.Errorf("after the list the focus is on %+v", f)
	}
}

// Edit keeps the earlier version: the edited message is answered as its
// second version, ‹ 2/2 › on it, and ‹ shows the first again with its
// answer, also after a restart (the log keeps the versions and the one
// chosen).
func TestWindowEditVersions(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("answer one")},
		testutil.ModelResponse{Body: testutil.TextChunks("answer two")},
	)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.clickMessageBox()
	w.typeText("first question")
	w.key("Return")
	w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "answer one") })
	w.clickText("button", "Edit")
	w.waitScreen("the message to edit", func(s gui.Screen) bool {
		f, ok := focused(s)
		return shows(s, "Edit message") && ok && f.Text == "first question"
	})
	w.key("ctrl+a")
	w.typeText("edited question")
	w.key("Return") // Enter sends, as in the message box
	w.waitScreen("the edited version's answer", func(s gui.Screen) bool {
		return shows(s, "answer two") && !shows(s, "answer one") && shows(s, "2/2") && shows(s, "edited question")
	})
	w.keep("edit-version-2.png")
	w.clickText("button", "‹")
	w.waitScreen("the first version again", func(s gui.Screen) bool {
		return shows(s, "answer one") && !shows(s, "answer two") && shows(s, "1/2") && !shows(s, "edited question")
	})
	w.keep("edit-version-1.png")

	// After a restart, the chat opens on the version chosen, with both.
	w.restart()
	s := w.waitScreen("the chat in the sidebar", func(s gui.Screen) bool { _, ok := find(s, "row", "question"); return ok })
	row, _ := find(s, "row", "question")
	w.click(row)
	w.waitScreen("the chosen version, reopened", func(s gui.Screen) bool {
		return shows(s, "answer one") && shows(s, "1/2") && !shows(s, "answer two")
	})
	w.clickText("button", "›")
	w.waitScreen("the other version, reopened", func(s gui.Screen) bool {
		return shows(s, "answer two") && shows(s, "2/2") && !shows(s, "answer one")
	})
}

// Continue after Stop goes on in the stopped answer, with no message of
// the person shown, and so it reads after a restart.
func TestWindowContinueInPlace(t *testing.T) {
	slow := make([]string, 300)
	for i := range slow {
		slow[i] = "word "
	}
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks(slow...), Pace: 30 * time.Millisecond},
		testutil.ModelResponse{Body: testutil.TextChunks("THE REST.")},
	)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.clickMessageBox()
	w.typeText("count words")
	w.key("Return")
	w.waitScreen("words", func(s gui.Screen) bool { return shows(s, "word word word") })
	w.key("Escape")
	w.clickText("button", "Continue")
	s := w.waitScreen("the rest", func(s gui.Screen) bool { return shows(s, "THE REST.") && !shows(s, "Stopped.") })
	w.keep("continued.png")
	inPlace := func(s gui.Screen) bool {
		rest, _ := find(s, "", "THE REST.")
		return !shows(s, conversation.ContinueText) && strings.Contains(rest.Text, "word word")
	}
	if !inPlace(s) {
		t.Errorf("Continue did not extend the stopped answer in place:\n%s", s.ScreenText())
	}
	if _, ok := find(s, "button", "Retry"); !ok {
		t.Errorf("after Continue the message offers no Retry:\n%s", s.ScreenText())
	}

	w.restart()
	s = w.waitScreen("the chat in the sidebar", func(s gui.Screen) bool { _, ok := find(s, "row", "count words"); return ok })
	row, _ := find(s, "row", "count words")
	w.click(row)
	w.waitScreen("the continued answer, reopened", func(s gui.Screen) bool { return shows(s, "THE REST.") && inPlace(s) })
}
