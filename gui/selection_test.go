package gui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"deckhand/gui/widgets/richtext"
	"deckhand/testutil"
	"deckhand/transcript"
)

// selTextWith is the selectable text on screen whose block holds s.
func (h *harness) selTextWith(s string) *richtext.SelText {
	for _, r := range h.visibleRows() {
		if st := r.Selectable(); st != nil {
			var all strings.Builder
			for _, run := range st.Rich.Runs() {
				all.WriteString(string(run.Text))
			}
			if strings.Contains(all.String(), s) {
				return st
			}
		}
	}
	return nil
}

// typeOnCanvas presses a shortcut on the window's canvas (no widget has
// the focus): the test canvas hides its shortcut handler inside it.
func typeOnCanvas(c fyne.Canvas, s fyne.Shortcut) {
	inner := reflect.ValueOf(c).Elem().FieldByName("WindowlessCanvas").Interface()
	inner.(fyne.Shortcutable).TypedShortcut(s)
}

// pointAt is the window position of the first character of want in st.
func pointAt(t *testing.T, st *richtext.SelText, want string) (fyne.Position, richtext.TextRun) {
	t.Helper()
	for _, r := range st.Rich.Runs() {
		if i := strings.Index(string(r.Text), want); i >= 0 {
			col := len([]rune(string(r.Text)[:i]))
			abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(st)
			return abs.Add(r.Pos).AddXY(r.Width(col)+0.5, r.Size.Height/2), r
		}
	}
	t.Fatalf("no run shows %q", want)
	return fyne.Position{}, richtext.TextRun{}
}

// Text in an answer is selected by dragging across it, and Ctrl+C copies
// it, even though the message box had the focus; a double click selects a
// word; code blocks are highlighted and selectable too.
func TestSelectAndCopyAnswerText(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks(
		"The **quick** brown fox jumps over the lazy dog.\n\n```go\nfunc main() { fmt.Println(\"hi\") }\n```\n")}}})
	h.say("hello")
	h.until("the answer", func() bool { return h.selTextWith("lazy dog") != nil && h.selTextWith("Println") != nil })
	c := h.ui.win.Canvas()
	if c.Focused() != h.ui.input {
		t.Fatalf("the message box does not have the focus")
	}

	st := h.selTextWith("lazy dog")
	from, _ := pointAt(t, st, "brown")
	to, run := pointAt(t, st, " over")
	// A press takes the focus from the message box; the drag selects.
	st.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from.Subtract(fyne.CurrentApp().Driver().AbsolutePositionForObject(st))}, Button: desktop.MouseButtonPrimary})
	// What the driver sends while the pointer moves with the button down:
	// the pointer's place, relative to the widget.
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(st)
	st.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to.Subtract(abs), AbsolutePosition: to}, Dragged: fyne.Delta{DX: to.X - from.X}})
	st.DragEnd()
	if c.Focused() != nil {
		t.Errorf("the message box kept the focus: Ctrl+C would copy from it")
	}
	typeOnCanvas(c, &fyne.ShortcutCopy{})
	if got := h.app.Clipboard().Content(); got != "brown fox jumps" {
		t.Errorf("clipboard = %q, want %q (run %q)", got, "brown fox jumps", string(run.Text))
	}
	if len(st.Marks.Objects) == 0 {
		t.Errorf("no highlight drawn")
	}

	// A double click selects a word; the selection before is cleared.
	code := h.selTextWith("Println")
	p, _ := pointAt(t, code, "Println")
	code.DoubleTapped(&fyne.PointEvent{Position: p.Subtract(fyne.CurrentApp().Driver().AbsolutePositionForObject(code)).AddXY(3, 0)})
	if got := h.ui.chat.Sel.Text(); got != "Println" {
		t.Errorf("double click selected %q", got)
	}
	if len(st.Marks.Objects) != 0 {
		t.Errorf("the first block still shows a selection")
	}
	// The code block is highlighted: its tokens have colours of their own.
	if len(code.Rich.Segments) < 3 {
		t.Errorf("the code block has %d segments: not highlighted", len(code.Rich.Segments))
	}

	// Select all in a block selects the whole message, then Ctrl+C.
	h.ui.chat.Sel.SelectMessage(st.Row())
	typeOnCanvas(c, &fyne.ShortcutCopy{})
	if got := h.app.Clipboard().Content(); got != "The quick brown fox jumps over the lazy dog.\n\nfunc main() { fmt.Println(\"hi\") }" {
		t.Errorf("select all copied %q", got)
	}
}

