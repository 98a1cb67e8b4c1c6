package gui

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/gui/chat/find"
	"deckhand/gui/sidebar"
	"deckhand/gui/widgets"
	"deckhand/testutil"
)

// TestSearchOpensTheVersionFound: a word only in an earlier version of a
// message is found by the sidebar's search, and opening the chat shows that
// version with the word counted in the find bar (it showed the newest
// version and "No matches"); opening the same result again, searched
// again, counts it again (the bar showed the words with no count).
func TestSearchOpensTheVersionFound(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The zebrafinch sings.")},
		{Body: testutil.TextChunks("A robin sings.")},
		{Body: testutil.TextChunks("Another chat.")},
	}})
	h.twoVersions()
	h.chat("something else", "Another chat.")

	for i := range 2 {
		// (A new chat ends the search: it is typed again.)
		h.ui.side.Search.SetText("")
		test.Type(h.ui.side.Search, "zebrafinch")
		h.until("the chat found", func() bool { return slices.Equal(h.titles(), []string{"name a bird"}) })
		test.Tap(h.sessionRowOf("name a bird"))
		h.until("the version with the word, counted", func() bool {
			hs := h.userHeaders()
			return len(hs) == 1 && hs[0].Version.Text == "1/2" && h.ui.chat.Find.Count.Text == "1 of 1"
		})
		if h.shows(h.ui.win, "A robin sings.") {
			t.Errorf("open %d: the newest version's answer shows beside the one found", i+1)
		}
		h.tap(h.ui.win, "New chat")
		h.until("an empty chat", func() bool { return len(h.ui.chat.Rows) == 0 })
	}
}

// TestFindSeesToolCards: Ctrl+F finds words in a tool card's name,
// arguments and result, counts them, and marks the card holding the
// current match (it skipped the cards).
func TestFindSeesToolCards(t *testing.T) {
	h := newCardHarness(t)
	h.finished("c1", "t.lookup", "the quokka is found", nil)
	h.drain()
	f := h.ui.chat.Find
	for _, tc := range []struct{ query, want string }{
		{"lookup", "1 of 1"},
		{`"q"`, "1 of 1"},
		{"quokka", "1 of 1"},
	} {
		f.Open(tc.query)
		if f.Count.Text != tc.want {
			t.Errorf("find %s = %q, want %q", tc.query, f.Count.Text, tc.want)
		}
	}
	c := h.card("t.lookup")
	if c == nil {
		t.Fatal("no card on screen")
	}
	if got := c.Tool().Border.StrokeColor; got != find.Current {
		t.Errorf("the card holding the match is drawn in %v, want the current match's %v", got, find.Current)
	}
	f.Close()
	if got := c.Tool().Border.StrokeColor; got == find.Current {
		t.Error("the card stays marked after the find bar closed")
	}
}

// twoVersions asks "name a bird", answered "The zebrafinch sings.", then
// Retry, answered "A robin sings.": one message in two versions, the
// second shown (the harness's model scripts those two answers first).
func (h *harness) twoVersions() {
	h.t.Helper()
	h.say("name a bird")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "The zebrafinch sings.") && !h.ui.running })
	test.Tap(h.userHeaders()[0].Retry)
	h.until("the second version", func() bool {
		hs := h.userHeaders()
		return h.shows(h.ui.win, "A robin sings.") && !h.ui.running && len(hs) == 1 && hs[0].Version.Text == "2/2"
	})
}

// TestSearchOpensThePhraseFound: a phrase with a one-letter word ("write
// a poem") found by the sidebar's search opens the chat at the version
// holding it together, with the phrase in the find bar as typed, counted.
// The chat opened at the version shown, with "write" (or "a") in the bar:
// the bar fell back to the words alone before choosing the version.
func TestSearchOpensThePhraseFound(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("Now write a poem.")},
		{Body: testutil.TextChunks("I write, you read: a poem is long.")},
		{Body: testutil.TextChunks("Another chat.")},
	}})
	h.say("name a bird")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "Now write a poem.") && !h.ui.running })
	test.Tap(h.userHeaders()[0].Retry)
	h.until("the second version", func() bool {
		hs := h.userHeaders()
		return h.shows(h.ui.win, "a poem is long") && !h.ui.running && len(hs) == 1 && hs[0].Version.Text == "2/2"
	})
	h.chat("something else", "Another chat.")

	test.Type(h.ui.side.Search, "write a poem")
	h.until("the chat found", func() bool { return slices.Equal(h.titles(), []string{"name a bird"}) })
	test.Tap(h.sessionRowOf("name a bird"))
	f := h.ui.chat.Find
	h.until("the version with the phrase, counted", func() bool {
		hs := h.userHeaders()
		return len(hs) == 1 && hs[0].Version.Text == "1/2" && f.Count.Text == "1 of 1"
	})
	if entry, _ := h.ui.win.Canvas().Focused().(*widgets.FindEntry); entry == nil || entry.Text != "write a poem" {
		t.Errorf("the find bar holds %v, want %q with the keyboard", entry, "write a poem")
	}
}

