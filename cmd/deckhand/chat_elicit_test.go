package main

import (
	"io"
	"strings"
	"testing"

	"deckhand/testutil"
)

// server-everything's elicitation tool, answered in the terminal: each
// field asked in turn (Enter takes a default), the answers confirmed, and
// the server gets them.
func TestChatElicitation(t *testing.T) {
	cfg, mock := chatConfig(t, "")
	stdinR, stdinW := io.Pipe()
	var out testutil.LockedBuffer
	e := &env{
		stdin: stdinR, stdout: &out, stderr: &out,
		getenv: func(string) (string, bool) { return "", false },
		tty:    func(f any) bool { return f == stdinR },
	}
	exited := make(chan int, 1)
	go func() { exited <- run(t.Context(), []string{"--config", cfg, "chat"}, e) }()
	t.Cleanup(func() { stdinW.Close() })
	say := func(s string) { io.WriteString(stdinW, s+"\n") }
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "> ") }, "no prompt:\n%s", &out)
	say("ask me a question")
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "Allow ev.trigger-elicitation-request?") }, "no approval:\n%s", &out)
	say("y")
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "ev asks:") }, "not asked:\n%s", &out)
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
	}, "the form never ended:\n%s", &out)
	say("y")
	testutil.Eventually(t, wait, func() bool { return strings.Contains(out.String(), "Thanks for answering") }, "no answer:\n%s", &out)
	say(":quit")
	testutil.Receive(t, exited, wait, "chat to quit")
	sent := strings.Join(toolResultsSent(t, mock), "\n")
	if !strings.Contains(sent, "Ada Lovelace") || !strings.Contains(sent, "It was a dark and stormy night.") {
		t.Errorf("the server did not get the answers; tool results:\n%s", sent)
	}
}
