package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// On a 640×480 screen every page fits the window and the window the
// screen (each screen read checks it): Settings' three tabs, where the key
// file is chosen, a key saved with Save and removed again (which then says
// a key typed is kept in the file, as it is), and a server's tools; the
// window is no wider once back at the chat.
func TestWindowSmallScreen(t *testing.T) {
	p := testutil.RequirePeers(t)
	cfg := fmt.Sprintf("[model]\nbase_url = \"http://127.0.0.1:9/v1\"\nname = \"m\"\n\n[tools]\nenabled = false\n\n[mcp.servers.ev]\ncommand = %q\nargs = [%q, \"stdio\"]\n",
		p.Node, p.Everything)
	w := startRealWindow(t, cfg, nil, withDisplay("640x480"))
	w.waitServerReady()

	w.clickText("button", "Settings")
	s := w.waitScreen("the settings", func(s gui.Screen) bool { _, ok := findEntry(s, "no keyring available"); return ok })
	w.keep("small-settings.png")
	// The wheel over the (disabled) key field moves the page down to
	// what it says of the keyring, and the offer of the key file.
	keyField, _ := findEntry(s, "no keyring available")
	w.wheelUntil("the key file offered", keyField, func(s gui.Screen) bool {
		_, ok := find(s, "button", "Keep the key in a file")
		return ok && shows(s, "No keyring available")
	})
	for _, tab := range []string{"Permissions", "Advanced", "General"} {
		w.clickText("tab", tab)
		w.waitScreen("the "+tab+" tab", func(s gui.Screen) bool {
			for _, it := range s.Items {
				if it.Kind == "tab" && it.Text == tab && it.Checked {
					return true
				}
			}
			return false
		})
	}
	path := w.keepKeyInFile("sk-small-screen-0123456789")
	w.clickText("button", "Settings")
	w.waitScreen("the key in the file, said under the key", func(s gui.Screen) bool {
		return shows(s, "kept in the key file (api-keys.json")
	})
	// A new visit opens at the top of the page; Remove key is under what
	// the key's status says, below the fold at this size: the wheel over
	// the key's field brings it, as a person would. It asks first.
	keyField, _ = findEntry(w.screen(), "saved (hidden)")
	w.wheelUntil("Remove key in view", keyField, func(s gui.Screen) bool { _, ok := find(s, "button", "Remove key"); return ok })
	w.clickText("button", "Remove key")
	w.waitScreen("Remove key's question", func(s gui.Screen) bool { return shows(s, "Remove the saved API key for") })
	w.key("Return")
	s = w.waitScreen("the key removed", func(s gui.Screen) bool {
		return shows(s, "paste the key and Save; it is kept in the key file")
	})
	if shows(s, "a typed key cannot be kept") {
		t.Errorf("after the key file's key was removed, the settings say no key can be kept:\n%s", s.ScreenText())
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "sk-small-screen") {
		t.Errorf("the key is still in the file: %s", data)
	}
	w.keep("small-key-removed.png")
	w.clickText("button", "Close")

	w.clickText("button", "Servers")
	w.waitScreen("the servers", func(s gui.Screen) bool { _, ok := find(s, "button", "Tools"); return ok })
	w.clickText("button", "Tools")
	w.waitScreen("the tools", func(s gui.Screen) bool { return shows(s, "Tools of ev") && shows(s, "Unchecked tools are disabled") })
	w.keep("small-tools.png")
	w.key("Escape")
	w.key("Escape")
	w.waitScreen("the chat", func(s gui.Screen) bool { _, ok := findEntry(s, "Message Deckhand"); return ok })
}
