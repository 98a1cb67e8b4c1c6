package main

import (
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// What is copied is exactly what was selected, in order, with its line
// breaks: across inline code and italics in a paragraph, across a code
// block with a blank line, across a table's cells.
func TestWindowCopiesWhatIsSelected(t *testing.T) {
	answer := "Plain text with *italic words* and `inline code` in it.\n\n" +
		"```go\nfunc main() {\n\n\tprintln(\"hi\")\n}\n```\n\n" +
		"| Name | Value |\n|------|-------|\n| alpha | 1 |\n| beta | 2 |\n"
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks(answer)})
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.say("show me")
	s := w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "beta") && shows(s, "println") })
	w.keep("mixed-markdown.png")
	copyAll := func(it gui.ScreenItem) string {
		t.Helper()
		w.drag(it.Window, it.X+1, it.Y+2, it.X+it.W-1, it.Y+it.H-2)
		w.key("ctrl+c")
		var got string
		testutil.Eventually(t, 5*time.Second, func() bool { got = w.clipboard(); return got != "" && got != w.lastClip }, "nothing copied from %q", it.Text)
		w.lastClip = got
		return got
	}
	for _, c := range []struct {
		find, want string
	}{
		{"Plain text", "Plain text with italic words and inline code in it."},
		{"func main", "func main() {\n\n\tprintln(\"hi\")\n}"},
		{"alpha", "Name\tValue\nalpha\t1\nbeta\t2"},
	} {
		it, ok := find(s, "text", c.find)
		if !ok {
			t.Fatalf("%q is not on screen:\n%s", c.find, s.ScreenText())
		}
		if got := strings.TrimRight(copyAll(it), "\n"); got != c.want {
			t.Errorf("copied %q, want %q", got, c.want)
		}
	}
}
