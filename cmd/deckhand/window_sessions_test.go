package main

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// pastChats fills a fresh home's log with two sessions, run through the
// real binary: "first question" (answered "answer one") then "second
// question" ("answer two").
func pastChats(t *testing.T, cfg string) func(env []string, home string) {
	return func(env []string, home string) {
		bin := testutil.BuildProgram(t, "./cmd/deckhand")
		path := writeConfig(t, cfg)
		for _, q := range []string{"first question", "second question"} {
			cmd := exec.Command(bin, "--config", path, "chat", "-p", q)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("chat -p %q: %v\n%s", q, err, out)
			}
		}
	}
}

// A past chat opens with a click on its row in the sidebar (the second
// row, not the current one), and with the keyboard: Tab reaches the list,
// the arrows move to a session and open it, Enter opens the highlighted
// one, F2 renames it.
func TestWindowOpensPastChats(t *testing.T) {
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("answer one")},
		testutil.ModelResponse{Body: testutil.TextChunks("answer two")},
	)
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, pastChats(t, cfg))
	s := w.waitScreen("two sessions in the sidebar", func(s gui.Screen) bool {
		_, a := find(s, "row", "first question")
		_, b := find(s, "row", "second question")
		return a && b
	})
	row, _ := find(s, "row", "first question")
	w.click(row)
	w.waitScreen("the first chat's history", func(s gui.Screen) bool { return shows(s, "answer one") })
	w.keep("past-chat-clicked.png")

	// The keyboard: from the search box, Tab reaches the list; Up moves
	// to the other session and opens it.
	search, ok := findEntry(w.screen(), "Search")
	if !ok {
		t.Fatal("no search box")
	}
	w.click(search)
	w.key("Tab")
	w.waitScreen("the list has the focus", func(s gui.Screen) bool { f, ok := focused(s); return ok && f.Kind == "sessions" })
	w.key("Up")
	w.waitScreen("the second chat's history", func(s gui.Screen) bool { return shows(s, "answer two") && !shows(s, "answer one") })
	w.key("Down", "Return")
	// Enter opens the chat with the keyboard in its message box, ready to
	// type; F2 renames in the list, so the list takes the keyboard again.
	w.waitScreen("the first chat again, the message box focused", func(s gui.Screen) bool {
		f, ok := focused(s)
		return shows(s, "answer one") && ok && f.Kind == "entry" && strings.HasPrefix(f.Hint, "Message Deckhand")
	})
	w.click(search)
	w.key("Tab")
	w.waitScreen("the list has the focus again", func(s gui.Screen) bool { f, ok := focused(s); return ok && f.Kind == "sessions" })
	w.key("F2")
	w.waitScreen("the rename dialog", func(s gui.Screen) bool { return shows(s, "Rename chat") })
	w.key("Escape")
	w.waitScreen("the rename dialog closed", func(s gui.Screen) bool { return !shows(s, "Rename chat") })

	// A search result opens with a click too.
	w.click(search)
	w.typeText("second")
	s = w.waitScreen("one search result", func(s gui.Screen) bool {
		_, first := find(s, "row", "first question")
		_, second := find(s, "row", "second question")
		return second && !first
	})
	row, _ = find(s, "row", "second question")
	w.click(row)
	w.waitScreen("the search result's history", func(s gui.Screen) bool { return shows(s, "answer two") })
}

// windowHeight is the window's height in pixels, as X has it.
func (w *realWindow) windowHeight() int {
	out := w.xdo("getwindowgeometry", w.win)
	var width, height int
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Geometry: "); ok {
			fmt.Sscanf(rest, "%dx%d", &width, &height)
		}
	}
	return height
}

// setClipboard puts text on the display's clipboard (xclip serves it).
func (w *realWindow) setClipboard(text string) {
	w.t.Helper()
	w.setSelection("clipboard", text)
}

