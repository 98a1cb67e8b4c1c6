package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// TestWindowSmallChatLinesAndTips: on a 640×480 screen at 128% text, an
// answer's verses, a line each in its Markdown, show a line each and
// right-click ▸ Select all copies them with their line breaks (they
// showed as one line); the pointer resting on the message's Delete icon
// shows "Delete message" beside it, in the window, and the name goes
// when the pointer leaves (hovering showed only a hover fill).
func TestWindowSmallChatLinesAndTips(t *testing.T) {
	needPrograms(t, "xdotool", "xclip")
	poem := "Roses are red,\nthe zebrafinch sings,\nsugar is sweet."
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks(poem)})
	w := startRealWindow(t, scriptedConfig(model.URL, "[ui]\ntext_scale = 1.28\n"), nil, withDisplay("640x480"))
	w.say("a poem please")
	s := w.waitScreen("the poem", func(s gui.Screen) bool { return shows(s, "zebrafinch") })
	verses, _ := find(s, "text", "zebrafinch")
	if rows := strings.Count(verses.Text, "\n") + 1; rows < 3 {
		t.Errorf("the poem is drawn as %q (%d rows): its verses were joined", verses.Text, rows)
	}
	w.click(verses, "3")
	w.clickText("menuitem", "Select all")
	w.key("ctrl+c")
	var got string
	testutil.Eventually(t, 5*time.Second, func() bool { got = w.clipboard(); return got != "" }, "nothing copied")
	if got = strings.TrimRight(got, "\n"); got != poem {
		t.Errorf("Select all copied %q, want %q", got, poem)
	}
	w.keep("small-poem.png")

	// The person's message's Delete: an icon, its name on a rest.
	you, _ := find(s, "label", "You")
	var del gui.ScreenItem
	for _, it := range s.Items {
		if it.Visible && it.Kind == "button" && it.Text == "" && it.CY > you.Y && it.CY < you.Y+you.H && (del.Kind == "" || it.X < del.X) {
			del = it // the header's first icon: Delete, then Copy
		}
	}
	if del.Kind == "" {
		t.Fatalf("no icon on the message's header:\n%s", s.ScreenText())
	}
	w.xdo("mousemove", "--window", w.win, fmt.Sprint(int(del.CX)), fmt.Sprint(int(del.CY)))
	s = w.waitScreen("the Delete icon's name", func(s gui.Screen) bool { return shows(s, "Delete message") })
	tip, _ := find(s, "label", "Delete message")
	if !tip.Visible || tip.Y < del.Y+del.H-1 && tip.Y+tip.H > del.Y {
		t.Errorf("the tip %+v is not in sight beside the icon %+v", tip, del)
	}
	w.keep("small-delete-tip.png")
	w.xdo("mousemove", "--window", w.win, fmt.Sprint(int(verses.CX)), fmt.Sprint(int(verses.CY)))
	w.waitScreen("the name gone with the pointer", func(s gui.Screen) bool { return !shows(s, "Delete message") })
}