// blocksAnswer is a window showing an answer of a paragraph, a list and a
// code block, with the paragraph's and the code's selectable texts.
func blocksAnswer(t *testing.T) (h *harness, para, code *richtext.SelText) {
	t.Helper()
	h = newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks(
		"An opening paragraph.\n\n- first item\n- second item\n\n```sh\necho one\necho two\n```\n")}}})
	h.say("hello")
	h.until("the answer", func() bool { return h.selTextWith("opening") != nil && h.selTextWith("echo two") != nil })
	return h, h.selTextWith("opening"), h.selTextWith("echo two")
}

// A drag that starts in a paragraph and goes on into a list and a code
// block below selects the three blocks; Ctrl+C copies them in order, a
// blank line between blocks, a line break between list items.
func TestSelectAcrossBlocks(t *testing.T) {
	h, para, code := blocksAnswer(t)
	drv := fyne.CurrentApp().Driver()
	from, _ := pointAt(t, para, "An")
	to, _ := pointAt(t, code, " two") // after "echo"
	abs := drv.AbsolutePositionForObject(para)
	para.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from.Subtract(abs)}, Button: desktop.MouseButtonPrimary})
	para.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to.Subtract(abs), AbsolutePosition: to}})
	para.DragEnd()
	want := "An opening paragraph.\n\n• first item\n• second item\n\necho one\necho"
	if got := h.ui.chat.Sel.Text(); got != want {
		t.Errorf("selected %q, want %q", got, want)
	}
	for _, s := range []string{"opening", "second item", "echo"} {
		if len(h.selTextWith(s).Marks.Objects) == 0 {
			t.Errorf("the block holding %q is not highlighted", s)
		}
	}
	// A press on a header clears it, in every block.
	for _, r := range h.visibleRows() {
		if r.Row.Kind == transcript.Header {
			r.MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary})
			break
		}
	}
	if got := h.ui.chat.Sel.Text(); got != "" {
		t.Errorf("after a press elsewhere, %q is still selected", got)
	}
	if len(para.Marks.Objects) != 0 || len(code.Marks.Objects) != 0 {
		t.Errorf("after a press elsewhere, a highlight stays")
	}
	// So does a press in the message box, or in the sidebar's search box.
	for _, press := range []struct {
		name string
		down func(*desktop.MouseEvent)
	}{{"the message box", h.ui.input.MouseDown}, {"the search box", h.ui.side.Search.MouseDown}} {
		h.ui.chat.Sel.SelectMessage(para.Row())
		if h.ui.chat.Sel.Text() == "" {
			t.Fatalf("Select all selected nothing")
		}
		press.down(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary})
		if got := h.ui.chat.Sel.Text(); got != "" || len(para.Marks.Objects) != 0 {
			t.Errorf("after a press in %s, %q is still selected", press.name, got)
		}
	}
}

// longAnswer is the window after "hello" was answered with 60 short
// paragraphs ("Paragraph number 0." …), the last on screen; it returns
// the paragraphs too.
func longAnswer(t *testing.T) (*harness, []string) {
	t.Helper()
	var paras []string
	for i := range 60 {
		paras = append(paras, fmt.Sprintf("Paragraph number %d.", i))
	}
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks(strings.Join(paras, "\n\n"))}}})
	h.say("hello")
	h.until("the answer's end", func() bool { return h.selTextWith("number 59.") != nil })
	return h, paras
}

// Select all copies the whole message, also the blocks scrolled out of
// view.
func TestSelectAllOfALongMessage(t *testing.T) {
	h, paras := longAnswer(t)
	if h.selTextWith("number 0.") != nil {
		t.Fatalf("the first paragraph is on screen: the test proves nothing")
	}
	last := h.selTextWith("number 59.")
	h.ui.chat.Sel.SelectMessage(last.Row())
	if got, want := h.ui.chat.Sel.Text(), strings.Join(paras, "\n\n"); got != want {
		t.Errorf("Select all copied %d bytes, want %d:\n%.200q", len(got), len(want), got)
	}
}

