package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/store"
	"deckhand/testutil"
)

// The real window, with the mouse and the keyboard: text dragged across in
// an answer is selected and Ctrl+C puts it on the X clipboard (read back
// with xclip); then, in the message box again, a question whose answer
// streams slowly is stopped with Escape, and the log says the run was
// stopped.
func TestWindowSelectCopyAndEscape(t *testing.T) {
	needPrograms(t, "xdotool", "xclip")
	var slow []string
	for i := range 400 {
		slow = append(slow, fmt.Sprintf("word%d ", i))
	}
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("Selectable words live here in the answer, for a person to copy.")},
		testutil.ModelResponse{Body: testutil.TextChunks(slow...), Pace: 100 * time.Millisecond},
	)
	w := startRealWindow(t, fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n", model.URL), nil)
	run, xdo, keep, stderr, dir := w.run, w.xdo, w.keep, w.stderr, w.dir
	xdo("type", "--delay", "20", "hello")
	xdo("key", "Return")
	testutil.Eventually(t, 30*time.Second, func() bool { return len(model.Requests()) >= 1 }, "a model request; stderr:\n%s", stderr)
	keep("window-asked.png")

	// Drag across the answer's words, where the window shows them.
	s := w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "Selectable words live here") })
	ans, _ := find(s, "", "Selectable words live here")
	y := ans.Y + ans.H/2
	w.drag(ans.Window, ans.X+4, y, ans.X+min(ans.W-4, 200), y)
	// Kept: a pause between two synthetic events (the drag, then Ctrl+C);
	// the selection is not on the screen the window describes.
	time.Sleep(300 * time.Millisecond)
	keep("window-select.png")
	xdo("key", "ctrl+c")
	var clip string
	testutil.Eventually(t, 5*time.Second, func() bool {
		clip = run("xclip", "-o", "-selection", "clipboard")
		return clip != ""
	}, "the clipboard to hold the selection")
	if !strings.Contains("Selectable words live here in the answer, for a person to copy.", clip) || len(clip) < 8 {
		t.Errorf("the clipboard holds %q, not a part of the answer", clip)
	}

	// Ctrl+N starts a new chat and gives the message box the focus; a slow
	// answer is stopped with Escape.
	xdo("key", "ctrl+n")
	w.waitScreen("a new chat, its message box focused", func(s gui.Screen) bool {
		f, _ := focused(s)
		return !shows(s, "Selectable words live here") && strings.Contains(f.Hint, "Message Deckhand")
	})
	xdo("type", "--delay", "20", "go slowly")
	xdo("key", "Return")
	testutil.Eventually(t, 30*time.Second, func() bool { return len(model.Requests()) >= 2 }, "the second request; stderr:\n%s", stderr)
	w.waitScreen("some words of the slow answer", func(s gui.Screen) bool { return shows(s, "word3") })
	xdo("key", "Escape")

	db, err := store.Open(context.Background(), filepath.Join(dir, "data", "deckhand", "deckhand.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var status string
	testutil.Eventually(t, 10*time.Second, func() bool {
		sessions, _ := db.Sessions(context.Background(), 10)
		for _, s := range sessions {
			runs, _ := db.Runs(context.Background(), s.ID)
			for _, r := range runs {
				if r.Status == store.RunStopped {
					status = r.Status
					return true
				}
			}
		}
		return false
	}, "a stopped run in the log after Escape; stderr:\n%s", stderr)
	if status != store.RunStopped {
		t.Errorf("run status %q", status)
	}
	keep("window-stopped.png")
}
