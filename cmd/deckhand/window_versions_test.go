package main

import (
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

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
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[tools]\nenabled = false\n", model.URL)
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
	w.waitScreen("the chat's menu", func(s gui.Screen) bool { return shows(s, "Rename") })
	w.keep("pin-menu.png")
	w.clickText("", "Pin")
	s = w.waitScreen("the pinned chat first", func(s gui.Screen) bool { return order(s) == "first" })
	row, _ = find(s, "row", "first question")
	if !strings.Contains(row.Text, "📌") {
		t.Errorf("the pinned chat is not marked: %q", row.Text)
	}
	w.keep("pinned-chat.png")

	// After a restart, from the same home.
	w.restart()
	s = w.waitScreen("the pinned chat still first", func(s gui.Screen) bool { return order(s) == "first" })
	row, _ = find(s, "row", "first question")
	w.click(row, "3")
	w.clickText("", "Unpin")
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
