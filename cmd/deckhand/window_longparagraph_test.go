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
// copies the paragraph exactly, and a drag across the cut the words as
// they are written. The cut fell mid-sentence and showed a
// blank line: the find said "No matches" and the copy held "\n\n".
// And it wraps as one: the line before the cut is full, as every line is
// (each row was wrapped alone, and that line ended half way).
func TestWindowLongParagraphIsOne(t *testing.T) {
	needPrograms(t, "xdotool", "xclip")
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
		t.Fatalf("Ctrl+F for words across the cut: the bar does not say 1 of 1:\n%s", s.ScreenText())
	}

	// A drag from the start of the mark's first line (the row's last,
	// sentence 38) to the end of its second (the next row's first) copies
	// the words as written, with no break between the rows.
	bar, _ := findEntry(s, "Find in this chat")
	box, _ := findEntry(s, "Message Deckhand")
	img := w.windowShot("Deckhand", "long-paragraph-mark.png")
	y0, left, right := -1, 0, 0
	var ends []int // the mark's right end, row by row from y0 (-1: none)
	for y, gap := int(bar.Y+bar.H), 0; y < int(box.Y) && gap < 4; y++ {
		l, r := -1, -1
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			if orange(img, x, y) {
				if l < 0 {
					l = x
				}
				r = x
			}
		}
		if l < 0 && y0 < 0 {
			continue
		}
		if y0 < 0 {
			y0, left = y, l
		}
		gap++ // a row with none: between the lines, or past the mark
		if l >= 0 {
			gap = 0
		}
		ends = append(ends, r)
	}
	lh := 0 // the first line's height: until its right end moves
	for lh < len(ends) && ends[lh] >= 0 && ends[lh]-ends[0] < 4 && ends[0]-ends[lh] < 4 {
		lh++
	}
	next := lh // the second line's first row
	for next < len(ends) && ends[next] < 0 {
		next++
	}
	if y0 < 0 || next == len(ends) {
		t.Fatalf("the mark is not on two lines in the window (rows from %d: %v)", y0, ends)
	}
	right = ends[next]
	if next-lh > 2 {
		t.Errorf("the mark's second line (the next row's first) is %d px below its first (%d px high): a gap between the rows", next-lh, lh)
	}
	// The paragraph wraps as one text: the mark's first line, which
	// holds the end of the row before the cut, goes on to the end of the
	// line, short of the text's right edge by less than the next word
	// ("Sentence", about 4 lines' height wide). Each row was wrapped on
	// its own: that line ended half way, after sentence 38, and sentence
	// 39 began a line.
	para, ok := find(s, "text", "Sentence number 38 of")
	if !ok {
		t.Fatalf("the story's row with sentence 38 is not in view:\n%s", s.ScreenText())
	}
	if short := int(para.X+para.W) - ends[0]; short > 5*lh {
		t.Errorf("the mark's first line ends %d px short of the text's right edge (a line is %d px high): the line before the cut is not filled, as one paragraph's would be", short, lh)
	}
	w.drag("Deckhand", float32(left+2), float32(y0+lh/2), float32(right+2), float32(y0+next+lh/2))
	w.key("ctrl+c")
	var dragged string
	testutil.Eventually(t, 5*time.Second, func() bool { dragged = w.clipboard(); return dragged != "" }, "nothing copied after the drag")
	if !strings.Contains(story, dragged) || !strings.Contains(dragged, "38 of a slow story that keeps going. Sentence number 39") {
		t.Errorf("a drag across the cut copied %q, want a piece of the story across it, as written", dragged)
	}
	w.keep("long-paragraph-drag.png")
	s = w.screen()

	text, ok := find(s, "text", "Sentence number 3")
	if !ok {
		t.Fatalf("no line of the story in view:\n%s", s.ScreenText())
	}
	w.click(text, "3")
	w.clickText("menuitem", "Select all")
	w.key("ctrl+c")
	var got string
	testutil.Eventually(t, 5*time.Second, func() bool { got = w.clipboard(); return got != dragged }, "nothing copied")
	if got = strings.TrimRight(got, "\n"); got != story {
		i := 0
		for i < len(got) && i < len(story) && got[i] == story[i] {
			i++
		}
		t.Errorf("Select all copied %d characters, want the story's %d; they differ at %d: %q", len(got), len(story), i, got[max(i-30, 0):min(i+30, len(got))])
	}
}
