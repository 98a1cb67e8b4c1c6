package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// An approval asked while another window is in front comes as a desktop
// notification that does something, on a real session bus with dunst:
// Allow once chosen in it runs the call; answered in the window, it is
// withdrawn; a click on its body brings Deckhand to the front at the
// dialog. Dunst offers a notification's actions in its context menu
// (dmenu), here a script choosing the line that names the action.
func TestWindowApprovalNotification(t *testing.T) {
	if _, err := exec.LookPath("display"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ImageMagick's display is missing under CI (make test installs imagemagick)")
		}
		t.Skip("no ImageMagick display, for another window in front")
	}
	call := func(id, name string) testutil.ModelResponse {
		// The delay leaves time to put another window in front.
		return testutil.ModelResponse{Delay: 2 * time.Second, Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: id, Name: "p__getenv", Arguments: fmt.Sprintf(`{"name":%q}`, name)})}
	}
	model := testutil.NewModelServer(t,
		call("a", "HOME"), testutil.ModelResponse{Body: testutil.TextChunks("first answered")},
		call("b", "USER"), testutil.ModelResponse{Body: testutil.TextChunks("second answered")},
		call("c", "LANG"), testutil.ModelResponse{Body: testutil.TextChunks("third answered")},
	)
	bus := testutil.SessionBus(t)
	cfg := scriptedConfig(model.URL, probeServer(t))
	w := startRealWindow(t, cfg, nil, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))

	dir := t.TempDir()
	want, seen := filepath.Join(dir, "want"), filepath.Join(dir, "menu")
	dmenu := filepath.Join(dir, "dmenu")
	os.WriteFile(dmenu, []byte(fmt.Sprintf("#!/bin/sh\ntee %q | grep -F -- \"$(cat %q)\" | head -n1\n", seen, want)), 0o755)
	ctl := testutil.Dunst(t, w.display, bus, dmenu)
	shown := func() string { out, _ := ctl("count", "displayed"); return out }
	// The model calls the server's tool in its first request, which has
	// the tool only once the server is ready: sent before (the server
	// slow to start under load), the call was refused as no such tool,
	// nothing asked for approval, and no notification came.
	w.waitServerReady()

	// Another application, in front while Deckhand works.
	otherWin := w.otherWindow()
	nc := notifyCheck{w: w, ctl: ctl, model: model, other: otherWin}
	asked := 0
	ask := func(text string) {
		t.Helper()
		w.xdo("windowactivate", "--sync", w.win)
		testutil.Eventually(t, 10*time.Second, func() bool { return firstField(w.xdo("getactivewindow")) == w.win }, "Deckhand in front")
		box := w.waitScreen("the message box", func(s gui.Screen) bool { _, ok := findEntry(s, "Message Deckhand"); return ok })
		b, _ := findEntry(box, "Message Deckhand")
		w.click(b)
		w.typeText(text)
		w.key("Return")
		w.xdo("windowactivate", "--sync", otherWin)
		asked++
		// Each ask is two requests (the call, then the answer after it).
		nc.wait(20*time.Second, func() bool { return model.Count() >= 2*asked-1 }, fmt.Sprintf("ask %q: the message sent to the model", text))
		nc.wait(20*time.Second, func() bool { return shown() == "1" }, fmt.Sprintf("ask %q: the approval's notification", text))
	}

	// 1. Allow once, from the notification.
	ask("first")
	os.WriteFile(want, []byte("Allow once"), 0o600)
	if out, err := ctl("context"); err != nil {
		t.Fatalf("dunstctl context: %v %s", err, out)
	}
	w.waitScreen("the first call run and answered", func(s gui.Screen) bool { return shows(s, "first answered") })
	menu, _ := os.ReadFile(seen)
	if m := string(menu); !strings.Contains(m, "Deny") || !strings.Contains(m, "Allow once") || strings.Contains(m, "Always") || strings.Contains(m, "session") {
		t.Errorf("the notification offers, in dunst's menu:\n%s\nwant Allow once and Deny, never a grant", m)
	}
	nc.wait(10*time.Second, func() bool { return shown() == "0" }, "the answered notification gone")
	if a := firstField(w.xdo("getactivewindow")); a != otherWin {
		t.Errorf("answering from the notification raised window %s over the one in front (%s)", a, otherWin)
	}

	// 2. Answered in the window: the notification is withdrawn.
	ask("second")
	w.xdo("windowactivate", "--sync", w.win)
	w.waitScreen("the approval dialog", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
	w.key("Escape") // Deny
	w.waitScreen("the second answered", func(s gui.Screen) bool { return shows(s, "second answered") })
	nc.wait(10*time.Second, func() bool { return shown() == "0" }, "the notification withdrawn once answered in the window")

	// 3. A click on the body brings Deckhand to the front, at the dialog.
	ask("third")
	w.keep("approval-notification.png")
	if out, err := ctl("action", "0"); err != nil {
		t.Fatalf("dunstctl action: %v %s", err, out)
	}
	testutil.Eventually(t, 10*time.Second, func() bool { return firstField(w.xdo("getactivewindow")) == w.win }, "Deckhand in front after a click on the notification")
	w.clickText("button", "Allow once")
	w.waitScreen("the third answered", func(s gui.Screen) bool { return shows(s, "third answered") })
	nc.wait(10*time.Second, func() bool { return shown() == "0" }, "the notification gone")
}