// pressAtTheTop is longAnswer's window scrolled to its top, with the
// mouse pressed on its first paragraph's first word: the first block, and
// where it is in the window.
func pressAtTheTop(t *testing.T) (*harness, *richtext.SelText, fyne.Position) {
	t.Helper()
	h, _ := longAnswer(t)
	h.ui.chat.List.ScrollToTop()
	h.until("the answer's start", func() bool { return h.selTextWith("number 0.") != nil })
	first := h.selTextWith("number 0.")
	from, _ := pointAt(t, first, "Paragraph")
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(first)
	first.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: from.Subtract(abs)}, Button: desktop.MouseButtonPrimary})
	return h, first, abs
}

// A drag past the transcript's bottom edge scrolls it, and the selection
// runs on into what comes into view.
func TestSelectDragScrolls(t *testing.T) {
	h, first, abs := pressAtTheTop(t)
	if h.selTextWith("number 40.") != nil {
		t.Fatalf("paragraph 40 is on screen at the top: the test proves nothing")
	}
	below := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.ui.chat.List).AddXY(100, h.ui.chat.List.Size().Height+150)
	for range 20 {
		first.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: below.Subtract(abs), AbsolutePosition: below}})
	}
	first.DragEnd()
	got := h.ui.chat.Sel.Text()
	if !strings.HasPrefix(got, "Paragraph number 0.") || !strings.Contains(got, "Paragraph number 40.") {
		t.Errorf("a drag past the bottom edge selected %.300q, want from paragraph 0 to past 40", got)
	}
}

// A selection belongs to the rows it was made on: in another chat (a new
// one, or one opened from the sidebar) nothing is marked, and Copy copies
// nothing. (Issue 29: a drag over an answer, then another chat, showed
// the other chat's words at the same rows marked, and Copy copied them.)
func TestSelectionStaysInItsChat(t *testing.T) {
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("Once upon a time a small fox lived in a wood.")},
		{Body: testutil.TextChunks("I have no fixture for that, but here is an answer.")},
	}})
	h.say("first")
	h.until("the first answer", func() bool { return h.selTextWith("small fox") != nil })
	first := h.ui.conv
	st := h.selTextWith("small fox")
	h.ui.chat.Sel.SelectMessage(st.Row())
	if h.ui.chat.Sel.Text() == "" {
		t.Fatal("Select all selected nothing")
	}
	marked := func() []string {
		var out []string
		for _, r := range h.visibleRows() {
			if s := r.Selectable(); s != nil && len(s.Marks.Objects) > 0 {
				out = append(out, r.Row.Text)
			}
		}
		return out
	}
	h.ui.tell(&uiNewChat{})
	h.say("second")
	h.until("the second answer", func() bool { return h.selTextWith("no fixture") != nil })
	if got := h.ui.chat.Sel.Text(); got != "" {
		t.Errorf("in a new chat, %q is selected", got)
	}
	if m := marked(); len(m) > 0 {
		t.Errorf("in a new chat, rows are marked: %q", m)
	}
	// Back in the first chat: its selection was left with it.
	second := h.ui.conv
	h.ui.chat.Sel.SelectMessage(h.selTextWith("no fixture").Row())
	h.ui.tell(&uiOpenSession{id: first})
	h.until("the first chat", func() bool { return h.ui.conv == first && h.selTextWith("small fox") != nil })
	if got := h.ui.chat.Sel.Text(); got != "" || len(marked()) > 0 {
		t.Errorf("back in the first chat (from %s), %q is selected, rows marked: %q", second, got, marked())
	}
}

// A drag held still past the transcript's bottom edge goes on scrolling,
// and the selection with it: it scrolled only while the pointer moved
// (new-user pass 8). Let go, it stops.
func TestSelectDragHeldPastTheEdgeScrollsOn(t *testing.T) {
	h, first, abs := pressAtTheTop(t)
	below := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.ui.chat.List).AddXY(100, h.ui.chat.List.Size().Height+20)
	first.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: below.Subtract(abs), AbsolutePosition: below}})
	once := h.ui.chat.List.GetScrollOffset()
	// No more moves: the list scrolls on, and the selection follows.
	h.until("the list to scroll on, held", func() bool { return h.ui.chat.List.GetScrollOffset() > once+100 })
	h.until("the selection to follow", func() bool { return strings.Contains(h.ui.chat.Sel.Text(), "Paragraph number 20.") })
	first.DragEnd()
	h.queue.Settle()
	stopped := h.ui.chat.List.GetScrollOffset()
	h.queue.Settle()
	if got := h.ui.chat.List.GetScrollOffset(); got != stopped {
		t.Errorf("the list scrolled on after the drag ended: %v, then %v", stopped, got)
	}
}
