package main

import (
	"fmt"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// The servers and the settings open inside the main window, in the chat's
// place (no window of their own to find again); Escape, "Back to the
// chat" or a chat chosen in the sidebar bring the chat back, with the
// keyboard in the message box.
func TestWindowPanelsInMainWindow(t *testing.T) {
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("hello back")})
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"scripted\"\n\n[mcp.servers.p]\ncommand = %q\n", model.URL, stdioServerBin(t))
	w := startRealWindow(t, cfg, nil)
	chatShown := func(s gui.Screen) bool { b, ok := findEntry(s, "Message Deckhand"); return ok && b.Visible }
	w.typeText("hello")
	w.key("Return")
	w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "hello back") })

	// Servers, from the sidebar: in the main window.
	w.clickText("button", "Servers")
	s := w.waitScreen("the servers panel", func(s gui.Screen) bool { return serverTools(s, "p").W > 0 && !chatShown(s) })
	if tools := serverTools(s, "p"); tools.Window != "Deckhand" {
		t.Errorf("the servers are in window %q", tools.Window)
	}
	if others := w.xdo("search", "--name", "^Deckhand: "); others != "" {
		t.Errorf("panels opened windows of their own: %s", others)
	}
	w.keep("panel-servers.png")
	wide := func(s gui.Screen, what string) {
		t.Helper()
		if win := windowOf(s, "Deckhand"); win == nil || win.W > 1101 {
			t.Errorf("%s made the window wider than it was (1100): %+v", what, win)
		}
	}
	wide(s, "the servers")
	// A server's tools, then Escape twice: the servers, then the chat.
	w.click(serverTools(s, "p"))
	w.waitScreen("the tools of p", func(s gui.Screen) bool { return shows(s, "Tools of p") })
	w.key("Escape")
	w.waitScreen("the servers again", func(s gui.Screen) bool { return serverTools(s, "p").W > 0 })
	w.key("Escape")
	s = w.waitScreen("the chat again", chatShown)
	if f, _ := focused(s); !strings.Contains(f.Hint, "Message Deckhand") {
		t.Errorf("after Escape the focus is on %s %q", f.Kind, f.Hint)
	}

	// The settings (Ctrl+,), and Back to the chat.
	w.key("ctrl+comma")
	s = w.waitScreen("the settings panel", func(s gui.Screen) bool { _, ok := findEntry(s, "Optional. For example"); return ok && !chatShown(s) })
	w.keep("panel-settings.png")
	wide(s, "the settings")
	for _, tab := range []string{"Permissions", "Advanced", "General"} {
		w.clickText("tab", tab)
		wide(w.waitScreen(tab+" selected", func(s gui.Screen) bool { it, ok := find(s, "tab", tab); return ok && it.Checked }), "the settings' "+tab)
	}
	w.clickText("button", "Back to the chat")
	w.waitScreen("the chat after Back", chatShown)

	// The settings again; a chat chosen in the sidebar brings it back.
	w.key("ctrl+comma")
	s = w.waitScreen("the settings panel again", func(s gui.Screen) bool { return !chatShown(s) })
	var row gui.ScreenItem
	for _, it := range s.Items {
		if it.Visible && strings.TrimSpace(it.Text) == "hello" {
			row = it // the chat's title, in the sidebar
		}
	}
	if row.W == 0 {
		t.Fatalf("the sidebar does not list the chat:\n%s", s.ScreenText())
	}
	w.click(row)
	s = w.waitScreen("the chat after choosing it", func(s gui.Screen) bool { return chatShown(s) && shows(s, "hello back") })
}
