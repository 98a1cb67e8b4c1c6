package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/approval"
	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/tray"
	"deckhand/testutil"
)

// spinning reports whether line i of the quick prompt's calls spins.
func spinning(q *tray.Prompt, i int) bool {
	shown, _ := q.Spinning(i)
	return shown
}

// TestQuickPromptShowsToolCalls: the quick prompt shows each tool call of
// its question as a line above the answer (name, server, state, a short
// summary of the arguments) while it waits for approval, runs, and once it
// has ended, done, failed or denied; a new question starts with none.
func TestQuickPromptShowsToolCalls(t *testing.T) {
	// The model calls echo (asked), slow (allowed by rule, with progress),
	// fail (allowed by rule), then answers; for the second question it calls
	// add, which is denied, then answers.
	step := func(req map[string]any) testutil.ModelResponse {
		msgs, _ := req["messages"].([]any)
		tools, second := 0, false
		for _, m := range msgs {
			m, _ := m.(map[string]any)
			switch {
			case m["role"] == "tool":
				tools++
			case m["role"] == "user" && strings.Contains(m["content"].(string), "second"):
				second, tools = true, 0
			}
		}
		if second {
			if tools == 0 {
				return testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "d", Name: "t__add", Arguments: `{"a": 1, "b": 2}`})}
			}
			return testutil.ModelResponse{Body: testutil.TextChunks("It was not allowed.")}
		}
		switch tools {
		case 0:
			return testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "t__echo",
				Arguments: `{"text": "a note\nfor later, long enough to be cut short somewhere along the way"}`})}
		case 1:
			return testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "b", Name: "t__slow", Arguments: `{"ms": 1500, "steps": 3}`})}
		case 2:
			return testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c", Name: "t__fail", Arguments: `{}`})}
		}
		return testutil.ModelResponse{Body: testutil.TextChunks("Noted, after a nap and a failure.")}
	}
	h := newHarness(t, harnessOptions{fallback: step, cfg: func(c *config.Config) {
		c.MCP.AutoApprove = map[string]bool{"t.slow": true, "t.fail": true}
	}})
	h.ui.showQuick()
	q := h.ui.quick
	h.quickSay("write it down")

	h.until("echo waiting for approval", func() bool {
		l := q.Lines()
		return len(l) == 1 && h.ui.dialogs.Approvals.Shown() != nil && strings.HasPrefix(l[0], "echo | t · waiting for approval · ")
	})
	// The small window's approval asks which tool in its title (the
	// heading has no room there): it said "Allow this tool call?".
	if got := h.ui.dialogs.Approvals.Title; got != "Allow t.echo?" {
		t.Errorf("the quick prompt's approval is titled %q, want %q", got, "Allow t.echo?")
	}
	if l := q.Lines()[0]; !strings.Contains(l, `text: "a note for later, long enough to be cut…"`) {
		t.Errorf("echo's line: %q; want its argument on one line, cut short", l)
	}
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])

	h.until("slow running with its progress", func() bool {
		l := q.Lines()
		return len(l) == 2 && strings.HasPrefix(l[0], "echo | t · done in ") &&
			strings.HasPrefix(l[1], "slow | t · running") && spinning(q, 1)
	})
	h.until("the answer, below three finished calls", func() bool {
		return q.Answer.String() == "Noted, after a nap and a failure." && q.Status.Text == "Done." && len(q.Lines()) == 3
	})
	l := q.Lines()
	if !strings.HasPrefix(l[1], "slow | t · done in ") || !strings.HasSuffix(l[1], `ms: 1500, steps: 3`) {
		t.Errorf("slow's line: %q", l[1])
	}
	if !strings.HasPrefix(l[2], "fail | t · failed after ") || !strings.Contains(l[2], "the tool failed on purpose") {
		t.Errorf("fail's line: %q", l[2])
	}
	for i := range l {
		if shown, turning := q.Spinning(i); shown || turning {
			t.Errorf("line %d still spins after the run", i)
		}
	}
	// Question, calls, answer: in that order.
	box := q.Calls
	var order []fyne.CanvasObject
	guitest.Walk(q.Window().Canvas().Content(), func(o fyne.CanvasObject) {
		if o == q.Question || o == box || o == q.Answer {
			order = append(order, o)
		}
	})
	if len(order) != 3 || order[0] != q.Question || order[1] != box || order[2] != q.Answer {
		t.Errorf("the quick prompt does not show question, calls, answer in that order")
	}
	if h.card("t.echo") != nil {
		t.Errorf("the quick prompt's calls went to the main window's conversation")
	}

	// The next question starts with no lines; its call is denied.
	h.quickSay("a second one")
	if l := q.Lines(); len(l) != 0 {
		t.Errorf("the last question's calls stayed: %q", l)
	}
	h.until("add waiting for approval", func() bool {
		l := q.Lines()
		return len(l) == 1 && h.ui.dialogs.Approvals.Shown() != nil && l[0] == "add | t · waiting for approval · a: 1, b: 2"
	})
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.Deny])
	h.until("add denied, and the answer", func() bool {
		l := q.Lines()
		return q.Answer.String() == "It was not allowed." && len(l) == 1 && l[0] == "add | t · not run: denied · a: 1, b: 2"
	})
}

// TestTrayHostComesAndGoes: with a tray host, closing the main window keeps
// Deckhand in the tray; when the host leaves (the panel quits or crashes),
// a window closed to the tray comes back, there being no icon left to
// bring it back from.
func TestTrayHostComesAndGoes(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.ui.SetTrayHost(true)
	h.ui.closeMain()
	if !h.ui.hidden {
		t.Fatalf("closing the window with a tray host did not keep Deckhand in the tray")
	}
	h.ui.SetTrayHost(false)
	if h.ui.hidden {
		t.Errorf("the window stayed hidden after the tray host left")
	}
	if h.ui.d.Tray {
		t.Errorf("without a tray host, closing the window would still hide it")
	}
	h.ui.SetTrayHost(true)
	if !h.ui.d.Tray {
		t.Errorf("a tray host that came back is not used")
	}
}

// The quick prompt's chat is listed in the sidebar as soon as its question
// is asked, while its approval waits: it was listed only once the run had
// ended and the log had it, and could not be found or deleted meanwhile.
func TestQuickPromptChatListedAtOnce(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true,
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}, "Echoed.")})
	h.ui.showQuick()
	q := h.ui.quick
	h.quickSay("a quick question")
	h.until("the approval", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	h.until("the quick chat in the sidebar", func() bool {
		for _, it := range h.ui.side.Items {
			if it.Title == "a quick question" {
				return true
			}
		}
		return false
	})
	test.Tap(h.ui.dialogs.Approvals.Buttons[approval.AllowOnce])
	h.until("the answer", func() bool { return q.Answer.String() == "Echoed." })
	n := 0
	for _, it := range h.ui.side.Items {
		if it.Title == "a quick question" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the quick chat is listed %d times once logged, want once", n)
	}
}
