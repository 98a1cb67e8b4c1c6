package toolcard

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestToolCardCopy: the card's Copy, reached with Tab and ringed, copies
// the call as a person pastes it: the tool, its arguments as JSON, and
// its result (or its error, so named) whole, though the card draws a
// 10 MB result cut; the escape sequences the server sent are not in it,
// as they are not on the card. The card had no Copy, and its text could
// not be selected: a failed call's error or a tool's output was copied
// only by exporting the chat (new-user pass 12).
func TestToolCardCopy(t *testing.T) {
	h := newHarness(t)
	huge := strings.Repeat("a line of a huge result, \x1b[31mred\x1b[0m\n", 10<<20/36)
	h.finished("c1", "t.huge", huge, nil)
	h.tr.ToolRequested("c2", "bad.crash", []byte(`{"how": "hard"}`))
	h.tr.ToolStarted("c2", "bad.crash", nil)
	h.tr.ToolFinished("c2", "bad.crash", nil, "the tool call failed: server bad disconnected", true, false, 3*time.Millisecond)
	h.frame()

	c := h.card("t.huge")
	if c.Copy == nil || !c.Copy.Visible() {
		t.Fatalf("the card shows no Copy")
	}
	cv := h.host.Win.Canvas()
	for range 10 {
		if cv.Focused() == fyne.Focusable(c.Copy) {
			break
		}
		cv.FocusNext()
	}
	if cv.Focused() != fyne.Focusable(c.Copy) {
		t.Fatalf("Tab never reached the card's Copy; it stops on %T", cv.Focused())
	}
	if !ringShown(t, c.Copy) {
		t.Error("the focused Copy shows no focus ring")
	}
	cv.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	got := h.host.FyneApp.Clipboard().Content()
	clean := strings.ReplaceAll(strings.ReplaceAll(huge, "\x1b[31m", ""), "\x1b[0m", "")
	want := "t.huge\n\nArguments:\n{\n  \"q\": \"x\"\n}\n\nResult:\n" + clean
	if got != want {
		t.Errorf("Copy copied %d bytes (%.80q…), want the call's %d (%.80q…)", len(got), got, len(want), want)
	}
	if drawn := len(c.Out.String()); drawn > 2000 {
		t.Errorf("the card draws %d bytes of the result, want its cut", drawn)
	}

	test.Tap(h.card("bad.crash").Copy)
	want = "bad.crash\n\nArguments:\n{\n  \"how\": \"hard\"\n}\n\nError:\nthe tool call failed: server bad disconnected"
	if got := h.host.FyneApp.Clipboard().Content(); got != want {
		t.Errorf("Copy of the failed call copied %q, want %q", got, want)
	}
}
