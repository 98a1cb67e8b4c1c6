package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/testutil"
)

// TestTranscriptRoomInAShortWindow: on a 640x480 screen at 128% text
// (the window's content 640x430 under a title bar and a panel), with a
// pasted 97.7 KiB text attached and the find bar open, the transcript
// keeps about five lines: the attachment's chip is one compact line, the
// find bar has no padding above and below its field, and the message box
// has two rows in a short window (three in a tall one). It had about
// three lines (76 px; 77 in the real window), at 640x480 five (126 px).
func TestTranscriptRoomInAShortWindow(t *testing.T) {
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.28 }, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks(strings.Repeat("A line of the answer.\n\n", 20))}}})
	h.say("hello")
	h.until("the answer", func() bool { return !h.ui.running && h.shows(h.ui.win, "A line of the answer.") })
	h.drain()
	tall := h.ui.input.Size().Height

	h.ui.win.Resize(fyne.NewSize(640, 430))
	h.ui.chat.Find.Open("line")
	h.ui.input.OnLongPaste(strings.Repeat("x", 100_000))
	h.drain()
	for _, o := range h.ui.win.Canvas().Overlays().List() {
		for _, b := range guitest.All[*widget.Button](o) {
			if b.Text == "Attach as a file" {
				test.Tap(b)
			}
		}
	}
	h.until("the chip", func() bool { return h.ui.comp.Chips.Visible() && h.shows(h.ui.win, "97.7 KiB") })
	h.drain()

	line := fyne.MeasureText("Ag", theme.TextSize(), fyne.TextStyle{}).Height
	list := h.ui.chat.List.Size().Height
	t.Logf("at 640x430: transcript %.1f px (%.1f lines of %.1f), find bar %.1f, chips %.1f, message box %.1f (%.1f in a tall window)",
		list, list/line, line, h.ui.chat.Find.Bar.Size().Height, h.ui.comp.Chips.Size().Height, h.ui.input.Size().Height, tall)
	if list < 4.5*line {
		t.Errorf("the transcript is %.1f px high, %.1f lines: want about five", list, list/line)
	}
	if short := h.ui.input.Size().Height; short >= tall {
		t.Errorf("the message box is %.1f px high in a short window, %.1f in a tall one: want it lower", short, tall)
	}
	// Back in a tall window, three rows again.
	h.ui.win.Resize(fyne.NewSize(1100, 720))
	h.drain()
	if got := h.ui.input.Size().Height; got != tall {
		t.Errorf("back at 1100x720 the message box is %.1f px high, want %.1f as before", got, tall)
	}
}
