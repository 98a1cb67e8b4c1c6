package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/approval"
	"deckhand/config"
	"deckhand/testutil"
)

// quickLines is what the quick prompt shows of its tool calls: one line
// each, "name | detail".
func quickLines(q *quickPrompt) []string {
	var out []string
	if !q.calls.Visible() {
		return nil
	}
	for _, v := range q.callViews {
		if v.obj.Visible() {
			out = append(out, v.name.Text+" | "+v.detail.Text)
		}
	}
	return out
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
	test.Type(q.entry, "write it down")
	q.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})

	h.until("echo waiting for approval", func() bool {
		l := quickLines(q)
		return len(l) == 1 && h.ui.approvals.shown() != nil && strings.HasPrefix(l[0], "echo | t · waiting for approval · ")
	})
	if l := quickLines(q)[0]; !strings.Contains(l, `text: "a note for later, long enough to be cut…"`) {
		t.Errorf("echo's line: %q; want its argument on one line, cut short", l)
	}
	test.Tap(h.ui.approvals.buttons[approval.AllowOnce])

	h.until("slow running with its progress", func() bool {
		l := quickLines(q)
		return len(l) == 2 && strings.HasPrefix(l[0], "echo | t · done in ") &&
			strings.HasPrefix(l[1], "slow | t · running") && q.callViews[1].spinner.Visible()
	})
	h.until("the answer, below three finished calls", func() bool {
		return q.answer.String() == "Noted, after a nap and a failure." && q.status.Text == "Done." && len(quickLines(q)) == 3
	})
	l := quickLines(q)
	if !strings.HasPrefix(l[1], "slow | t · done in ") || !strings.HasSuffix(l[1], `ms: 1500, steps: 3`) {
		t.Errorf("slow's line: %q", l[1])
	}
	if !strings.HasPrefix(l[2], "fail | t · failed after ") || !strings.Contains(l[2], "the tool failed on purpose") {
		t.Errorf("fail's line: %q", l[2])
	}
	for i, v := range q.callViews {
		if v.spinner.Visible() || v.spinning {
			t.Errorf("line %d still spins after the run", i)
		}
	}
	// Question, calls, answer: in that order.
	box := q.calls
	var order []fyne.CanvasObject
	walk(q.win.Canvas().Content(), func(o fyne.CanvasObject) {
		if o == q.question || o == box || o == q.answer {
			order = append(order, o)
		}
	})
	if len(order) != 3 || order[0] != q.question || order[1] != box || order[2] != q.answer {
		t.Errorf("the quick prompt does not show question, calls, answer in that order")
	}
	if h.card("t.echo") != nil {
		t.Errorf("the quick prompt's calls went to the main window's conversation")
	}

	// The next question starts with no lines; its call is denied.
	test.Type(q.entry, "a second one")
	q.entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if l := quickLines(q); len(l) != 0 {
		t.Errorf("the last question's calls stayed: %q", l)
	}
	h.until("add waiting for approval", func() bool {
		l := quickLines(q)
		return len(l) == 1 && h.ui.approvals.shown() != nil && l[0] == "add | t · waiting for approval · a: 1, b: 2"
	})
	test.Tap(h.ui.approvals.buttons[approval.Deny])
	h.until("add denied, and the answer", func() bool {
		l := quickLines(q)
		return q.answer.String() == "It was not allowed." && len(l) == 1 && l[0] == "add | t · denied · a: 1, b: 2"
	})
}

func TestArgSummary(t *testing.T) {
	t.Parallel()
	home := homeDir()
	if home == "" {
		t.Skip("no home folder")
	}
	for _, c := range []struct{ args, want string }{
		{``, ``},
		{`{}`, ``},
		{"{\n  \"path\": \"/tmp/notes.txt\",\n  \"text\": \"two\\nlines\"\n}", `path: "/tmp/notes.txt", text: "two lines"`},
		{`{"z": 1, "a": true, "m": null}`, `z: 1, a: true, m: null`}, // the model's order
		{`{"opts": {"deep": [1, 2, 3]}, "list": ["x", "y"]}`, `opts: {"deep":[1,2,3]}, list: ["x","y"]`},
		{`{"k": "` + strings.Repeat("a", 60) + `"}`, `k: "` + strings.Repeat("a", 39) + `…"`},
		{`{"a": "` + strings.Repeat("b", 35) + `", "c": "` + strings.Repeat("d", 35) + `", "e": "more"}`,
			`a: "` + strings.Repeat("b", 35) + `", c: "` + strings.Repeat("d", 35) + `", e: "m…`},
		{`{"esc": "\u001b[31mred\u001b[0m"}`, `esc: "red"`},
		{`{"path": "/srv/a/rather/long/folder/name/that/goes/on/and/on/notes.txt"}`, `path: "…lder/name/that/goes/on/and/on/notes.txt"`},
		{`{"path": "` + home + `/Deckhand/train.txt"}`, `path: "~/Deckhand/train.txt"`},
		{`[1, 2]`, `[1, 2]`}, // not an object: as it is
		{`not json at all`, `not json at all`},
	} {
		if got := argSummary(c.args, 90); got != c.want {
			t.Errorf("argSummary(%q) = %q; want %q", c.args, got, c.want)
		}
	}
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