// A multi-line first message makes a one-line title and keeps its line
// breaks on screen; a 30 KB paste never makes the window taller than the
// screen nor pushes the message box out of it; a paste over 32 KB is
// offered as an attached text file (100 KB: Enter attaches it, with its
// size), or is refused saying the limits (1 MB: Escape closes the notice),
// and the window answers at once.
func TestWindowLongMessages(t *testing.T) {
	model := testutil.NewModelServer(t)
	for range 3 {
		model.Add(testutil.ModelResponse{Body: testutil.TextChunks("noted")})
	}
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil)
	box, ok := findEntry(w.screen(), "Message Deckhand")
	if !ok {
		t.Fatal("no message box")
	}
	w.click(box)
	w.typeText("line one")
	w.key("shift+Return")
	w.typeText("line two")
	w.key("Return")
	s := w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "noted") })
	if title, ok := find(s, "label", "line one"); !ok || strings.Contains(title.Text, "\n") {
		t.Errorf("the title is %q", title.Text)
	}
	if !shows(s, "line one\nline two") {
		t.Errorf("the message lost its line break:\n%s", s.ScreenText())
	}

	screenH := 800
	long := pasteText(30 << 10)
	w.setClipboard(long)
	w.click(box)
	w.key("ctrl+v")
	w.key("Return")
	s = w.waitScreen("the second answer", func(s gui.Screen) bool {
		n := 0
		for _, it := range s.Items {
			if it.Visible && strings.TrimSpace(it.Text) == "noted" {
				n++
			}
		}
		return n >= 1 && !strings.Contains(strings.Join(entryTexts(s), ""), "quick brown")
	})
	if h := w.windowHeight(); h == 0 || h > screenH {
		t.Errorf("the window is %d px tall on a %d px screen", h, screenH)
	}
	if b, ok := findEntry(s, "Message Deckhand"); !ok || b.Y+b.H > float32(screenH) {
		t.Errorf("the message box is off the screen: %+v", b)
	}
	w.keep("after-30KB-message.png")

	// 100 KB: offered as an attachment, saying the limits; Enter
	// attaches it, with its size.
	w.setClipboard(pasteText(100 << 10))
	w.click(box)
	w.key("ctrl+v")
	w.waitScreen("the offer to attach the paste", func(s gui.Screen) bool {
		return shows(s, "Attach it to the message as a text file") && shows(s, "at most 256.0 KiB")
	})
	w.keep("paste-100KB-offer.png")
	w.key("Return")
	s = w.waitScreen("the pasted text as an attachment", func(s gui.Screen) bool {
		return shows(s, "Pasted text") && shows(s, "100.0 KiB") && !shows(s, "Attach it to the message")
	})
	if strings.Contains(strings.Join(entryTexts(s), ""), "quick brown") {
		t.Errorf("100 KB went into the message box")
	}
	w.keep("paste-100KB.png")
	// 1 MB: refused, saying its size and the limits; Escape closes the
	// notice, and the keyboard is back in the message box.
	w.setClipboard(pasteText(1 << 20))
	w.click(box)
	w.key("ctrl+v")
	w.waitScreen("the 1 MB paste refused", func(s gui.Screen) bool {
		return shows(s, "(1.0 MiB) is too long") && shows(s, "an attached text file at most 256.0 KiB")
	})
	w.keep("paste-1MB.png")
	w.key("Escape")
	w.waitScreen("the notice closed", func(s gui.Screen) bool { return !shows(s, "is too long") })
	w.typeText("still here")
	w.waitScreen("typing in the message box", func(s gui.Screen) bool {
		e, ok := findEntry(s, "Message Deckhand")
		return ok && strings.Contains(e.Text, "still here")
	})
}

// entryTexts are the texts of the visible entries.
func entryTexts(s gui.Screen) []string {
	var out []string
	for _, it := range s.Items {
		if it.Visible && it.Kind == "entry" {
			out = append(out, it.Text)
		}
	}
	return out
}

// pasteText is n bytes of prose in lines.
func pasteText(n int) string {
	line := "The quick brown fox jumps over the lazy dog, then naps in the sun for a while. 0123456789\n"
	return strings.Repeat(line, n/len(line)+1)[:n]
}
