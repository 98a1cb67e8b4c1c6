package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// server-everything's elicitation tool, answered in the window: the form
// opens once the call is allowed; Accept with a required field empty says
// what is missing, under the form (and nothing shown is left unsized, as
// every screen read checks); filled in, the server gets the answers. On a
// large screen and on a small one, where the form fits the window rather
// than pushing it past the screen's edge.
func TestWindowElicitationForm(t *testing.T) {
	for _, display := range []string{"", "640x480"} {
		name := display
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) { elicitationForm(t, display) })
	}
}

func elicitationForm(t *testing.T, display string) {
	p := testutil.RequirePeers(t)
	mock := testutil.StartAIMock(t, p, filepath.Join(testutil.ModuleRoot(t), "cmd", "deckhand", "testdata", "aimock"))
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"gpt-4o-mini\"\n\n[tools]\nenabled = false\n\n[mcp.servers.ev]\ncommand = %q\nargs = [%q, \"stdio\"]\n",
		mock.URL, p.Node, p.Everything)
	var opts []windowOption
	if display != "" {
		opts = append(opts, withDisplay(display))
	}
	w := startRealWindow(t, cfg, nil, opts...)
	w.waitServerReady()
	w.typeText("ask me a question")
	w.key("Return")
	w.waitScreen("the approval", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
	w.clickText("button", "Allow once")
	s := w.waitScreen("the form", func(s gui.Screen) bool { _, ok := find(s, "button", "Accept"); return ok })
	w.keep("elicit-form-" + display + ".png")
	if !shows(s, "legal name") {
		t.Fatalf("the form does not ask for the name:\n%s", s.ScreenText())
	}
	// Tab goes down the form with the focus in sight: new-user pass 12
	// tabbed below the fold with nothing coming into view.
	var last gui.ScreenItem
	for i := 1; i <= 14; i++ {
		w.key("Tab")
		s = w.waitScreen(fmt.Sprintf("the focus moved by Tab %d", i), func(s gui.Screen) bool {
			f, ok := focused(s)
			return ok && (f.Kind != last.Kind || f.Text != last.Text || f.X != last.X || f.Y != last.Y)
		})
		last, _ = focused(s)
		if !last.Visible {
			t.Errorf("Tab %d: the focus is on %s %q, out of sight (y=%.0f)", i, last.Kind, last.Text, last.Y)
		}
	}
	w.keep("elicit-tabbed-" + display + ".png")
	w.clickText("button", "Accept")
	s = w.waitScreen("what is missing", func(s gui.Screen) bool {
		for _, it := range s.Items {
			if it.Visible && it.Kind == "label" && strings.HasSuffix(it.Text, " is required.") {
				return true
			}
		}
		return false
	})
	w.keep("elicit-missing-" + display + ".png")
	// The focus went to the field that is missing.
	if f, ok := focused(s); !ok || f.Kind != "entry" {
		t.Fatalf("the focus is on %+v, not the missing field:\n%s", f, s.ScreenText())
	}
	w.typeText("Ada Lovelace")
	w.clickText("button", "Accept")
	w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "Thanks for answering") })
	sent := strings.Join(toolResultsSent(t, mock), "\n")
	if !strings.Contains(sent, "Ada Lovelace") {
		t.Errorf("the server did not get the name; tool results:\n%s", sent)
	}
}

