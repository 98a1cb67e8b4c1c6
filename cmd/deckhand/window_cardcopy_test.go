package main

import (
	"fmt"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// A tool card's arguments and result are selected with the real mouse as
// an answer's text is: a drag in the result highlights it and puts it in
// PRIMARY and, with Ctrl+C, the clipboard; a drag from the answer above
// across the card into the answer below copies all of it in order;
// right-click ▸ Select all in the card selects the call's arguments and
// result; and the card's copy icon copies the call (tool, arguments,
// result). In the window none of the card could be selected, the drag
// across messages skipped it, and the card had no Copy (new-user pass 12).
func TestWindowToolCardSelectAndCopy(t *testing.T) {
	needPrograms(t, "xdotool", "xclip")
	const sum = "The sum of 2 and 100 is 102."
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("The first answer.")},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__getenv", Arguments: `{"name":"SUM"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("The second answer.")},
	)
	cfg := scriptedConfig(model.URL, fmt.Sprintf("[mcp.servers.p]\ncommand = %q\nargs = [\"-probe\"]\nenv = { SUM = %q }\n\n[mcp.auto_approve]\n\"p.*\" = true\n",
		stdioServerBin(t), sum))
	w := startRealWindow(t, cfg, nil)
	w.waitServerReady()
	w.say("first")
	w.waitScreen("the first answer", func(s gui.Screen) bool { return shows(s, "The first answer.") })
	w.typeText("read it")
	w.key("Return")
	s := w.waitScreen("the card and the second answer", func(s gui.Screen) bool {
		_, ok := find(s, "text", sum)
		return ok && shows(s, "The second answer.")
	})
	args := "{\n  \"name\": \"SUM\"\n}"
	primary := func(what, want string) {
		t.Helper()
		var got string
		testutil.Eventually(t, 10*time.Second, func() bool { got = w.selection("primary"); return got == want },
			"after %s PRIMARY holds %q, want %q", what, got, want)
	}

	// A drag along the result's line.
	res, _ := find(s, "text", sum)
	w.setSelection("primary", "none")
	w.drag(res.Window, res.X+2, res.Y+res.H/2, res.X+res.W-2, res.Y+res.H/2)
	primary("a drag in the result", sum)
	if got := w.copied("the drag in the result"); got != sum {
		t.Errorf("Ctrl+C after a drag in the result copied %q, want %q", got, sum)
	}
	if _, ok := find(w.screen(), "highlight", sum); !ok {
		t.Errorf("the result is not highlighted after the drag; highlighted:\n%s", highlights(w.screen()))
	}
	w.keep("toolcard-select-result.png")

	// From the first answer across the card into the second.
	first, _ := find(s, "text", "The first answer.")
	second, _ := find(s, "text", "The second answer.")
	w.drag(first.Window, first.X+2, first.Y+first.H/2, second.X+second.W-2, second.Y+second.H/2)
	want := "The first answer.\n\nread it\n\n" + args + "\n\n" + sum + "\n\nThe second answer."
	primary("a drag across the card", want)
	if got := w.copied("the drag across the card"); got != want {
		t.Errorf("Ctrl+C after a drag across the card copied %q, want %q", got, want)
	}
	w.keep("toolcard-select-across.png")

	// Right-click in the result ▸ Select all: the call's texts.
	w.click(res, "3")
	w.clickText("menuitem", "Select all")
	primary("Select all in the card", args+"\n\n"+sum)

	// The card's copy icon: the call.
	var icon gui.ScreenItem
	w.waitScreen("the card's copy icon", func(s gui.Screen) bool {
		for _, it := range s.Items {
			if it.Visible && it.Kind == "button" && it.Hint == "Copy the call: the tool, its arguments and its result" {
				icon = it
				return true
			}
		}
		return false
	})
	w.click(icon)
	call := "p.getenv\n\nArguments:\n" + args + "\n\nResult:\n" + sum
	var got string
	testutil.Eventually(t, 10*time.Second, func() bool { got = w.clipboard(); return got == call },
		"the card's copy icon copied %q, want %q", got, call)
}
