package main

import (
	"fmt"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// A selection runs across the blocks of an answer, as a person drags it:
// from a paragraph down through a bulleted list into a code block, the
// clipboard holds every block in order with its line breaks; right-click ▸
// Select all copies the whole message; a click elsewhere clears the
// highlight.
func TestWindowSelectsAcrossBlocks(t *testing.T) {
	needPrograms(t, "xdotool", "xclip")
	answer := "Here is a short paragraph that introduces the steps.\n\n" +
		"- first item\n- second item\n- third item\n\n" +
		"```sh\necho one\necho two\n```\n\nAnd a closing line after the code."
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks(answer)})
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	box, _ := findEntry(w.screen(), "Message Deckhand")
	w.click(box)
	w.typeText("show me")
	w.key("Return")
	s := w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "closing line") && shows(s, "echo two") })
	para, _ := find(s, "text", "Here is a short")
	list, _ := find(s, "text", "second item")
	code, _ := find(s, "text", "echo one")

	// From the paragraph's start to the end of the code's first line.
	w.drag(para.Window, para.X+1, para.Y+para.H/2, code.X+code.W-2, code.Y+code.H/4)
	want := "Here is a short paragraph that introduces the steps.\n\n" +
		"• first item\n• second item\n• third item\n\n" +
		"echo one"
	if got := w.copied("the drag"); got != want {
		t.Errorf("a drag from the paragraph into the code copied %q, want %q", got, want)
	}
	lit := w.screen()
	for _, block := range []string{"Here is a short", "second item", "echo one"} {
		if _, ok := find(lit, "highlight", strings.Fields(block)[0]); !ok {
			t.Errorf("the block %q is not highlighted after the drag; highlighted:\n%s", block, highlights(lit))
		}
	}
	w.keep("select-across-blocks.png")

	// A click elsewhere (the answer's header) clears the highlight.
	who, _ := find(lit, "label", "Deckhand")
	w.click(who)
	w.waitScreen("no highlight after a click elsewhere", func(s gui.Screen) bool { return highlights(s) == "" })

	// Right-click in the list ▸ Select all: the whole message.
	w.click(list, "3")
	w.clickText("menuitem", "Select all")
	want = "Here is a short paragraph that introduces the steps.\n\n" +
		"• first item\n• second item\n• third item\n\n" +
		"echo one\necho two\n\n" +
		"And a closing line after the code."
	if got := w.copied("Select all"); got != want {
		t.Errorf("Select all copied %q, want %q", got, want)
	}
	w.keep("select-all-message.png")

	// A click in the message box clears it too.
	w.click(box)
	w.waitScreen("no highlight after a click in the message box", func(s gui.Screen) bool { return highlights(s) == "" })
}

// highlights are the highlighted texts on screen, a line each.
func highlights(s gui.Screen) string {
	var b strings.Builder
	for _, it := range s.Items {
		if it.Kind == "highlight" && it.Visible {
			fmt.Fprintf(&b, "%q\n", it.Text)
		}
	}
	return b.String()
}
