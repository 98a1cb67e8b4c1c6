package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/testutil"
)

// In the window, a tool card's fold chevron names itself on the chat's
// tips layer, the one its messages' buttons use: the cards' layer must be
// the one laid over the list, or its tips never show.
func TestToolCardTipShowsInTheChat(t *testing.T) {
	h := newHarness(t, harnessOptions{
		cfg:      func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.echo": true} },
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "hi"}`}, "Echoed."),
	})
	h.say("echo hi")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Echoed.") && h.card("t.echo") != nil })
	fold := h.card("t.echo").Tool().Fold
	drv := fyne.CurrentApp().Driver()
	at, size := drv.AbsolutePositionForObject(fold), fold.Size()
	test.MoveMouse(h.ui.win.Canvas(), at.AddXY(size.Width/2, size.Height/2))
	tips := h.ui.chat.Tips
	h.until("the fold's tip", func() bool { return tips.Shown() == fold })
	if tips.Label.Text != "Fold the card to its header" {
		t.Errorf("the fold's tip says %q", tips.Label.Text)
	}
}
