package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/guitest"
)

// TestServersInProcessSaidOnce: the built-in server's row says
// "in-process" once, in its details; its address said it again under them.
func TestServersInProcessSaidOnce(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.ui.showServers()
	sw := h.ui.serversW
	h.until("t's row", func() bool { return sw.Rows["t"] != nil && h.serverState(sw, "t") == "ready" })
	var said []string
	guitest.Walk(sw.Win.Content(), func(o fyne.CanvasObject) {
		// What is drawn: every label's text is a rich text inside it.
		if r, ok := o.(*widget.RichText); ok && strings.Contains(r.String(), "in-process") {
			said = append(said, r.String())
		}
	})
	if len(said) != 1 {
		t.Errorf("the servers panel says in-process %d times for one built-in server: %q", len(said), said)
	}
}
