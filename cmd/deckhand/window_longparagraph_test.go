package main

import (
	"fmt"
	"image"
	"slices"
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
	// Until the bar holds the whole query: xdotool types a key every 20
	// ms, and under load the window takes them in later. Most of the
	// query's beginnings find sentence 38 alone ("1 of 1" too), and the
	// mark read was a beginning's, on one line ("…number 39 of a slow
	// story that keeps").
	s := w.waitScreen("the words across the cut found", func(s gui.Screen) bool {
		bar, _ := findEntry(s, "Find in this chat")
		_, cur := find(s, "found", "current")
		return bar.Text == query && (cur && shows(s, "1 of 1") || shows(s, "No matches"))
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
	m, seen := w.settledMark(int(bar.Y+bar.H), int(box.Y))
	// What the failures below name: the mark and the story's rows.
	where := func() string {
		var b strings.Builder
		fmt.Fprintf(&b, "the mark: %s", m)
		if len(seen) > 1 {
			fmt.Fprintf(&b, " (settled after %v)", seen[:len(seen)-1])
		}
		b.WriteString("; the story's rows:")
		for _, it := range s.Items {
			if it.Visible && it.Kind == "text" && strings.Contains(it.Text, "Sentence number") {
				fmt.Fprintf(&b, "\n  x %.0f to %.0f, y %.0f to %.0f: %q … %q", it.X, it.X+it.W, it.Y, it.Y+it.H, it.Text[:min(len(it.Text), 24)], it.Text[max(len(it.Text)-24, 0):])
			}
		}
		return b.String()
	}
	if len(seen) > 1 {
		t.Logf("the mark settled after %d shots: %v", len(seen), seen)
	}
	if !m.ok() {
		t.Fatalf("the mark is not on two lines in the window: %s", where())
	}
	y0, left, lh, next, right, ends := m.y0, m.left, m.lh, m.next, m.right(), m.ends
	if next-lh > 2 {
		t.Errorf("the mark's second line (the next row's first) is %d px below its first (%d px high): a gap between the rows; %s", next-lh, lh, where())
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
		t.Errorf("the mark's first line ends %d px short of the text's right edge (a line is %d px high): the line before the cut is not filled, as one paragraph's would be; %s", short, lh, where())
	}
	w.drag("Deckhand", float32(left+2), float32(y0+lh/2), float32(right+2), float32(y0+next+lh/2))
	w.key("ctrl+c")
	var dragged string
	testutil.Eventually(t, 5*time.Second, func() bool { dragged = w.clipboard(); return dragged != "" }, "nothing copied after the drag")
	if !strings.Contains(story, dragged) || !strings.Contains(dragged, "38 of a slow story that keeps going. Sentence number 39") {
		t.Errorf("a drag across the cut (from %d,%d to %d,%d) copied %q, want a piece of the story across it, as written; %s", left+2, y0+lh/2, right+2, y0+next+lh/2, dragged, where())
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

// mark is where the current match's mark is in a shot of the window: its
// right end row by row of pixels from y0 (-1: none on that row), its
// first line's height (lh) and the row its second line begins on (next).
type mark struct {
	y0, left int
	ends     []int
	lh, next int
}

func (m mark) same(o mark) bool {
	return m.y0 == o.y0 && m.left == o.left && slices.Equal(m.ends, o.ends)
}
func (m mark) ok() bool   { return m.y0 >= 0 && m.next < len(m.ends) }
func (m mark) right() int { return m.ends[m.next] }
func (m mark) String() string {
	if !m.ok() {
		return fmt.Sprintf("no mark on two lines (rows from y %d: %v)", m.y0, m.ends)
	}
	return fmt.Sprintf("first line from x %d to %d at y %d, %d px high; second line at y %d, ending at x %d", m.left, m.ends[0], m.y0, m.lh, m.y0+m.next, m.right())
}

// settledMark reads the current match's mark between the rows of pixels
// top and bottom in shots of the window until two shots some 300 ms apart
// read the same (for at most 20 s): the screen dump says a match is
// marked before the frame that draws it, and under load that frame comes
// later. seen are the marks read, one per change, the last the settled
// one.
func (w *realWindow) settledMark(top, bottom int) (m mark, seen []mark) {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for i := 0; ; i++ {
		m = readMark(w.windowShot("Deckhand", fmt.Sprintf("long-paragraph-mark-%d.png", i)), top, bottom)
		if len(seen) > 0 && m.same(seen[len(seen)-1]) {
			return m, seen
		}
		seen = append(seen, m)
		if time.Now().After(deadline) {
			w.t.Fatalf("the mark did not settle in 20 s: %v", seen)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// readMark reads the current match's mark (orange) in img between the
// rows of pixels top and bottom.
func readMark(img image.Image, top, bottom int) mark {
	m := mark{y0: -1}
	for y, gap := top, 0; y < bottom && gap < 4; y++ {
		l, r := -1, -1
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			if orange(img, x, y) {
				if l < 0 {
					l = x
				}
				r = x
			}
		}
		if l < 0 && m.y0 < 0 {
			continue
		}
		if m.y0 < 0 {
			m.y0, m.left = y, l
		}
		gap++ // a row with none: between the lines, or past the mark
		if l >= 0 {
			gap = 0
		}
		m.ends = append(m.ends, r)
	}
	ends := m.ends
	for m.lh < len(ends) && ends[m.lh] >= 0 && ends[m.lh]-ends[0] < 4 && ends[0]-ends[m.lh] < 4 {
		m.lh++
	}
	m.next = m.lh
	for m.next < len(ends) && ends[m.next] < 0 {
		m.next++
	}
	return m
}
