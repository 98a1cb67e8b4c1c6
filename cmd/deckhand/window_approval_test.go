package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// A call whose first argument runs to 200 lines does not hide its second:
// the approval shows every argument's key and the start of its value
// without scrolling, the long one folded ("199 more lines"), in the main
// window at 640×480 and in the quick prompt. The button that opens the
// long value shows it whole.
func TestWindowApprovalLongFirstArgument(t *testing.T) {
	for _, c := range []struct {
		name  string
		quick bool
	}{{"main", false}, {"quick", true}} {
		t.Run(c.name, func(t *testing.T) {
			var lines []string
			for i := range 200 {
				lines = append(lines, fmt.Sprintf("line %d of the note", i+1))
			}
			text, _ := json.Marshal(strings.Join(lines, "\n"))
			// The model's order: the long text first, where the file goes
			// second.
			model := testutil.NewModelServer(t,
				testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__write_file",
					Arguments: fmt.Sprintf(`{"text":%s,"path":"run-at-login.sh"}`, text)})},
				testutil.ModelResponse{Body: testutil.TextChunks("ok")},
			)
			cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[tools]\nenabled = false\n\n[mcp.servers.p]\ncommand = %q\nargs = [\"-probe\"]\n", model.URL, stdioServerBin(t))
			w := startRealWindow(t, cfg, nil, withDisplay("640x480"))
			title := "Deckhand"
			if c.quick {
				title = "Deckhand: quick prompt"
				w.key("ctrl+k")
				w.waitScreen("the quick prompt", func(s gui.Screen) bool {
					_, ok := findEntry(s, "")
					return windowOf(s, title) != nil && ok
				})
			} else {
				box, _ := findEntry(w.screen(), "Message Deckhand")
				w.click(box)
			}
			w.typeText("write it")
			w.key("Return")
			s := w.waitScreen("the approval", func(s gui.Screen) bool {
				b, ok := find(s, "button", "Allow once")
				return ok && b.Window == title
			})
			w.keep("approval-long-first-" + c.name + ".png")
			in := func(kind string, ok func(string) bool) (gui.ScreenItem, bool) {
				for _, it := range s.Items {
					if it.Window == title && it.Visible && it.Kind == kind && ok(it.Text) {
						return it, true
					}
				}
				return gui.ScreenItem{}, false
			}
			is := func(want string) func(string) bool { return func(s string) bool { return s == want } }
			starts := func(want string) func(string) bool { return func(s string) bool { return strings.HasPrefix(s, want) } }
			for _, want := range []struct {
				what, kind string
				ok         func(string) bool
			}{
				{"the first key", "label", is("text")},
				{"the first value's start", "text", starts("line 1 of the note")},
				{"how much more the first value holds", "button", is("199 more lines")},
				{"the second key", "label", is("path")},
				{"the second value", "text", is("run-at-login.sh")},
			} {
				if _, ok := in(want.kind, want.ok); !ok {
					t.Errorf("%s is not in sight without scrolling:\n%s", want.what, s.ScreenText())
				}
			}
			more, ok := in("button", is("199 more lines"))
			if !ok {
				return
			}
			w.click(more)
			w.waitScreen("the whole first value", func(s gui.Screen) bool {
				for _, it := range s.Items {
					if it.Window == title && it.Kind == "text" && strings.Contains(it.Text, "line 200 of the note") {
						return true
					}
				}
				return false
			})
		})
	}
}
