package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"deckhand/gui/guitest"
	"deckhand/gui/widgets/richtext"
	"deckhand/testutil"
)

// TestFindMarksCode: a match in a code block or in inline code is marked
// as the current match and scrolled into sight, as a match in plain text
// is. The bar counted them ("1 of 1") but marked nothing and left the view
// where it was: a code block's words are drawn a token at a time, and a
// match across tokens ("return a") was looked for in each alone.
func TestFindMarksCode(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "Line %d of the preamble, to push the code below the fold.\n\n", i)
	}
	b.WriteString("- Call `get-sum` with a and b.\n\n```python\ndef add(a, b):\n    return a + b\n```\n\nDone.")
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks(b.String())}}})
	h.ui.win.Resize(fyne.NewSize(1000, 700))
	h.say("please add")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Done.") && !h.ui.running })
	h.ui.chat.List.ScrollToTop()
	h.drain()
	for _, q := range []string{"return a", "get-sum"} {
		t.Run(q, func(t *testing.T) {
			h.ui.chat.Find.Open(q)
			h.drain()
			h.ui.win.Content().Refresh()
			h.drain()
			if got := h.ui.chat.Find.Count.Text; got != "1 of 1" {
				t.Fatalf("find %q says %q, want 1 of 1", q, got)
			}
			var cur *richtext.SelText
			guitest.Walk(h.ui.win.Content(), func(o fyne.CanvasObject) {
				if s, ok := o.(*richtext.SelText); ok && s.FoundCur {
					cur = s
				}
			})
			if cur == nil {
				t.Fatalf("find %q: no block on screen marks the current match", q)
			}
			var mark fyne.CanvasObject
			for _, m := range append(cur.Marks.Objects, cur.Over.Objects...) {
				mark = m
			}
			if mark == nil || !inView(h.ui.win, mark) {
				t.Errorf("find %q: the current match's mark is out of sight", q)
			}
			h.ui.chat.Find.Close()
		})
	}
}
