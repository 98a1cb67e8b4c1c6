package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// TestWindowLongParagraphIsOne: an answer of one 4,177-character
// paragraph (longer than a row's 2 KiB) reads as one in the real window:
// Ctrl+F finds words across the place it is cut in rows ("1 of 1", and
// the current match marked), and right-click ▸ Select all ▸ Ctrl+C
// copies the paragraph exactly. The cut fell mid-sentence and showed a
// blank line: the find said "No matches" and the copy held "\n\n".
func TestWindowLongParagraphIsOne(t *testing.T) {
	for _, p := range []string{"xdotool", "xclip"} {
		if !hasProgram(p) {
			t.Skip("no " + p)
		}
	}
	var b strings.Builder
	for i := 1; i <= 79; i++ {
		if i > 1 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "Sentence number %d of a slow story that keeps going.", i)
	}
	story := b.String()
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks(story)})
	w := startRealWindow(t, scriptedConfig(model.URL), nil)
	w.say("story to the end please")
	w.waitScreen("the story", func(s gui.Screen) bool { return shows(s, "Sentence number 79 of") })

	// Across the cut (after sentence 38) and across the one before the
	// fix (in sentence 39).
	query := "Sentence number 38 of a slow story that keeps going. Sentence number 39 of a slow story that keeps going. Sentence number 40"
	w.key("ctrl+f")
	w.typeText(query)
	s := w.waitScreen("the words across the cut found", func(s gui.Screen) bool {
		_, cur := find(s, "found", "current")
		return cur && shows(s, "1 of 1") || shows(s, "No matches")
	})
	w.keep("long-paragraph-find.png")
	if !shows(s, "1 of 1") {
		t.Errorf("Ctrl+F for words across the cut: the bar does not say 1 of 1:\n%s", s.ScreenText())
	}
	w.key("Escape")
	s = w.waitScreen("the find bar closed", func(s gui.Screen) bool { _, ok := findEntry(s, "Find in this chat"); return !ok })

	text, ok := find(s, "text", "Sentence number 3")
	if !ok {
		t.Fatalf("no line of the story in view:\n%s", s.ScreenText())
	}
	w.click(text, "3")
	w.clickText("menuitem", "Select all")
	w.key("ctrl+c")
	var got string
	testutil.Eventually(t, 5*time.Second, func() bool { got = w.clipboard(); return got != "" }, "nothing copied")
	if got = strings.TrimRight(got, "\n"); got != story {
		i := 0
		for i < len(got) && i < len(story) && got[i] == story[i] {
			i++
		}
		t.Errorf("Select all copied %d characters, want the story's %d; they differ at %d: %q", len(got), len(story), i, got[max(i-30, 0):min(i+30, len(got))])
	}
}
