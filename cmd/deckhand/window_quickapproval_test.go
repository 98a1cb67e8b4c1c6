package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// A quick prompt's approval is answered from the main window, as a person
// meets it at 1280x800: asked in the quick prompt after a finished answer,
// it shows there; the person clicks the main window (the quick prompt goes
// behind it, and the approval is notified), then either opens that chat
// from the sidebar, which brings the dialog along, or, with the chat
// already open there, presses its card's "Approve or deny…". The dialog is
// then in the main window and no longer in the quick prompt; Allow once
// there runs the call, the answer comes, and the notification is
// withdrawn. The card said "waiting for approval" with no way to answer,
// and a click on it did nothing.
func TestWindowQuickApprovalFromMainWindow(t *testing.T) {
	for _, how := range []string{"sidebar", "card"} {
		t.Run(how, func(t *testing.T) {
			model := testutil.NewModelServer(t,
				testutil.ModelResponse{Body: testutil.TextChunks("Hello from the quick prompt.")},
				testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__getenv", Arguments: `{"name":"HOME"}`})},
				testutil.ModelResponse{Body: testutil.TextChunks("answered from the main window")},
			)
			bus := testutil.SessionBus(t)
			w := startRealWindow(t, scriptedConfig(model.URL, probeServer(t)), nil, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))
			ctl := testutil.Dunst(t, w.display, bus, "/bin/true")
			shown := func() string { out, _ := ctl("count", "displayed"); return out }
			w.waitServerReady()
			const quick = "Deckhand: quick prompt"
			in := func(s gui.Screen, window, kind, text string) (gui.ScreenItem, bool) {
				for _, it := range s.Items {
					if it.Window == window && it.Visible && it.Kind == kind && strings.Contains(it.Text, text) {
						return it, true
					}
				}
				return gui.ScreenItem{}, false
			}
			// toMain clicks the main window beside the quick prompt (its
			// top edge: the quick prompt sits in the screen's middle), as
			// a person goes back to it.
			toMain := func() {
				t.Helper()
				w.xdo("mousemove", "--window", w.win, "500", "12")
				w.xdo("click", "1")
				testutil.Eventually(t, 10*time.Second, func() bool { return firstField(w.xdo("getactivewindow")) == w.win }, "the main window in front after a click on it")
			}
			openChat := func() {
				t.Helper()
				s := w.waitScreen("the quick chat in the sidebar", func(s gui.Screen) bool {
					_, ok := in(s, "Deckhand", "label", "quick hello there")
					return ok
				})
				it, _ := in(s, "Deckhand", "label", "quick hello there")
				w.click(it)
				w.waitScreen("the quick chat in the main window", func(s gui.Screen) bool {
					_, ok := in(s, "Deckhand", "text", "Hello from the quick prompt.")
					return ok
				})
			}

			w.openQuickPrompt()
			w.typeText("quick hello there")
			w.key("Return")
			w.waitScreen("the first answer in the quick prompt", func(s gui.Screen) bool {
				_, ok := in(s, quick, "text", "Hello from the quick prompt.")
				return ok
			})
			if how == "card" {
				// The chat open in the main window before the call asks.
				toMain()
				openChat()
				w.openQuickPrompt()
			}
			w.typeText("longcall again")
			w.key("Return")
			w.waitScreen("the approval in the quick prompt", func(s gui.Screen) bool {
				_, ok := in(s, quick, "button", "Allow once")
				return ok
			})
			toMain()
			testutil.Eventually(t, 20*time.Second, func() bool { return shown() == "1" }, "the approval notified once the main window is in front; stderr:\n%s", w.stderr)
			switch how {
			case "sidebar":
				openChat()
			case "card":
				s := w.waitScreen("the waiting card's Approve or deny…", func(s gui.Screen) bool {
					_, ok := in(s, "Deckhand", "button", "Approve or deny…")
					return ok && shows(s, "waiting for approval")
				})
				w.keep("quick-approval-waiting-card.png")
				b, _ := in(s, "Deckhand", "button", "Approve or deny…")
				w.click(b)
			}
			s := w.waitScreen("the approval in the main window", func(s gui.Screen) bool {
				_, ok := in(s, "Deckhand", "button", "Allow once")
				return ok
			})
			w.keep(fmt.Sprintf("quick-approval-in-main-%s.png", how))
			if _, ok := in(s, quick, "button", "Allow once"); ok {
				t.Errorf("the approval is open in the quick prompt too:\n%s", s.ScreenText())
			}
			b, _ := in(s, "Deckhand", "button", "Allow once")
			w.click(b)
			w.waitScreen("the call run and the answer in the main window", func(s gui.Screen) bool {
				_, answered := in(s, "Deckhand", "text", "answered from the main window")
				return answered && shows(s, "done in")
			})
			testutil.Eventually(t, 10*time.Second, func() bool { return shown() == "0" }, "the notification withdrawn once answered in the main window")
		})
	}
}

// The reverse: a call of the main window's chat asks while the person is
// at the quick prompt, in front of the main window. Its dialog opens on the
// main window, behind, and is notified (it waited there unseen until it
// timed out); a click on the notification brings the main window to the
// front, at the dialog, and Allow once there runs the call.
func TestWindowMainApprovalWhileAtQuickPrompt(t *testing.T) {
	model := testutil.NewModelServer(t,
		// The delay leaves time to bring up the quick prompt.
		testutil.ModelResponse{Delay: 3 * time.Second, Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "p__getenv", Arguments: `{"name":"HOME"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("answered in the main window")},
	)
	bus := testutil.SessionBus(t)
	w := startRealWindow(t, scriptedConfig(model.URL, probeServer(t)), nil, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))
	ctl := testutil.Dunst(t, w.display, bus, "/bin/true")
	shown := func() string { out, _ := ctl("count", "displayed"); return out }
	w.waitServerReady()
	w.say("from the main window")
	w.openQuickPrompt()
	s := w.waitScreen("the approval", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
	if b, _ := find(s, "button", "Allow once"); b.Window != "Deckhand" {
		t.Errorf("the main window's approval opened on %q", b.Window)
	}
	testutil.Eventually(t, 20*time.Second, func() bool { return shown() == "1" }, "the approval notified while the quick prompt is in front; stderr:\n%s", w.stderr)
	if out, err := ctl("action", "0"); err != nil {
		t.Fatalf("dunstctl action: %v %s", err, out)
	}
	testutil.Eventually(t, 10*time.Second, func() bool { return firstField(w.xdo("getactivewindow")) == w.win }, "the main window in front after a click on the notification")
	w.clickText("button", "Allow once")
	w.waitScreen("the call run and the answer", func(s gui.Screen) bool { return shows(s, "answered in the main window") && shows(s, "done in") })
	testutil.Eventually(t, 10*time.Second, func() bool { return shown() == "0" }, "the notification withdrawn once answered")
}
