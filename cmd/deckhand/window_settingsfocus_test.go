package main

import (
	"fmt"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// TestWindowSettingsFocusAndDeadline: in the real window at 640x480, light,
// text at 125%: Ctrl+, opens the settings with the keyboard on Service,
// and the next Tab goes to Model; an approval's deadline is in sight
// without scrolling, above the buttons, under a long description.
func TestWindowSettingsFocusAndDeadline(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__mutable", Arguments: `{"path":"note.txt"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("ok")},
	)
	desc := "Write a note in the workspace. Use it to keep what the person asked for, and read it back later; " +
		"the note is kept as plain text, one line a call, and nothing else in the folder is touched."
	cfg := scriptedConfig(model.URL, "[ui]\ntheme = \"light\"\ntext_scale = 1.25\n",
		fmt.Sprintf("[mcp.servers.p]\ncommand = %q\nargs = [\"-describe\", %q]\n", stdioServerBin(t), desc))
	w := startRealWindow(t, cfg, nil, withDisplay("640x480"))
	w.waitServerReady()
	w.key("ctrl+comma")
	w.waitScreen("the settings, Service focused", func(s gui.Screen) bool {
		for _, it := range s.Items {
			if it.Focused && it.Kind == "select" {
				return true
			}
		}
		return false
	})
	w.keep("nu15-settings-open.png")
	w.key("Tab")
	w.waitScreen("Model focused", func(s gui.Screen) bool {
		for _, it := range s.Items {
			if it.Focused && (it.Kind == "entry" || it.Kind == "select") && it.Hint != "" {
				return true
			}
		}
		return false
	})
	w.keep("nu15-settings-tab.png")
	w.key("Escape")
	w.say("write the note")
	s := w.waitScreen("the approval", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
	w.keep("nu15-approval.png")
	if _, ok := find(s, "", "Denied if not answered by"); !ok {
		t.Errorf("the deadline is not in sight in the approval")
	}
}
