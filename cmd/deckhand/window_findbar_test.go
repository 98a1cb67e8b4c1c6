package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// TestWindowFindBarGivesItsRoomBack: Ctrl+F, words found nowhere, Enter,
// then Escape: the bar closes and the transcript is where it was before,
// in the real window at 1280×800. A blank band stayed where the bar had
// been, over the transcript's first row, until a restart.
func TestWindowFindBarGivesItsRoomBack(t *testing.T) {
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("Hello there, a short answer.")})
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil, withDisplay("1280x800"))
	w.typeText("hi")
	w.key("Return")
	at := func(s gui.Screen) float32 {
		it, ok := find(s, "", "Hello there, a short answer.")
		if !ok {
			return -1
		}
		return it.Y
	}
	s := w.waitScreen("the answer", func(s gui.Screen) bool { return at(s) >= 0 })
	before := at(s)
	for round := range 2 {
		w.key("ctrl+f")
		w.waitScreen("the find bar", func(s gui.Screen) bool { _, ok := findEntry(s, "Find in this chat"); return ok })
		w.typeText("poem")
		w.key("Return")
		w.waitScreen("no matches", func(s gui.Screen) bool { return shows(s, "No matches") })
		w.key("Escape")
		s = w.waitScreen("the bar closed", func(s gui.Screen) bool { _, ok := findEntry(s, "Find in this chat"); return !ok })
		if got := at(s); got != before {
			w.keep(fmt.Sprintf("findbar-band-%d.png", round))
			t.Errorf("round %d: after the find bar closed, the answer is at y %v, want %v as before", round+1, got, before)
		}
	}
}

// TestWindowSearchResultFindBarSmall: at 640×480, a chat opened from the
// sidebar's search shows the match below the find bar, not under it, and
// the keyboard is in the bar's field, so Escape closes it; also when the
// match is in the version of the message not shown (Retry made another),
// and when the result's chat is the one shown. There the keys went to the
// message box, and Escape left the bar open.
func TestWindowSearchResultFindBarSmall(t *testing.T) {
	for _, tc := range []struct {
		name  string
		retry bool // the message retried: the match in the version not shown
	}{
		{"the version shown", false},
		{"another version", true},
	} {
		t.Run(tc.name, func(t *testing.T) { searchResultFindBarSmall(t, tc.retry) })
	}
}

func searchResultFindBarSmall(t *testing.T, retry bool) {
	answer := serverParagraphs()
	answers := []testutil.ModelResponse{{Body: testutil.TextChunks(answer)}}
	if retry {
		answers = append(answers, testutil.ModelResponse{Body: testutil.TextChunks(strings.ReplaceAll(answer, "The server added", "Someone added"))})
	}
	model := testutil.NewModelServer(t, append(answers, testutil.ModelResponse{Body: testutil.TextChunks("Hi there.")})...)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil, withDisplay("640x480"))
	w.say("please add 17 and 25")
	w.waitScreen("the long answer", func(s gui.Screen) bool { return shows(s, "Paragraph 39") })
	if retry {
		// Up the answer with the wheel, to its message's Retry.
		line, _ := find(w.screen(), "text", "Paragraph 39")
		w.xdo("mousemove", "--window", w.win, fmt.Sprint(int(line.CX)), fmt.Sprint(int(line.CY)))
		// On to the top, where the wheel moves Retry no further: found
		// sooner, it may lie above the transcript, under the chat's title.
		// Ten notches a look: under load a look at the screen takes a
		// second or two, and one notch a look did not reach the top of
		// 40 paragraphs in a minute.
		prev := float32(-1)
		testutil.Eventually(t, 120*time.Second, func() bool {
			if b, ok := find(w.screen(), "button", "Retry"); ok {
				if b.Y == prev {
					return true
				}
				prev = b.Y
			}
			w.xdo("click", "--repeat", "10", "--delay", "30", "4")
			return false
		}, "Retry never came into view")
		w.clickText("button", "Retry")
		w.waitScreen("the second version", func(s gui.Screen) bool { return model.Count() == 2 && shows(s, "Paragraph 39") })
	}
	w.key("ctrl+n")
	w.waitScreen("a new chat", func(s gui.Screen) bool { return !shows(s, "Paragraph 39") })
	w.typeText("hello")
	w.key("Return")
	w.waitScreen("the second chat's answer", func(s gui.Screen) bool { return shows(s, "Hi there.") })

	search, _ := findEntry(w.screen(), "Search")
	w.click(search)
	w.typeText("server")
	s := w.waitScreen("the search's one result, with its snippet", func(s gui.Screen) bool {
		_, ok := find(s, "row", "please add 17 and 25")
		_, other := find(s, "row", "hello")
		return ok && !other && shows(s, "The server added them")
	})
	row, _ := find(s, "row", "please add 17 and 25")
	w.click(row)
	s = w.waitScreen("the chat open at the match, in sight", func(s gui.Screen) bool {
		_, cur := find(s, "found", "current")
		_, match := find(s, "text", "The server added them")
		return shows(s, "1 of 1") && cur && match
	})
	w.keep("search-small-opened.png")
	bar, ok := findEntry(s, "Find in this chat")
	if !ok {
		t.Fatalf("no find bar:\n%s", s.ScreenText())
	}
	match, _ := find(s, "text", "The server added them")
	if barEnd := bar.Y + bar.H; match.CY < barEnd || match.Y+match.H <= barEnd+2 {
		t.Errorf("the match (y %.0f to %.0f, in sight around %.0f) is under the find bar (which ends at y %.0f)", match.Y, match.Y+match.H, match.CY, barEnd)
	}
	if f, _ := focused(s); !strings.Contains(f.Hint, "Find in this chat") {
		t.Errorf("after opening the search's result the keyboard is on %s %q, want the find field", f.Kind, f.Text+f.Hint)
	}
	w.key("Escape")
	s = w.waitScreen("the find bar closed by Escape", func(s gui.Screen) bool { _, ok := findEntry(s, "Find in this chat"); return !ok })

	// The result again, its chat now open: the bar opens in place, with
	// the keyboard in it.
	row, _ = find(s, "row", "please add 17 and 25")
	w.click(row)
	s = w.waitScreen("the find bar open again", func(s gui.Screen) bool {
		_, ok := findEntry(s, "Find in this chat")
		return ok && shows(s, "1 of 1")
	})
	if f, _ := focused(s); !strings.Contains(f.Hint, "Find in this chat") {
		t.Errorf("after opening the search's result in the chat shown, the keyboard is on %s %q, want the find field", f.Kind, f.Text+f.Hint)
	}
	w.key("Escape")
	w.waitScreen("the find bar closed by Escape, again", func(s gui.Screen) bool { _, ok := findEntry(s, "Find in this chat"); return !ok })
}