// An approval already on screen is notified as soon as the person looks
// away: when another window comes in front, and when Deckhand is
// minimized (it was notified only when it came while Deckhand was behind,
// and timed out unseen). Answered in the window, it is withdrawn.
func TestWindowApprovalNotifiedWhenLeft(t *testing.T) {
	if _, err := exec.LookPath("display"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ImageMagick's display is missing under CI (make test installs imagemagick)")
		}
		t.Skip("no ImageMagick display, for another window in front")
	}
	call := func(id, name string) testutil.ModelResponse {
		return testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: id, Name: "p__getenv", Arguments: fmt.Sprintf(`{"name":%q}`, name)})}
	}
	model := testutil.NewModelServer(t,
		call("a", "HOME"), testutil.ModelResponse{Body: testutil.TextChunks("first answered")},
		call("b", "USER"), testutil.ModelResponse{Body: testutil.TextChunks("second answered")},
	)
	bus := testutil.SessionBus(t)
	cfg := scriptedConfig(model.URL, probeServer(t))
	w := startRealWindow(t, cfg, nil, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))
	ctl := testutil.Dunst(t, w.display, bus, "/bin/true")
	shown := func() string { out, _ := ctl("count", "displayed"); return out }
	w.waitServerReady() // the model's first request needs the server's tool

	otherWin := w.otherWindow()
	nc := notifyCheck{w: w, ctl: ctl, model: model, other: otherWin}
	// The window manager gives a new window the focus once it is mapped,
	// which may come after Deckhand was brought in front (the typing then
	// went to the other window): have that happen first.
	w.xdo("windowactivate", "--sync", otherWin)

	// ask sends text with Deckhand in front, and waits for the approval's
	// dialog, which is not notified while Deckhand is in front.
	ask := func(text string) {
		t.Helper()
		w.xdo("windowactivate", "--sync", w.win)
		testutil.Eventually(t, 10*time.Second, func() bool { return firstField(w.xdo("getactivewindow")) == w.win }, "Deckhand in front")
		box := w.waitScreen("the message box", func(s gui.Screen) bool { _, ok := findEntry(s, "Message Deckhand"); return ok })
		b, _ := findEntry(box, "Message Deckhand")
		w.click(b)
		w.typeText(text)
		w.key("Return")
		w.waitScreen("the approval dialog", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
		if n := shown(); n != "0" {
			t.Errorf("%s notification(s) while Deckhand is in front, want 0", n)
		}
	}

	// 1. Another window comes in front.
	ask("first")
	w.xdo("windowactivate", "--sync", otherWin)
	nc.wait(20*time.Second, func() bool { return shown() == "1" }, "the approval notified once another window is in front")
	w.xdo("windowactivate", "--sync", w.win)
	w.clickText("button", "Allow once")
	w.waitScreen("the first answered", func(s gui.Screen) bool { return shows(s, "first answered") })
	nc.wait(10*time.Second, func() bool { return shown() == "0" }, "the notification withdrawn once answered")

	// 2. Deckhand minimized.
	ask("second")
	restore := w.minimize()
	nc.wait(20*time.Second, func() bool { return shown() == "1" }, "the approval notified once Deckhand is minimized")
	restore()
	w.clickText("button", "Allow once")
	w.waitScreen("the second answered", func(s gui.Screen) bool { return shows(s, "second answered") })
	nc.wait(10*time.Second, func() bool { return shown() == "0" }, "the notification withdrawn once answered")
}

