package main

import (
	"fmt"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// The X11 primary selection, as a Linux desktop has it: a drag across the
// blocks of an answer puts in PRIMARY exactly what Ctrl+C then copies
// (read by another program, xclip); right-click ▸ Select all puts the
// whole message there; and a middle click at the start of the message
// box pastes what another program holds in PRIMARY there, before the
// text typed, not at the caret after it.
func TestWindowPrimarySelection(t *testing.T) {
	needPrograms(t, "xdotool", "xclip")
	answer := "Here is a short paragraph that introduces the steps.\n\n" +
		"- first item\n- second item\n\n" +
		"```sh\necho one\necho two\n```"
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks(answer)})
	w := startRealWindow(t, scriptedConfig(model.URL), nil)
	w.say("show me")
	s := w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "echo two") && shows(s, "second item") })
	para, _ := find(s, "text", "Here is a short")
	list, _ := find(s, "text", "second item")
	code, _ := find(s, "text", "echo one")
	if got := w.selection("primary"); got != "" {
		t.Fatalf("before any selection, PRIMARY holds %q", got)
	}

	// From the paragraph's start to the end of the code's first line.
	w.drag(para.Window, para.X+1, para.Y+para.H/2, code.X+code.W-2, code.Y+code.H/4)
	want := "Here is a short paragraph that introduces the steps.\n\n" +
		"• first item\n• second item\n\n" +
		"echo one"
	var primary string
	testutil.Eventually(t, 5*time.Second, func() bool { primary = w.selection("primary"); return primary != "" },
		"PRIMARY holds nothing after the drag")
	if copied := w.copied("the drag"); copied != want || primary != w.lastClip {
		t.Errorf("after a drag from the paragraph into the code, PRIMARY holds %q and Ctrl+C copied %q, want both %q", primary, w.lastClip, want)
	}

	// Right-click in the list ▸ Select all: the whole message.
	w.click(list, "3")
	w.clickText("menuitem", "Select all")
	want = "Here is a short paragraph that introduces the steps.\n\n" +
		"• first item\n• second item\n\n" +
		"echo one\necho two"
	testutil.Eventually(t, 5*time.Second, func() bool { primary = w.selection("primary"); return primary == want },
		"after Select all, PRIMARY holds %q, want %q", lazyString(func() string { return primary }), want)

	// Another program's PRIMARY, pasted with a middle click at the start
	// of the message box, where "hello world" was typed.
	box, _ := findEntry(w.screen(), "Message Deckhand")
	w.click(box)
	w.typeText("hello world")
	w.waitScreen("the typed text", func(s gui.Screen) bool { e, _ := findEntry(s, "Message Deckhand"); return e.Text == "hello world" })
	w.setSelection("primary", "pasted ")
	w.xdo("mousemove", "--sync", "--window", w.win, fmt.Sprint(int(box.X+3)), fmt.Sprint(int(box.Y+16)))
	w.xdo("click", "2")
	w.waitScreen("the middle click's paste", func(s gui.Screen) bool {
		e, _ := findEntry(s, "Message Deckhand")
		return e.Text == "pasted hello world"
	})
}

// lazyString is text made when printed (a failure's message).
type lazyString func() string

func (l lazyString) String() string { return l() }
