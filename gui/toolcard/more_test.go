package toolcard

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"deckhand/tools"
	"deckhand/transcript"
)

// TestToolCardShowAllAtTheArgumentsEnd: long arguments end in their own
// control while cut, and in Show less once all is shown; a short result
// in none.
func TestToolCardShowAllAtTheArgumentsEnd(t *testing.T) {
	h := newHarness(t)
	args := fmt.Sprintf(`{"text": %q}`, strings.Repeat("a long argument\n", 200))
	h.tr.ToolRequested("c1", "t.write", []byte(args))
	h.tr.ToolStarted("c1", "t.write", nil)
	h.frame()
	c := h.card("t.write")
	if !c.ArgsMore.Visible() || !strings.HasPrefix(c.ArgsMore.Text, "Show all the arguments (") || !below(c.Args, c.ArgsMore) {
		t.Fatalf("running, the cut arguments end in %q (shown %v)", c.ArgsMore.Text, c.ArgsMore.Visible())
	}
	test.Tap(c.ArgsMore)
	if c.ArgsMore.Text != "Show less" || !strings.HasSuffix(c.Args.String(), "a long argument\\n\"\n}") {
		t.Errorf("running and shown whole, the arguments end in %q, want Show less", c.ArgsMore.Text)
	}
	h.tr.ToolFinished("c1", "t.write", []byte(args), "ok", false, false, 0)
	h.frame()
	if !c.ArgsMore.Visible() || c.ArgsMore.Text != "Show less" || c.OutMore.Visible() {
		t.Errorf("finished and shown whole: the arguments end in %q (shown %v), the short result in %q (shown %v); want Show less after the arguments alone",
			c.ArgsMore.Text, c.ArgsMore.Visible(), c.OutMore.Text, c.OutMore.Visible())
	}
	test.Tap(c.ArgsMore)
	if !strings.HasPrefix(c.ArgsMore.Text, "Show all the arguments (") || c.OutMore.Visible() {
		t.Errorf("cut again: the arguments end in %q, the short result's control shown %v", c.ArgsMore.Text, c.OutMore.Visible())
	}
}

// TestToolCardCutIsBounded: what a server sends cannot make a card
// large: a result of one 10 MB line, of many lines, of escape sequences
// shows, cut, at most a head of 1500 bytes and one control, and shown
// whole at most transcript.WholeBytes, with a note that says how much is
// not drawn and Copy all, which copies all of it. Escape sequences never
// reach the card (the transcript cleans them). Drawn whole, 256 KiB of
// short lines froze the window for over a minute.
func TestToolCardCutIsBounded(t *testing.T) {
	for _, tt := range []struct {
		name, output string
	}{
		{name: "one huge line", output: strings.Repeat("x", 10<<20)},
		{name: "many lines", output: strings.Repeat("line\n", 2<<20)},
		{name: "escape sequences", output: strings.Repeat("\x1b[2J\x1b]0;pwned\x07\x1b[31mred\x1b[0m\r\n", 5000)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.finished("c1", "t.big", tt.output, nil)
			c := h.card("t.big")
			out := c.Out.String()
			if len(out) > 1500 || strings.ContainsAny(out, "\x1b\x07\r") {
				t.Errorf("the cut result shows %d bytes (%q…)", len(out), out[:min(len(out), 40)])
			}
			if !c.OutMore.Visible() || !strings.HasPrefix(c.OutMore.Text, "Show the whole result (") || c.OutCopy.Visible() {
				t.Errorf("the result ends in %q (Copy all shown %v)", c.OutMore.Text, c.OutCopy.Visible())
			}
			if hgt := c.View().MinSize().Height; hgt > 600 {
				t.Errorf("the cut card is %v high", hgt)
			}
			test.Tap(c.OutMore)
			whole := h.rows[0].row.Output
			if out := c.Out.String(); len(out) > transcript.WholeBytes || strings.Count(out, "\n") >= transcript.WholeLines || !strings.HasPrefix(whole, out) {
				t.Errorf("shown whole, the card draws %d bytes in %d lines", len(out), strings.Count(out, "\n")+1)
			}
			note := c.outEnd.note.Text
			if !c.OutCopy.Visible() || !c.outEnd.box.Visible() || !strings.Contains(note, "not drawn") || !strings.Contains(note, tools.Size(len(whole))) {
				t.Errorf("shown whole but not all drawn: Copy all shown %v, the note %q", c.OutCopy.Visible(), note)
			}
			test.Tap(c.OutCopy)
			if got := h.host.FyneApp.Clipboard().Content(); got != whole {
				t.Errorf("Copy all copied %d bytes, want the result's %d", len(got), len(whole))
			}
		})
	}
}