// A server's question already on screen is notified too when Deckhand is
// minimized, and so is the approval of the call that asks it; restored,
// their dialogs still answer: Allow once runs the call, Decline reaches
// the server, and each notification is withdrawn.
func TestWindowQuestionNotifiedWhenLeft(t *testing.T) {
	p := testutil.RequirePeers(t)
	mock := testutil.StartAIMock(t, p, filepath.Join(testutil.ModuleRoot(t), "cmd", "deckhand", "testdata", "aimock"))
	bus := testutil.SessionBus(t)
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nname = \"gpt-4o-mini\"\n\n[tools]\nenabled = false\n\n[mcp.servers.ev]\ncommand = %q\nargs = [%q, \"stdio\"]\n",
		mock.URL, p.Node, p.Everything)
	w := startRealWindow(t, cfg, nil, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))
	ctl := testutil.Dunst(t, w.display, bus, "/bin/true")
	shown := func() string { out, _ := ctl("count", "displayed"); return out }
	nc := notifyCheck{w: w, ctl: ctl}
	w.waitServerReady()
	w.typeText("ask me a question")
	w.key("Return")

	// The call's approval.
	w.waitScreen("the approval", func(s gui.Screen) bool { _, ok := find(s, "button", "Allow once"); return ok })
	restore := w.minimize()
	nc.wait(20*time.Second, func() bool { return shown() == "1" }, "the approval notified once Deckhand is minimized")
	restore()
	w.clickText("button", "Allow once")

	// The server's question.
	w.waitScreen("the form", func(s gui.Screen) bool { _, ok := find(s, "button", "Accept"); return ok })
	nc.wait(10*time.Second, func() bool { return shown() == "0" }, "the approval's notification withdrawn once allowed")
	restore = w.minimize()
	nc.wait(20*time.Second, func() bool { return shown() == "1" }, "the question notified once Deckhand is minimized")
	restore()
	w.clickText("button", "Decline")
	w.waitScreen("the question declined and the answer in", func(s gui.Screen) bool {
		_, open := find(s, "button", "Decline")
		return !open && shows(s, "Thanks for answering")
	})
	sent := strings.Join(toolResultsSent(t, mock), "\n")
	if !strings.Contains(strings.ToLower(sent), "decline") {
		t.Errorf("the server did not get the decline; tool results:\n%s", sent)
	}
	nc.wait(10*time.Second, func() bool { return shown() == "0" }, "the question's notification withdrawn once declined")
}

// otherWindow opens another application's window (ImageMagick's display)
// on the window's display, and returns its X id once it is mapped.
func (w *realWindow) otherWindow() string {
	w.t.Helper()
	other := exec.Command("display", "-title", "Another application", "-size", "700x400", "xc:#dde3ea")
	other.Env = append(os.Environ(), "DISPLAY="+w.display)
	if err := other.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	var id string
	testutil.Eventually(w.t, 20*time.Second, func() bool {
		id = firstField(w.xdo("search", "--name", "^Another application$"))
		return id != ""
	}, "the other window")
	// The window is found before it is mapped (by up to a tenth of a
	// second unloaded); once mapped the window manager gives it the focus,
	// which came after Deckhand was brought in front, and the typing went
	// to it (TestWindowApprovalNotifiedWhenLeft once). Wait for that first
	// focus.
	testutil.Eventually(w.t, 20*time.Second, func() bool { return firstField(w.xdo("getactivewindow")) == id },
		"the other window (%s) in front once mapped (in front: %s)", id, w.xdo("getactivewindow"))
	return id
}

// notifyCheck says, when a notification test fails, which step it was
// and what the person would have seen: what the window shows (the
// approval's dialog up? the message sent?), the window in front, what
// the model was asked, Deckhand's stderr and dunst's state.
type notifyCheck struct {
	w     *realWindow
	ctl   func(args ...string) (string, error)
	model *testutil.ModelServer
	other string // the other application's window
}

// wait polls cond until timeout, then fails the test saying what and the
// state of everything.
func (c notifyCheck) wait(timeout time.Duration, cond func() bool, what string) {
	c.w.t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			c.fail(fmt.Sprintf("after %v: %s", timeout, what))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c notifyCheck) fail(what string) {
	c.w.t.Helper()
	t := c.w.t
	count, err := c.ctl("count")
	history, _ := c.ctl("history")
	if len(history) > 4000 {
		history = history[:4000] + "…"
	}
	front := firstField(c.w.xdo("getactivewindow"))
	who := "neither"
	switch front {
	case c.w.win:
		who = "Deckhand"
	case c.other:
		who = "the other application"
	}
	var asked string
	if c.model != nil {
		asked = fmt.Sprintf("%d request(s)", c.model.Count())
	}
	// Said before the screen is read, which may fail the test on its own.
	t.Logf("%s\nin front: %s (%s; Deckhand is %s, the other %s)\nthe model got %s\ndunstctl count (%v):\n%s\ndunstctl history:\n%s\nDeckhand's stderr:\n%s",
		what, front, who, c.w.win, c.other, asked, err, count, history, c.w.stderr)
	c.w.keep("notification-missing.png")
	s := c.w.screen()
	_, dialog := find(s, "button", "Allow once")
	f, _ := focused(s)
	t.Fatalf("%s; the approval's dialog up in the window: %v; the focus on %s %q; the window shows:\n%s",
		what, dialog, f.Kind, f.Text+f.Hint, s.ScreenText())
}
