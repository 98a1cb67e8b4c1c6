package main

import (
	"fmt"
	"math"
	"slices"
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

// After a search whose match showed a snippet, then one with no match,
// then the box cleared, every chat's row is its own height again, the
// rows evenly spaced, and a right-click on a row opens that chat's menu
// (Rename… holds its title). The first row kept the snippet's height,
// the rows below shifted, and a right-click opened another chat's menu.
func TestWindowRowsBackAfterASearch(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("17 + 25 = 42.")},
		testutil.ModelResponse{Body: testutil.TextChunks("Second answer.")},
		testutil.ModelResponse{Body: testutil.TextChunks("Third answer.")},
	)
	w := startRealWindow(t, scriptedConfig(model.URL), nil)
	titles := []string{"add 17 and 25", "the second chat", "the third chat"}
	for i, answer := range []string{"17 + 25 = 42.", "Second answer.", "Third answer."} {
		if i > 0 {
			w.key("ctrl+n")
		}
		w.say(titles[i])
		w.waitScreen(answer, func(s gui.Screen) bool { return shows(s, answer) })
	}
	search, _ := findEntry(w.screen(), "Search")
	w.click(search)
	w.typeText("17 + 25")
	w.waitScreen("the match's snippet", func(s gui.Screen) bool {
		_, other := find(s, "row", "the second chat")
		return !other && shows(s, "17 + 25 = 42")
	})
	w.key("ctrl+a")
	w.typeText("zzqq")
	w.waitScreen("no match", func(s gui.Screen) bool { return shows(s, "No chats match") })
	w.key("Escape")
	s := w.waitScreen("every chat again", func(s gui.Screen) bool {
		n := 0
		for _, it := range s.Items {
			if it.Kind == "row" && it.Visible {
				n++
			}
		}
		return n == 3
	})
	var rows []gui.ScreenItem
	for _, it := range s.Items {
		if it.Kind == "row" && it.Visible {
			rows = append(rows, it)
		}
	}
	slices.SortFunc(rows, func(a, b gui.ScreenItem) int { return int(a.Y - b.Y) })
	for i, r := range rows {
		if math.Abs(float64(r.H-rows[len(rows)-1].H)) > 0.5 {
			t.Errorf("row %d (%s) is %.0f px high, the last %.0f", i, r.Text, r.H, rows[len(rows)-1].H)
		}
	}
	if a, b := rows[1].Y-rows[0].Y, rows[2].Y-rows[1].Y; math.Abs(float64(a-b)) > 0.5 {
		t.Errorf("the rows are %.0f then %.0f px apart", a, b)
	}
	w.keep("rows-after-search.png")
	// A right-click a quarter down the second row's place, below the first
	// row as a row of its height ends.
	at := rows[1]
	at.CX, at.CY = at.X+at.W/2, rows[0].Y+(rows[2].Y-rows[1].Y)+at.H/4
	w.click(at, "3")
	w.clickText("menuitem", "Rename…")
	w.waitScreen("the rename dialog holding "+at.Text, func(s gui.Screen) bool {
		for _, it := range s.Items {
			if it.Kind == "entry" && it.Visible && it.Text == at.Text {
				return true
			}
		}
		return false
	})
	w.key("Escape")
}