// TestWindowFindBarRoomAcrossChats: a chat opened from a search shows the
// find bar; Escape closes it, and another chat opened then shows its
// first row where it did before, right under the chat's title, as does
// the first chat again. A blank band stayed over the transcript's top
// where the bar had been, across chats, until a restart.
func TestWindowFindBarRoomAcrossChats(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks(serverParagraphs())},
		testutil.ModelResponse{Body: testutil.TextChunks("Hi there.")},
	)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil, withDisplay("1280x800"))
	w.say("please add 17 and 25")
	w.waitScreen("the long answer", func(s gui.Screen) bool { return shows(s, "Paragraph 39") })
	w.key("ctrl+n")
	w.waitScreen("a new chat", func(s gui.Screen) bool { return !shows(s, "Paragraph 39") })
	w.typeText("hello")
	w.key("Return")
	// The short chat's first row, the person's message's header.
	top := func(s gui.Screen) float32 {
		for _, it := range s.Items {
			if it.Visible && it.Kind == "label" && it.Text == "You" {
				return it.Y
			}
		}
		return -1
	}
	s := w.waitScreen("the second answer", func(s gui.Screen) bool { return shows(s, "Hi there.") && top(s) >= 0 })
	before := top(s)

	search, _ := findEntry(s, "Search")
	w.click(search)
	w.typeText("server")
	s = w.waitScreen("the search's one result", func(s gui.Screen) bool {
		_, ok := find(s, "row", "please add 17 and 25")
		_, other := find(s, "row", "hello")
		return ok && !other && shows(s, "The server added them")
	})
	row, _ := find(s, "row", "please add 17 and 25")
	w.click(row)
	w.waitScreen("the chat open at the match", func(s gui.Screen) bool { return shows(s, "1 of 1") })
	w.key("Escape")
	w.waitScreen("the find bar closed", func(s gui.Screen) bool { _, ok := findEntry(s, "Find in this chat"); return !ok })
	// A paste too long for the box, refused in a notice, as the report
	// did next.
	w.setClipboard(pasteText(1 << 20))
	box, _ := findEntry(w.screen(), "Message Deckhand")
	w.click(box)
	w.key("ctrl+v")
	w.waitScreen("the 1 MB paste refused", func(s gui.Screen) bool { return shows(s, "is too long") })
	w.key("Return")
	w.waitScreen("the notice closed", func(s gui.Screen) bool { return !shows(s, "is too long") })
	// The search cleared, the other chat opened from the list.
	w.click(search)
	w.key("ctrl+a", "BackSpace")
	w.clickText("row", "hello")
	s = w.waitScreen("the short chat again", func(s gui.Screen) bool { return shows(s, "Hi there.") && top(s) >= 0 })
	if got := top(s); got != before {
		w.keep("findbar-band-other-chat.png")
		t.Errorf("after the find bar closed in another chat, this chat's first row is at y %v, want %v as before", got, before)
	}
	w.key("ctrl+f")
	w.waitScreen("the find bar", func(s gui.Screen) bool { _, ok := findEntry(s, "Find in this chat"); return ok })
	w.key("Escape")
	s = w.waitScreen("the find bar closed again", func(s gui.Screen) bool { _, ok := findEntry(s, "Find in this chat"); return !ok && top(s) >= 0 })
	if got := top(s); got != before {
		w.keep("findbar-band-ctrlf.png")
		t.Errorf("after Ctrl+F and Escape, the chat's first row is at y %v, want %v as before", got, before)
	}
}

// serverParagraphs is a long answer of 40 paragraphs, the 21st of which
// says "The server added them": a match a screen or more from either end.
func serverParagraphs() string {
	var paras []string
	for i := range 40 {
		p := fmt.Sprintf("Paragraph %d is about nothing much, said plainly.", i)
		if i == 20 {
			p = "The server added them, paragraph 20 says."
		}
		paras = append(paras, p)
	}
	return strings.Join(paras, "\n\n")
}
