package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// TestWindowWheelOverAWideTable: on a 640×480 screen, the wheel turned up
// over an answer whose wide table comes under the pointer moves the chat
// on to the answer's first line, and Shift and the wheel over the table
// scroll it sideways. The table took the wheel and scrolled sideways, and
// the chat stopped there.
func TestWindowWheelOverAWideTable(t *testing.T) {
	if !hasProgram("xdotool") {
		t.Skip("no xdotool")
	}
	var b strings.Builder
	b.WriteString("A wide table comes first.\n\n")
	b.WriteString(strings.Repeat("| column with a long heading ", 7) + "|\n" + strings.Repeat("|---", 7) + "|\n")
	for range 12 {
		b.WriteString(strings.Repeat("| a cell of the table ", 7) + "|\n")
	}
	for i := range 12 {
		fmt.Fprintf(&b, "\nA line after the table, number %d.\n", i)
	}
	b.WriteString("\nThe last line of the answer.")
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks(b.String())})
	w := startRealWindow(t, scriptedConfig(model.URL), nil, withDisplay("640x480"))
	w.say("markdown tour please")
	s := w.waitScreen("the end of the answer", func(s gui.Screen) bool { return shows(s, "The last line of the answer.") })
	last, _ := find(s, "text", "The last line of the answer.")
	// The pointer in the transcript, above the answer's last line: the
	// table comes under it as the chat moves.
	w.xdo("mousemove", "--window", w.win, fmt.Sprint(int(last.X+60)), fmt.Sprint(int(last.Y-80)))
	time.Sleep(300 * time.Millisecond) // the pointer rests, as a hand's does
	sawTable := false
	for range 40 {
		s = w.screen()
		if _, ok := find(s, "", "a cell of the table"); ok {
			sawTable = true
		}
		if shows(s, "A wide table comes first.") {
			break
		}
		w.xdo("click", "4")
		time.Sleep(100 * time.Millisecond) // kept: a pause between wheel notches, as a hand makes
	}
	w.keep("table-wheel.png")
	if !sawTable || !shows(s, "A wide table comes first.") {
		t.Fatalf("40 notches of the wheel up over the answer: the table was in view %v, the answer's first line %v:\n%s", sawTable, shows(s, "A wide table comes first."), s.ScreenText())
	}

	// Shift and the wheel over the table scroll it sideways: its pixels
	// change, and the chat stays where it was.
	first, _ := find(s, "text", "A wide table comes first.")
	text, _ := find(s, "text", "a cell of the table")
	y0, y1 := int(text.Y)+60, min(int(text.Y)+160, int(text.Y+text.H))
	before := w.windowShot("Deckhand", "table-before-shift.png")
	w.xdo("mousemove", "--window", w.win, fmt.Sprint(int(text.X+text.W/2)), fmt.Sprint((y0+y1)/2))
	w.xdo("keydown", "shift")
	for range 3 {
		w.xdo("click", "5")
	}
	w.xdo("keyup", "shift")
	changed := 0
	testutil.Eventually(t, 10*time.Second, func() bool {
		after := w.windowShot("Deckhand", "table-after-shift.png")
		changed = 0
		for y := y0; y < y1; y++ {
			for x := int(text.X); x < int(text.X+text.W); x++ {
				if far(before.At(x, y), after.At(x, y)) {
					changed++
				}
			}
		}
		return changed > 200
	}, "Shift and the wheel over the table: its pixels did not change (%d changed)", changed)
	if f, ok := find(w.screen(), "text", "A wide table comes first."); !ok || f.Y != first.Y {
		t.Errorf("Shift and the wheel over the table moved the chat: its first line was at y %.0f, now %.0f (shown %v)", first.Y, f.Y, ok)
	}
}
