package gui

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/guitest"
)

// sidebarButton taps the sidebar's button labelled label (a panel may
// have a button of the same words: the tools page's back, "Servers").
func (h *harness) sidebarButton(label string) {
	h.t.Helper()
	for _, b := range guitest.All[*widget.Button](h.ui.side.Object()) {
		if b.Text == label {
			test.Tap(b)
			return
		}
	}
	h.t.Fatalf("the sidebar has no button %q", label)
}

// TestServersFromTheSidebarShowTheList: the sidebar's Servers shows the
// list of servers, also after a visit to a server's tools (it opened on
// "Tools of t" again, which only "‹ Servers" left).
func TestServersFromTheSidebarShowTheList(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.toolsOf("t", "echo")
	sw := h.ui.serversW
	for _, away := range []string{"the chat", "Settings", "none"} {
		test.Tap(sw.Rows["t"].Tools)
		if sw.Tools == nil || h.ui.panel != sw.Win {
			t.Fatalf("Tools of t did not show")
		}
		switch away {
		case "the chat":
			h.ui.toChat() // a chat chosen in the sidebar
		case "Settings":
			h.sidebarButton("Settings")
		}
		h.sidebarButton("Servers")
		h.drain()
		if h.ui.panel != sw.Win || sw.Tools != nil || sw.Win.Title() != "Deckhand: servers" || !h.shows(sw.Win, "Connect a server…") {
			t.Errorf("from the tools, then %s, the sidebar's Servers shows %q (the tools page open: %v)", away, sw.Win.Title(), sw.Tools != nil)
		}
		if b := h.button(sw.Win, "Back to the chat"); b == nil {
			t.Errorf("from the tools, then %s, the servers' back button does not go to the chat", away)
		}
		// Escape goes back to the chat, not to the tools.
		h.key("Escape")
		if h.ui.panel != nil {
			t.Errorf("from the tools, then %s, Escape on the servers left %q", away, h.ui.panel.Title())
		}
		h.ui.showServers()
	}
}
