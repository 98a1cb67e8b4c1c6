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
	"deckhand/sandbox"
	"deckhand/testutil"
)

// A fresh install with a model and no servers: from the real window, the
// model lists the workspace, reads a file and shows git log with the
// built-in server (local), each call asked in the approval dialog and
// allowed from the keyboard.
func TestWindowFreshInstallTools(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	if err := sandbox.Available(); err != nil {
		t.Skipf("no Landlock here: %v", err)
	}
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c1", Name: "local__files_list", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c2", Name: "local__files_read", Arguments: `{"path": "notes.md"}`})},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c3", Name: "local__git_log", Arguments: `{"oneline": true}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("Listed, read and logged.")},
	)
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n", model.URL)
	w := startRealWindow(t, cfg, func(env []string, home string) {
		// The workspace a person keeps: ~/Deckhand, a git repository.
		ws := filepath.Join(home, "Deckhand")
		os.MkdirAll(ws, 0o700)
		os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Ada\n\temail = ada@example.com\n"), 0o644)
		os.WriteFile(filepath.Join(ws, "notes.md"), []byte("# Notes\nbuy a lighthouse\n"), 0o644)
		for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "the very first note"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir, cmd.Env = ws, env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
	})
	xdo, stderr := w.xdo, w.stderr
	w.waitServerReady() // the model's first answer calls its tool
	xdo("type", "--delay", "20", "look at my workspace")
	xdo("key", "Return")
	for i := 1; i <= 3; i++ {
		testutil.Eventually(t, 30*time.Second, func() bool { return len(model.Requests()) >= i }, "request %d; stderr:\n%s", i, stderr)
		w.waitScreen(fmt.Sprintf("approval dialog %d", i), func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
		if i == 1 {
			w.keep("window-local-approval.png")
		}
		// Deny is first and the default: Tab to Allow once, and press it.
		xdo("key", "Tab")
		xdo("key", "Tab")
		xdo("key", "space")
	}
	testutil.Eventually(t, 30*time.Second, func() bool { return len(model.Requests()) >= 4 }, "the last request; stderr:\n%s", stderr)
	last := string(model.Requests()[3])
	for _, want := range []string{"notes.md", "buy a lighthouse", "the very first note"} {
		if !strings.Contains(last, want) {
			t.Errorf("the model never saw %q", want)
		}
	}
	w.waitScreen("the last answer", func(s gui.Screen) bool { return shows(s, "Listed, read and logged.") })
	w.keep("window-local-done.png")
}
