package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// TestWindowLongCodeCopies: in the real window, the Copy of a 6 KiB code
// block (three rows of the transcript) puts the whole code on the
// clipboard (xclip), exactly: it put the first row's 2,011 characters
// there.
func TestWindowLongCodeCopies(t *testing.T) {
	needPrograms(t, "xdotool", "xclip")
	var b strings.Builder
	for i := 0; b.Len() < 6*1024; i++ {
		fmt.Fprintf(&b, "fmt.Println(\"line %d of a long program\", %d)\n", i, i*i)
	}
	code := strings.TrimSuffix(b.String(), "\n")
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("Here it is:\n\n```go\n" + code + "\n```\n\nDone.")})
	w := startRealWindow(t, scriptedConfig(model.URL), nil)
	w.say("a long program please")
	w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "Done.") })

	// The find bar brings the code's first line, under its header, into view.
	w.key("ctrl+f")
	w.typeText("line 0 of a long")
	s := w.waitScreen("the code's first line found", func(s gui.Screen) bool {
		_, cp := find(s, "button", "Copy")
		return shows(s, "1 of 1") && cp
	})
	w.keep("long-code-first.png")
	n := 0
	for _, it := range s.Items {
		if it.Visible && it.Kind == "button" && it.Text == "Copy" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d Copy buttons on the code in view, want the box's one", n)
	}
	cp, _ := find(s, "button", "Copy")
	w.click(cp)
	var got string
	testutil.Eventually(t, 5*time.Second, func() bool { got = w.clipboard(); return got != "" }, "nothing copied")
	if got != code {
		i := 0
		for i < len(got) && i < len(code) && got[i] == code[i] {
			i++
		}
		t.Errorf("Copy put %d characters on the clipboard, want the code's %d; they differ at %d: %q", len(got), len(code), i, got[max(i-30, 0):min(i+30, len(got))])
	}
}
