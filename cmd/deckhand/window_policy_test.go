package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// The real window, driven as a person would: a message typed into it; the
// model calls a tool with a path outside the roots (refused, and the card
// says so), then proposes a shell command, which is asked with the command
// shown and only "Allow once" offered, answered from the keyboard; then
// Ctrl+N, pressed in the message box, starts a new chat that is typed into
// at once. Screenshots are kept (DECKHAND_SHOTS).
func TestWindowShowsPolicy(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "s__read_file", Arguments: `{"path":"/etc/shadow"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("That was refused. Let me list the workspace instead.\nCMD: ls -la")},
		testutil.ModelResponse{Body: testutil.TextChunks("The workspace is empty.")},
		testutil.ModelResponse{Body: testutil.TextChunks("A fresh start.")},
	)
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[policy]\nallow_exec = true\n\n[mcp.servers.s]\ncommand = %q\nargs = [\"-probe\"]\n\n[mcp.auto_approve]\n\"s.*\" = true\n", model.URL, stdioServerBin(t))
	w := startRealWindow(t, cfg, nil)
	xdo, stderr := w.xdo, w.stderr
	w.waitServersReady(2) // s and the local tools (allow_exec); the model's first answer calls s's tool
	xdo("type", "--delay", "20", "show me the secrets")
	xdo("key", "Return")
	testutil.Eventually(t, 30*time.Second, func() bool { return len(model.Requests()) >= 2 }, "two model requests; stderr:\n%s", stderr)
	if second := string(model.Requests()[1]); !strings.Contains(second, "Refused by Deckhand's policy") {
		t.Errorf("the model was not told of the refusal: %.1500s", second)
	}
	w.waitScreen("the command's approval dialog", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
	w.keep("window-policy-command.png")
	// Tab to Deny, then to Allow once, and press it.
	xdo("key", "Tab")
	xdo("key", "Tab")
	xdo("key", "space")
	testutil.Eventually(t, 20*time.Second, func() bool { return len(model.Requests()) >= 3 }, "the command's output sent to the model; stderr:\n%s", stderr)
	if third := string(model.Requests()[2]); !strings.Contains(third, "$ ls -la") || !strings.Contains(third, "exit status 0") {
		t.Errorf("the command's output: %s", third[strings.Index(third, "[local.exec]"):])
	}
	w.waitScreen("the answer after the command", func(s gui.Screen) bool { return shows(s, "The workspace is empty.") })
	w.keep("window-policy-after.png")

	// Ctrl+N with the focus in the message box opens a new chat, whose
	// box has the focus: typing goes on at once.
	xdo("key", "ctrl+n")
	w.waitScreen("a new chat, its message box focused", func(s gui.Screen) bool {
		f, _ := focused(s)
		return !shows(s, "The workspace is empty.") && strings.Contains(f.Hint, "Message Deckhand")
	})
	xdo("type", "--delay", "20", "a new one")
	xdo("key", "Return")
	testutil.Eventually(t, 20*time.Second, func() bool { return len(model.Requests()) >= 4 }, "the new chat's request; stderr:\n%s", stderr)
	if fourth := string(model.Requests()[3]); strings.Contains(fourth, "show me the secrets") || !strings.Contains(fourth, "a new one") {
		t.Errorf("Ctrl+N did not start a new chat: %.600s", fourth)
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Errorf("stderr:\n%s", stderr)
	}
}
