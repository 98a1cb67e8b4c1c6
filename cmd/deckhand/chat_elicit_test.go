package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/testutil"
)

// server-everything's elicitation tool, answered in the terminal: each
// field asked in turn (Enter takes a default), the answers confirmed, and
// the server gets them.
func TestChatElicitation(t *testing.T) {
	cfg, mock := chatConfig(t, "")
	out, say, exited := terminalChat(t, "--config", cfg, "chat", "--wait", "60s")
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "> ") }, "no prompt:\n%s", out)
	say("ask me a question")
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "Allow ev.trigger-elicitation-request?") }, "no approval:\n%s", out)
	say("y")
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "ev asks:") }, "not asked:\n%s", out)
	answered := strings.Count(out.String()[:strings.Index(out.String(), "ev asks:")], "): ") // the approval's prompt
	// Each new field's prompt is answered as it appears, until the form
	// asks to send.
	testutil.Eventually(t, wait, func() bool {
		text := out.String()
		if strings.Contains(text, "Send this to ev?") {
			return true
		}
		if n := strings.Count(text, "): "); n > answered {
			last := text[strings.LastIndex(text, "\n")+1:]
			answered = n
			if strings.Contains(last, "legal name") {
				say("Ada Lovelace")
			} else {
				say("")
			}
		}
		return false
	}, "the form never ended:\n%s", out)
	say("y")
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "Thanks for answering") }, "no answer:\n%s", out)
	say(":quit")
	testutil.Receive(t, exited, wait, "chat to quit")
	sent := strings.Join(toolResultsSent(t, mock), "\n")
	if !strings.Contains(sent, "Ada Lovelace") || !strings.Contains(sent, "It was a dark and stormy night.") {
		t.Errorf("the server did not get the answers; tool results:\n%s", sent)
	}
}

// A hostile server whose one call asks 500 "enter your password" forms at
// once, and goes on asking after the call has ended, does not take over
// the terminal: its questions come one at a time, at most 3 a call (the
// rest declined unseen), the form is marked as asking for a secret (and
// the secret is not echoed back), none is asked after the call has ended,
// and :stop refuses the rest of the server's questions for the session.
func TestChatElicitationFlood(t *testing.T) {
	logDir := t.TempDir()
	askLog := filepath.Join(logDir, "answers")
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "s__ask_secret", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("first done")},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "b", Name: "s__ask_secret", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("second done")},
	)
	cfg := writeConfig(t, scriptedConfig(model.URL, fmt.Sprintf("[mcp.servers.s]\ncommand = %q\nargs = [\"-ask\", \"500\", \"-ask-log\", %q]\nwrite = [%q]\n",
		stdioServerBin(t), askLog, logDir)))
	out, say, exited := terminalChat(t, "--config", cfg, "chat", "--wait", "60s")
	seen := func(s string) func() bool { return func() bool { return strings.Contains(out.String(), s) } }
	answers := fileText(askLog)

	testutil.Eventually(t, wait, seen("> "), "no prompt:\n%s", out)
	say("ask me")
	testutil.Eventually(t, wait, seen("Allow s.ask_secret?"), "no approval:\n%s", out)
	say("y")
	testutil.Eventually(t, wait, seen("Password"), "not asked:\n%s\nanswers: %s", out, answers)
	if !strings.Contains(out.String(), "Warning: this form asks for a password, token or key (\"Password\")") {
		t.Errorf("the password form is not marked:\n%s", out)
	}
	say("hunter2")
	testutil.Eventually(t, wait, seen("Send this to s?"), "no confirmation:\n%s", out)
	say("y")
	testutil.Eventually(t, wait, seen("first done"), "the call did not end:\n%s", out)
	// The server's questions after the call has ended are declined, and
	// none reaches the terminal; every question of the call is answered,
	// one accepted, the rest declined unseen or cancelled when it ended.
	// Deckhand answers each on its own goroutine, so the last answers of
	// the call can reach the server after those of the questions that
	// followed it (CI: "during decline=496" with "after decline=20").
	duringAnswered := func(got string) bool {
		return strings.Contains(got, "during accept hunter2=1") && strings.Contains(got, "during decline=497") && strings.Contains(got, "during cancel=2")
	}
	testutil.Eventually(t, wait, func() bool {
		got := answers.read()
		return strings.Contains(got, "after decline=20") && duringAnswered(got)
	},
		"the server's questions during the call and after it were answered: %s; want one accepted, 497 declined unseen, 2 cancelled when the call ended, 20 declined after it", answers)
	first := out.String()
	if n := strings.Count(first, "s asks:"); n < 1 || n > 3 {
		t.Errorf("%d questions shown during the call, want 1 to 3:\n%s", n, first)
	}
	if strings.Contains(first, "hunter2") {
		t.Errorf("the secret was echoed:\n%s", first)
	}

	// Stop asking: the rest of the server's questions are refused.
	say("again")
	testutil.Eventually(t, wait, func() bool { return strings.Count(out.String(), "Allow s.ask_secret?") == 2 }, "no second approval:\n%s", out)
	say("y")
	testutil.Eventually(t, wait, func() bool { return strings.Count(out.String(), "s asks:") > strings.Count(first, "s asks:") }, "not asked again:\n%s", out)
	say(":stop")
	testutil.Eventually(t, wait, seen("second done"), "the second call did not end:\n%s", out)
	testutil.Eventually(t, wait, func() bool {
		got := answers.read()
		return strings.Contains(got, "after decline=40") && strings.Contains(got, "during decline=997")
	}, "after :stop: %s; want every other question of the second call declined, and the 20 after it", answers)
	if n := strings.Count(out.String(), "s asks:") - strings.Count(first, "s asks:"); n != 1 {
		t.Errorf("%d questions shown in the second call, want 1 (then :stop):\n%s", n, out)
	}
	say(":quit")
	testutil.Receive(t, exited, wait, "chat to quit")
}

// fileText reads a file each time it is called or printed (with %s).
type fileText string

func (f fileText) String() string { b, _ := os.ReadFile(string(f)); return string(b) }

func (f fileText) read() string { return f.String() }
