package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"deckhand/gui/guitest"
	"deckhand/gui/widgets/richtext"
	"deckhand/testutil"
)

// The wheel over a row moves the transcript three driver steps a notch,
// and a table that fits its row has no scroller of its own to take the
// wheel; a table wider than its row keeps one.
func TestWheelOverTables(t *testing.T) {
	var long strings.Builder
	for i := range 60 {
		long.WriteString("Line of text number " + string(rune('A'+i%26)) + ".\n\n")
	}
	table := "| Name | Size |\n|---|---|\n| a.txt | 3 KiB |\n| b.txt | 4 KiB |\n\n"
	wide := "| " + strings.Repeat("very-long-column-heading-without-spaces ", 1) + "| " + strings.Repeat("x", 400) + " |\n|---|---|\n| 1 | 2 |\n\n"
	h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Two tables:\n\n" + table + wide + long.String())}}})
	h.ui.win.Resize(fyne.NewSize(1100, 720))
	h.say("tables")
	h.until("the answer", func() bool { return !h.ui.running && len(h.ui.chat.Rows) > 60 })
	var boxes []*richtext.TableBox
	h.ui.chat.List.ScrollToTop()
	for _, r := range h.visibleRows() {
		guitest.Walk(r, func(o fyne.CanvasObject) {
			if b, ok := o.(*richtext.TableBox); ok && !containsBox(boxes, b) {
				boxes = append(boxes, b)
			}
		})
	}
	if len(boxes) != 2 {
		t.Fatalf("%d tables drawn, want 2", len(boxes))
	}
	var fits, scrolls int
	for _, b := range boxes {
		hasScroll := false
		guitest.Walk(b, func(o fyne.CanvasObject) {
			if _, ok := o.(*container.Scroll); ok {
				hasScroll = true
			}
		})
		if b.Wide() != hasScroll {
			t.Errorf("table wide=%v but scroller=%v", b.Wide(), hasScroll)
		}
		if b.Wide() {
			scrolls++
		} else {
			fits++
		}
	}
	if fits != 1 || scrolls != 1 {
		t.Errorf("%d tables fit and %d scroll, want 1 and 1", fits, scrolls)
	}

	// One notch down moves three steps (the driver's 25 px each).
	h.ui.chat.List.ScrollToOffset(100)
	rows := h.visibleRows()
	before := h.ui.chat.List.GetScrollOffset()
	rows[0].Wheel.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -25}})
	if got := h.ui.chat.List.GetScrollOffset() - before; got != 75 {
		t.Errorf("a notch moved %v px, want 75", got)
	}
}

func containsBox(bs []*richtext.TableBox, b *richtext.TableBox) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}
