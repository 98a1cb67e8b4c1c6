package main

import (
	"fmt"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// approvalOpen starts the window with a model that calls the probe
// server's getenv, then answers with answer, and sends a message from the
// message box: the approval dialog is open when it returns.
func approvalOpen(t *testing.T, answer string) *realWindow {
	t.Helper()
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__getenv", Arguments: `{"name":"HOME"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks(answer)},
	)
	cfg := scriptedConfig(model.URL, probeServer(t))
	w := startRealWindow(t, cfg, nil)
	w.waitServerReady()
	w.say("go")
	w.waitScreen("the approval dialog", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
	return w
}

// After answering an approval with the keyboard, what the person types
// goes on into the message box (the dialog took the focus and gave it
// back).
func TestWindowFocusAfterApproval(t *testing.T) {
	w := approvalOpen(t, "denied, fine")
	w.keep("approval-open.png")
	w.key("Escape")
	w.waitScreen("the dialog gone", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return !ok })
	w.typeText("next words")
	s := w.waitScreen("the typing in the message box", func(s gui.Screen) bool {
		b, ok := findEntry(s, "Message Deckhand")
		return ok && strings.Contains(b.Text, "next words")
	})
	if f, _ := focused(s); f.Kind != "entry" || !strings.Contains(f.Hint, "Message Deckhand") {
		t.Errorf("the focus is on %s %q", f.Kind, f.Text)
	}
}

// A Space that presses the dialog's button presses it, and no more: the
// message box it gives the keyboard back to gets no space (the key's
// character comes after the key, once the box had the focus again).
func TestWindowSpaceOnADialogButton(t *testing.T) {
	w := approvalOpen(t, "allowed, fine")
	prev := ""
	for tabs := 0; prev != "Allow once"; tabs++ {
		if tabs == 6 {
			t.Fatalf("Tab never reached Allow once; the focus is on %q", prev)
		}
		w.key("Tab")
		s := w.waitScreen("the focus on the next button", func(s gui.Screen) bool {
			f, _ := focused(s)
			return f.Kind == "button" && f.Text != prev
		})
		f, _ := focused(s)
		prev = f.Text
	}
	w.key("space")
	w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "allowed, fine") })
	w.typeText("after")
	s := w.waitScreen("the typing in the message box", func(s gui.Screen) bool {
		b, ok := findEntry(s, "Message Deckhand")
		return ok && strings.Contains(b.Text, "after")
	})
	if b, _ := findEntry(s, "Message Deckhand"); b.Text != "after" {
		t.Errorf("the message box holds %q, want %q", b.Text, "after")
	}
}

// The approval shows the whole call in every window it opens in, at any
// size: in the quick prompt on a 480×360 screen, on a large one, and at
// twice the scale, no button covers the arguments, every button is inside
// the window, and the arguments are there to read.
func TestWindowApprovalFits(t *testing.T) {
	for _, c := range []struct {
		name, display string
		env           []string
	}{
		{"480x360", "480x360", nil},
		{"1920x1080", "1920x1080", nil},
		{"scale2", "1920x1080", []string{"FYNE_SCALE=2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var lines []string
			for i := range 30 {
				lines = append(lines, fmt.Sprintf("line %d of what the tool would write", i+1))
			}
			model := testutil.NewModelServer(t,
				testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__write_file",
					Arguments: fmt.Sprintf(`{"path":"notes.txt","text":%q}`, strings.Join(lines, "\n"))})},
				testutil.ModelResponse{Body: testutil.TextChunks("ok")},
			)
			cfg := scriptedConfig(model.URL, probeServer(t))
			w := startRealWindow(t, cfg, nil, withDisplay(c.display), withEnv(c.env...))
			w.waitServerReady()
			w.openQuickPrompt()
			w.typeText("write it")
			w.key("Return")
			s := w.waitScreen("the approval in the quick prompt", func(s gui.Screen) bool {
				b, ok := find(s, "button", "Always allow")
				return ok && b.Window == "Deckhand: quick prompt"
			})
			w.keep("approval-" + c.name + ".png")
			win := windowOf(s, "Deckhand: quick prompt")
			var args gui.ScreenItem
			for _, it := range s.Items {
				if it.Window == win.Title && it.Kind == "text" && it.Text == "notes.txt" {
					args = it
				}
			}
			if args.Text == "" || !args.Visible {
				t.Fatalf("the arguments are not shown:\n%s", s.ScreenText())
			}
			for _, name := range []string{"Deny", "Allow once", "Allow for this session", "Always allow"} {
				b, ok := find(s, "button", name)
				if !ok {
					t.Errorf("%s: no %q button", c.name, name)
					continue
				}
				if b.X < 0 || b.Y < 0 || b.X+b.W > win.W+1 || b.Y+b.H > win.H+1 {
					t.Errorf("%s: %q is outside the %.0f×%.0f window: %+v", c.name, name, win.W, win.H, b)
				}
				if overlaps(b, args) && !behind(args, b) {
					t.Errorf("%s: %q covers the arguments: %+v over %+v", c.name, name, b, args)
				}
				if b.W+1 < b.MinW {
					t.Errorf("%s: %q is cut: %.0f px wide, its text needs %.0f", c.name, name, b.W, b.MinW)
				}
			}
		})
	}
}

// windowOf is the window titled title.
func windowOf(s gui.Screen, title string) *gui.ScreenWindow {
	for i := range s.Windows {
		if s.Windows[i].Title == title {
			return &s.Windows[i]
		}
	}
	return nil
}

func overlaps(a, b gui.ScreenItem) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

// behind reports whether the part of args under b is scrolled out of
// view (the arguments scroll above the buttons): args runs on below the
// scroll's end, which is above b.
func behind(args, b gui.ScreenItem) bool { return args.Y < b.Y && args.Y+args.H > b.Y }
