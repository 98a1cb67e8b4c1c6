package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// In a new chat, Tab and Shift+Tab between the sidebar and the message box
// stop only on things that show their focus: Shift+Tab from the box goes
// to the paperclip, then to Settings; Tab from Settings to the paperclip,
// then to the box. Both went through a stop that showed nothing between
// the paperclip and Settings, the chat's invisible stop after its empty
// list (new-user report 5, problem 10).
func TestWindowTabNewChatHasNoBlindStop(t *testing.T) {
	model := testutil.NewModelServer(t)
	w := startRealWindow(t, scriptedConfig(model.URL), nil)
	focused := func(s gui.Screen) (gui.ScreenItem, bool) {
		i := slices.IndexFunc(s.Items, func(it gui.ScreenItem) bool { return it.Window == "Deckhand" && it.Focused })
		if i < 0 {
			return gui.ScreenItem{}, false
		}
		return s.Items[i], true
	}
	isBox := func(it gui.ScreenItem) bool {
		return it.Kind == "entry" && strings.HasPrefix(it.Hint, "Message Deckhand")
	}
	// press presses key n times and says where each press put the focus
	// ("" where nothing on screen shows it).
	press := func(key string, n int) []string {
		t.Helper()
		var seen []string
		prev, _ := focused(w.screen())
		for range n {
			w.key(key)
			s := w.waitScreen(fmt.Sprintf("the focus moved by %s after %q", key, seen), func(s gui.Screen) bool {
				f, _ := focused(s)
				return f.Kind != prev.Kind || f.Text != prev.Text || f.X != prev.X || f.Y != prev.Y
			})
			f, ok := focused(s)
			switch {
			case !ok:
				seen = append(seen, "")
			case isBox(f):
				seen = append(seen, "the message box")
			default:
				seen = append(seen, f.Kind+" "+f.Text)
			}
			prev = f
		}
		return seen
	}
	box, ok := findEntry(w.screen(), "Message Deckhand")
	if !ok {
		t.Fatalf("no message box:\n%s", w.screen().ScreenText())
	}
	w.click(box)
	back := press("shift+Tab", 2)
	if back[1] != "button Settings" || back[0] == "" {
		t.Errorf("Shift+Tab from the message box went through %q, want the paperclip, then Settings", back)
	}
	if on := press("Tab", 2); on[0] == "" || on[1] != "the message box" {
		t.Errorf("Tab from Settings went through %q, want the paperclip, then the message box", on)
	}
}
