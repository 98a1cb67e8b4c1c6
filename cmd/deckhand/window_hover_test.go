package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// The answer that follows a tool call approved with the keyboard tells,
// with the real pointer resting on its header, which model wrote it and
// its tokens, the first time, after the wheel brought the header back into
// view, and in the chat opened again from the sidebar. At 640x480 it
// showed nothing: the screen dump found the info shown, but it was never
// drawn.
func TestWindowAnswerInfoAfterToolCall(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	text, _ := json.Marshal("a note")
	answer := "The server wrote it: **done**. I called `write_file` to save it.\n\n" +
		"- I read the text\n- I called the tool\n- It said ok\n\n" +
		"```python\ndef add(a, b):\n    return a + b\n\nprint(add(17, 25))\n```\n\nThat is all."
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__write_file",
			Arguments: fmt.Sprintf(`{"text":%s,"path":"hover.txt"}`, text)})},
		testutil.ModelResponse{Body: testutil.TextChunks(answer)},
	)
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[tools]\nenabled = false\n\n[mcp.servers.p]\ncommand = %q\nargs = [\"-probe\"]\n", model.URL, stdioServerBin(t))
	w := startRealWindow(t, cfg, nil, withDisplay("640x480"))
	w.waitScreen("the server ready", func(s gui.Screen) bool { return shows(s, "1 server ready") })
	w.say("write it")
	w.waitScreen("the approval", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
	w.key("Tab")
	w.key("Tab")
	w.key("space")
	w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "That is all.") && !shows(s, "Stop") })

	header := func(s gui.Screen) (gui.ScreenItem, bool) {
		var who gui.ScreenItem
		for _, it := range s.Items {
			if it.Window == "Deckhand" && it.Visible && it.Kind == "label" && it.Text == "Deckhand" {
				who = it
			}
		}
		return who, who.W > 0
	}
	hover := func(what string) {
		t.Helper()
		// The wheel over the transcript, up to the answer's header.
		s := w.screen()
		msg, _ := find(s, "text", "That is all.")
		w.xdo("mousemove", "--window", w.win, fmt.Sprint(int(msg.CX)), fmt.Sprint(int(msg.CY)))
		who, ok := header(s)
		for i := 0; !ok; i++ {
			if i == 40 {
				t.Fatalf("%s: the answer's header not in sight after 40 notches of the wheel", what)
			}
			w.xdo("click", "4")
			time.Sleep(100 * time.Millisecond) // a pause between wheel notches, as a hand makes
			who, ok = header(w.screen())
		}
		x, y := int(who.X+who.W/2), int(who.Y+who.H/2)
		w.xdo("mousemove", "--sync", "--window", w.win, fmt.Sprint(x), fmt.Sprint(y))
		time.Sleep(200 * time.Millisecond) // a person's hand comes to rest
		w.xdo("mousemove", "--sync", "--window", w.win, fmt.Sprint(x+3), fmt.Sprint(y))
		w.waitScreen(what+": the answer's model and tokens on hover, in sight", func(s gui.Screen) bool {
			for _, it := range s.Items {
				if it.Visible && strings.HasPrefix(it.Text, "scripted · ") && strings.Contains(it.Text, "out tokens") {
					return true
				}
			}
			return false
		})
	}
	hover("the answer")
	w.keep("hover-after-tool.png")

	// The chat opened again: a new chat, then back to this one.
	w.key("ctrl+n")
	w.waitScreen("a new chat", func(s gui.Screen) bool { return !shows(s, "That is all.") })
	w.clickText("label", "write it")
	w.waitScreen("the chat again", func(s gui.Screen) bool { return shows(s, "That is all.") })
	hover("the chat reopened")
	w.keep("hover-after-tool-reopened.png")

	// The pointer goes to another window, which takes the focus: the
	// info goes (Fyne sends no MouseOut when the pointer leaves a window;
	// it stayed beside the tray's menu).
	other := w.otherWindow()
	w.xdo("mousemove", "--sync", "--window", other, "20", "20")
	w.xdo("windowactivate", "--sync", other)
	w.waitScreen("no info once the window lost the focus", func(s gui.Screen) bool {
		for _, it := range s.Items {
			if it.Visible && strings.HasPrefix(it.Text, "scripted · ") {
				return false
			}
		}
		return true
	})
	w.keep("hover-away.png")
}