// TestNewChatEndsTheSearch: a chat started while the sidebar shows a
// search's matches ends the search: the box is cleared and every chat is
// listed, the new one too. The list stayed filtered, the new chat hidden,
// until Escape in the box.
func TestNewChatEndsTheSearch(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, responses: []testutil.ModelResponse{
		{Body: testutil.TextChunks("The zebrafinch sings.")},
		{Body: testutil.TextChunks("Another chat.")},
		{Body: testutil.TextChunks("A third.")},
	}})
	h.say("name a bird")
	h.until("the first answer", func() bool { return h.shows(h.ui.win, "The zebrafinch sings.") && !h.ui.running })
	h.chat("something else", "Another chat.")
	test.Type(h.ui.side.Search, "zebrafinch")
	h.until("the chat found", func() bool { return slices.Equal(h.titles(), []string{"name a bird"}) })
	test.Tap(h.sessionRowOf("name a bird"))
	h.chat("a third chat", "A third.")
	h.until("every chat listed, the new one first", func() bool {
		return slices.Equal(h.titles(), []string{"a third chat", "something else", "name a bird"})
	})
	if got := h.ui.side.Search.Text; got != "" {
		t.Errorf("the search box holds %q after a new chat, want it cleared", got)
	}
}

// TestSearchFindsToolResults: a word that is only in a tool's result (as
// the chat's card shows it, and Ctrl+F finds it) finds the chat from the
// sidebar's search, its snippet saying it is a tool's result, and the
// chat opens with the word counted in the find bar. The search read only
// the messages: "No chats match".
func TestSearchFindsToolResults(t *testing.T) {
	echo := toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": "the quokka smiles"}`}, "Echoed.")
	h := newHarness(t, harnessOptions{log: true,
		cfg: func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.echo": true} },
		fallback: func(req map[string]any) testutil.ModelResponse {
			if b, _ := json.Marshal(req["messages"]); strings.Contains(string(b), "no tool") {
				return testutil.ModelResponse{Body: testutil.TextChunks("A plain answer.")}
			}
			return echo(req)
		},
	})
	h.say("echo something")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "Echoed.") && h.card("t.echo") != nil && !h.ui.running })
	h.chat("no tool here", "A plain answer.")
	h.until("both listed", func() bool { return len(h.titles()) == 2 })

	test.Type(h.ui.side.Search, "QUOKKA")
	h.until("the chat found", func() bool { return slices.Equal(h.titles(), []string{"echo something"}) })
	row := h.sessionRowOf("echo something")
	if m := row.Item().Match; m.Tool != "t.echo" || !strings.Contains(m.Snippet, "quokka") {
		t.Errorf("the match is %+v, want a snippet of t.echo's result", m)
	}
	if !h.shows(h.ui.win, strings.TrimSpace(sidebar.ResultLabel)) {
		t.Errorf("the row does not say its snippet is a tool's result")
	}
	test.Tap(row)
	// Found twice: in the call's arguments and in its result.
	h.until("the word counted in the find bar", func() bool { return h.ui.chat.Find.Count.Text == "1 of 2" })
}

// TestEnterOpensTheFirstResult: with a chat open that the search does not
// find, Tab into its fresh results puts the keyboard on the first result,
// highlighted, Enter opens it, and Down goes on to the next. The list's
// keyboard stayed at the index it had before the search: Enter opened the
// result at that index (the 4th chat clicked, the 4th result opened), or,
// past the results' end, nothing (new-user pass 15, N2).
func TestEnterOpensTheFirstResult(t *testing.T) {
	h := newHarness(t, harnessOptions{log: true, fallback: func(map[string]any) testutil.ModelResponse {
		return testutil.ModelResponse{Body: testutil.TextChunks("Noted.")}
	}})
	for _, title := range []string{"python one", "python two", "python three", "other four", "other five"} {
		h.chat(title, "Noted.")
		h.until(title+" listed", func() bool { return slices.Contains(h.titles(), title) && !h.ui.running })
	}
	// The list: other five, other four, python three, python two, python
	// one. The keyboard goes to "other four", the second row.
	test.Tap(h.sessionRowOf("other four"))
	h.until("other four open", func() bool { return h.ui.title.Text == "other four" })
	h.ui.win.Canvas().Focus(h.ui.side.List)

	for _, query := range []string{"python", "python t"} {
		h.ui.win.Canvas().Focus(h.ui.side.Search)
		h.ui.side.Search.SetText("")
		h.until("every chat listed", func() bool { return len(h.titles()) == 5 })
		test.Type(h.ui.side.Search, query)
		var want []string
		h.until("the results of "+query, func() bool {
			want = h.titles()
			return len(want) >= 2 && !slices.Contains(want, "other four") && !slices.Contains(want, "other five")
		})
		h.ui.win.Canvas().FocusNext() // Tab, from the search box to the list
		if f := h.ui.win.Canvas().Focused(); f != h.ui.side.List {
			t.Fatalf("Tab from the search box went to %T, want the list", f)
		}
		if got := h.ui.side.Highlighted(); got != 0 {
			t.Errorf("%s: Tab into the results highlights row %d, want the first", query, got)
		}
		before := h.ui.title.Text
		h.key(fyne.KeyReturn)
		h.until("a result open", func() bool { return h.ui.title.Text != before })
		if got := h.ui.title.Text; got != want[0] {
			t.Errorf("%s: Enter in the results opened %q, want the first result %q (results %q)", query, got, want[0], want)
		}
		h.ui.win.Canvas().Focus(h.ui.side.List)
		h.key(fyne.KeyDown)
		h.until("the second result open", func() bool { return h.ui.title.Text == want[1] })
	}
}