// Typing "/" lists the servers' prompts above the message box, narrowed as
// one types on; they go when the "/" does and come back with the next one
// (each screen read checks they are laid out, not merely shown); a click
// on one with no arguments puts its text in the box, with the caret after
// it.
func TestWindowSlashPrompts(t *testing.T) {
	p := testutil.RequirePeers(t)
	cfg := fmt.Sprintf("[model]\nbase_url = \"http://127.0.0.1:9/v1\"\nname = \"m\"\n\n[tools]\nenabled = false\n\n[mcp.servers.ev]\ncommand = %q\nargs = [%q, \"stdio\"]\n",
		p.Node, p.Everything)
	w := startRealWindow(t, cfg, nil)
	w.waitServerReady()
	suggested := func(s gui.Screen, prefix string) bool { _, ok := find(s, "button", prefix); return ok }
	for round := 1; round <= 2; round++ {
		w.typeText("/")
		w.waitScreen(fmt.Sprintf("the prompts, round %d", round), func(s gui.Screen) bool {
			return suggested(s, "/ev.simple-prompt") && suggested(s, "/ev.args-prompt")
		})
		w.typeText("simple")
		w.waitScreen("the prompts narrowed", func(s gui.Screen) bool {
			return suggested(s, "/ev.simple-prompt") && !suggested(s, "/ev.args-prompt")
		})
		w.key("ctrl+a", "BackSpace")
		w.waitScreen("no prompts", func(s gui.Screen) bool { return !suggested(s, "/ev.") })
	}
	w.typeText("/simple")
	w.clickText("button", "/ev.simple-prompt")
	w.waitScreen("the prompt's text in the box", func(s gui.Screen) bool {
		for _, it := range s.Items {
			if it.Kind == "entry" && strings.Contains(it.Text, "This is a simple prompt") {
				return true
			}
		}
		return false
	})
	w.typeText(" Then more.")
	w.waitScreen("typing on after the prompt's text", func(s gui.Screen) bool {
		for _, it := range s.Items {
			if it.Kind == "entry" && strings.HasSuffix(strings.TrimSpace(it.Text), "without arguments. Then more.") {
				return true
			}
		}
		return false
	})
	w.keep("slash-prompt.png")
}

// A hostile server whose one call asks 500 "enter your password" forms at
// once, and goes on asking after the call has ended, does not take over
// the window: one question at a time (no "1 of 495"), at most 3 a call
// (the others declined unseen), marked as asking for a secret (typed
// masked), none shown after the call has ended, and "Stop asking" refuses
// the rest of the server's questions.
func TestWindowElicitationFlood(t *testing.T) {
	logDir := t.TempDir()
	answers := fileText(filepath.Join(logDir, "answers"))
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "s__ask_secret", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("first done")},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "b", Name: "s__ask_secret", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("second done")},
	)
	cfg := scriptedConfig(model.URL, fmt.Sprintf("[mcp.servers.s]\ncommand = %q\nargs = [\"-ask\", \"500\", \"-ask-log\", %q]\nwrite = [%q]\n",
		stdioServerBin(t), string(answers), logDir))
	w := startRealWindow(t, cfg, nil)
	w.waitServerReady()
	question := func(s gui.Screen) bool { _, ok := find(s, "button", "Decline"); return ok }
	ask := func(msg string) gui.Screen {
		w.say(msg)
		w.waitScreen("the approval", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
		w.clickText("button", "Allow once")
		s := w.waitScreen("the question", question)
		if !shows(s, "Warning: this form asks for a password, token or key") {
			t.Errorf("the password form is not marked:\n%s", s.ScreenText())
		}
		if strings.Contains(s.ScreenText(), "A server asks (") {
			t.Errorf("more than one question is queued in the window:\n%s", s.ScreenText())
		}
		if _, ok := find(s, "button", "Stop asking"); !ok {
			t.Errorf("no Stop asking:\n%s", s.ScreenText())
		}
		return s
	}

	ask("ask me")
	w.keep("elicit-flood.png")
	w.key("Return") // into the field
	w.typeText("hunter2")
	w.key("Return") // sends the form
	s := w.waitScreen("the call's end", func(s gui.Screen) bool { return shows(s, "first done") })
	testutil.Eventually(t, wait, func() bool { return strings.Contains(answers.read(), "after decline=20") }, "the questions after the call: %s", answers)
	s = w.screen()
	if question(s) {
		t.Errorf("a question is still shown after the call has ended:\n%s", s.ScreenText())
	}
	if shows(s, "hunter2") {
		t.Errorf("the password shows on the screen:\n%s", s.ScreenText())
	}
	if got := answers.read(); !strings.Contains(got, "during accept hunter2=1") || !strings.Contains(got, "during decline=497") || !strings.Contains(got, "during cancel=2") {
		t.Errorf("the questions during the call were answered: %s; want one accepted, 497 declined unseen, 2 cancelled when the call ended", got)
	}

	ask("again")
	w.clickText("button", "Stop asking")
	w.waitScreen("the second call's end", func(s gui.Screen) bool { return shows(s, "second done") })
	testutil.Eventually(t, wait, func() bool { return strings.Contains(answers.read(), "after decline=40") }, "the questions after the second call: %s", answers)
	if got := answers.read(); !strings.Contains(got, "during decline=997") {
		t.Errorf("after Stop asking: %s; want every other question of the second call declined", got)
	}
	if s := w.screen(); question(s) {
		t.Errorf("a question is shown after Stop asking:\n%s", s.ScreenText())
	}
}
