package main

import (
	"fmt"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/gui/sidebar"
	"deckhand/testutil"
)

// The sidebar's search shows under each chat found a snippet of the
// message that matched, and opening it shows the chat at the match (the
// find bar holding the word), not at its end.
func TestWindowSearchSnippetOpensAtMatch(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	var paras []string
	for i := range 40 {
		p := fmt.Sprintf("Paragraph %d is about nothing much, said plainly.", i)
		if i == 3 {
			p = "Paragraph 3 mentions the zebra once, in passing."
		}
		paras = append(paras, p)
	}
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks(strings.Join(paras, "\n\n"))},
		testutil.ModelResponse{Body: testutil.TextChunks("Hi there.")},
	)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	w.say("tell me a long story")
	w.waitScreen("the long answer", func(s gui.Screen) bool { return shows(s, "Paragraph 39") })
	w.key("ctrl+n")
	w.waitScreen("a new chat", func(s gui.Screen) bool { return !shows(s, "Paragraph 39") })
	w.typeText("hello")
	w.key("Return")
	w.waitScreen("the second answer", func(s gui.Screen) bool { return shows(s, "Hi there.") })

	search, _ := findEntry(w.screen(), "Search")
	w.click(search)
	w.typeText("zebra")
	s := w.waitScreen("the match's snippet under its chat", func(s gui.Screen) bool {
		_, row := find(s, "row", "tell me a long story")
		return row && shows(s, "Paragraph 3 mentions the zebra once")
	})
	w.keep("search-snippet.png")
	row, _ := find(s, "row", "tell me a long story")
	w.click(row)
	w.waitScreen("the chat open at the match, found", func(s gui.Screen) bool {
		_, cur := find(s, "found", "current")
		return shows(s, "Paragraph 3 mentions the zebra") && !shows(s, "Paragraph 39") && shows(s, "1 of 1") && cur
	})
	w.keep("search-opened-at-match.png")
}

// A chat's menu opens from the keyboard in the chat list: Shift+F10 and
// the Menu key open it under the chat the list is on (they opened
// nothing, and Pin and Export had no key), Down and Enter choose in it
// (Pin), Escape closes it, and the keyboard is back in the list.
func TestWindowChatMenuFromKeys(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("First answer.")},
		testutil.ModelResponse{Body: testutil.TextChunks("Second answer.")},
	)
	w := startRealWindow(t, scriptedConfig(model.URL), nil)
	w.say("the first chat")
	w.waitScreen("the first answer", func(s gui.Screen) bool { return shows(s, "First answer.") })
	w.key("ctrl+n")
	w.say("the second chat")
	w.waitScreen("the second answer", func(s gui.Screen) bool { return shows(s, "Second answer.") })

	// Tab from the search box reaches the list, on the chat open.
	search, _ := findEntry(w.screen(), "Search")
	w.click(search)
	w.key("Tab")
	w.key("Down") // the first chat, below
	w.waitScreen("the first chat open", func(s gui.Screen) bool { return shows(s, "First answer.") })
	w.key("shift+F10")
	w.waitScreen("its menu", func(s gui.Screen) bool {
		_, pin := find(s, "menuitem", "Pin")
		_, export := find(s, "menuitem", "Export as Markdown")
		return pin && export
	})
	w.keep("menu-from-keys.png")
	w.key("Down", "Return")
	w.waitScreen("the first chat pinned, first", func(s gui.Screen) bool {
		_, menu := find(s, "menuitem", "Export as Markdown")
		return !menu && shows(s, sidebar.PinMark+"the first chat")
	})
	w.key("Menu")
	w.waitScreen("the menu again, by the Menu key", func(s gui.Screen) bool {
		_, unpin := find(s, "menuitem", "Unpin")
		return unpin
	})
	w.key("Escape")
	w.waitScreen("the menu closed, the keyboard in the list", func(s gui.Screen) bool {
		_, menu := find(s, "menuitem", "Unpin")
		f, ok := focused(s)
		return !menu && ok && f.Kind == "sessions"
	})
}
