package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"deckhand/gui"
	"deckhand/testutil"
)

// An answer's hover info (its model and tokens) goes when the tray's menu
// opens: the pointer went from the header to the tray, the window kept the
// focus, and Fyne, which sends no event when the pointer leaves a window,
// left the info beside the open menu. The tray host says it opened the
// menu as KDE Plasma's does (libdbusmenu-qt): com.canonical.dbusmenu's
// Event "opened" on the menu's root, sent here with dbus-send to the item
// Deckhand exports on a real session bus.
func TestWindowAnswerInfoGoesWhenTrayMenuOpens(t *testing.T) {
	if !hasProgram("xdotool") || !hasProgram("dbus-send") {
		t.Skip("no xdotool or dbus-send")
	}
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("A short answer to hover over.")})
	bus := testutil.SessionBus(t)
	w := startRealWindow(t, scriptedConfig(model.URL), nil, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus))
	w.say("say something")
	s := w.waitScreen("the answer", func(s gui.Screen) bool { return shows(s, "A short answer to hover over.") && !shows(s, "Stop") })

	infoShown := func(s gui.Screen) bool {
		for _, it := range s.Items {
			if it.Visible && strings.HasPrefix(it.Text, "scripted · ") {
				return true
			}
		}
		return false
	}
	// The answer's header: its author, "Deckhand".
	var who gui.ScreenItem
	for _, it := range s.Items {
		if it.Window == "Deckhand" && it.Visible && it.Kind == "label" && it.Text == "Deckhand" {
			who = it
		}
	}
	if who.W == 0 {
		t.Fatalf("no answer header:\n%s", s.ScreenText())
	}
	x, y := int(who.X+who.W/2), int(who.Y+who.H/2)
	w.xdo("mousemove", "--sync", "--window", w.win, fmt.Sprint(x), fmt.Sprint(y))
	time.Sleep(200 * time.Millisecond) // a hand comes to rest
	w.xdo("mousemove", "--sync", "--window", w.win, fmt.Sprint(x+3), fmt.Sprint(y))
	w.waitScreen("the answer's info on hover", infoShown)

	// The pointer goes to the tray, at the screen's top-right corner, past
	// the window's edge: nothing tells the window.
	w.xdo("mousemove", "--sync", "1275", "4")
	time.Sleep(300 * time.Millisecond)
	if !infoShown(w.screen()) {
		t.Fatal("the info went when the pointer left the window, before the tray's menu opened: the test no longer tests the tray")
	}
	// The host opens the menu and says so.
	item := fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", w.cmd.Process.Pid)
	testutil.Eventually(t, 20*time.Second, func() bool {
		return dbusSend(bus, "--print-reply", "--dest="+item, "/StatusNotifierItem/menu", "com.canonical.dbusmenu.GetLayout",
			"int32:0", "int32:-1", "array:string:") == nil
	}, "Deckhand's tray menu on the bus (%s)", item)
	if err := dbusSend(bus, "--print-reply", "--dest="+item, "/StatusNotifierItem/menu", "com.canonical.dbusmenu.Event",
		"int32:0", "string:opened", "variant:int32:0", "uint32:0"); err != nil {
		t.Fatalf("the dbusmenu Event: %v", err)
	}
	w.waitScreen("no info once the tray's menu opened", func(s gui.Screen) bool { return !infoShown(s) })
	w.keep("hover-tray-menu-opened.png")
}

// dbusSend runs dbus-send on the session bus at address bus.
func dbusSend(bus string, args ...string) error {
	c := exec.Command("dbus-send", append([]string{"--session"}, args...)...)
	c.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+bus)
	out, err := c.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}
