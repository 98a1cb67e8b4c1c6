package notify

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"deckhand/testutil"
)

// A notification server that is not a fake: dunst on a session bus of the
// test's own, on a virtual display. Its context menu (where dunst offers a
// notification's actions) runs a script in place of dmenu, which chooses
// the line naming the action the test wants.
func dunst(t *testing.T) (ctl func(...string) (string, error), choose func(label string), menu func() string) {
	t.Helper()
	display := testutil.Xvfb(t, "800x600")
	bus := testutil.SessionBus(t)
	dir := t.TempDir()
	want, seen := filepath.Join(dir, "want"), filepath.Join(dir, "menu")
	script := filepath.Join(dir, "dmenu")
	os.WriteFile(script, []byte(fmt.Sprintf("#!/bin/sh\ntee %q | grep -F -- \"$(cat %q)\" | head -n1\n", seen, want)), 0o755)
	ctl = testutil.Dunst(t, display, bus, script)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
	choose = func(label string) { os.WriteFile(want, []byte(label), 0o600) }
	menu = func() string { b, _ := os.ReadFile(seen); return string(b) }
	return ctl, choose, menu
}

func displayed(t *testing.T, ctl func(...string) (string, error)) string {
	out, err := ctl("count", "displayed")
	if err != nil {
		t.Fatalf("dunstctl count: %v: %s", err, out)
	}
	return out
}

func TestActionsWithdrawAndEscape(t *testing.T) {
	ctl, choose, menu := dunst(t)
	n, err := Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if !n.Actions() {
		t.Fatalf("dunst shows actions, but the capabilities say no: %v", n.caps)
	}
	chosen := make(chan string, 4)
	closed := make(chan struct{}, 4)
	send := func(body string) uint32 {
		id, err := n.Send(Notification{
			Title: "Deckhand: allow it?", Body: body, Urgency: Critical, Expire: -1,
			Actions:  []Action{{DefaultAction, "Open Deckhand"}, {"deny", "Deny"}, {"allow", "Allow once"}},
			OnAction: func(k string) { chosen <- k },
			OnClosed: func() { closed <- struct{}{} },
		})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	got := func(what string) string {
		select {
		case k := <-chosen:
			return k
		case <-time.After(10 * time.Second):
			t.Fatalf("no action after %s", what)
		}
		return ""
	}

	// A click on the body is the default action.
	send("Tool \"echo\" on the untrusted server \"p\"")
	testutil.Eventually(t, 10*time.Second, func() bool { return displayed(t, ctl) == "1" }, "the notification shown")
	if out, err := ctl("action", "0"); err != nil {
		t.Fatalf("dunstctl action: %v: %s", err, out)
	}
	if k := got("a click"); k != DefaultAction {
		t.Errorf("a click on the body invoked %q, want %q", k, DefaultAction)
	}

	// An action chosen from dunst's menu.
	choose("Allow once")
	send("second")
	testutil.Eventually(t, 10*time.Second, func() bool { return displayed(t, ctl) != "0" }, "the second notification shown")
	if out, err := ctl("context"); err != nil {
		t.Fatalf("dunstctl context: %v: %s", err, out)
	}
	if k := got("choosing Allow once"); k != "allow" {
		t.Errorf("choosing Allow once invoked %q; the menu was:\n%s", k, menu())
	}

	// Withdrawn: gone from the screen, and OnClosed is called.
	for len(closed) > 0 {
		<-closed
	}
	ctl("close-all")
	id := send("third, to be withdrawn <b>not bold</b> & <a href=\"https://evil.example\">a link</a>")
	testutil.Eventually(t, 10*time.Second, func() bool { return displayed(t, ctl) == "1" }, "the third notification shown")
	n.Withdraw(id)
	testutil.Eventually(t, 10*time.Second, func() bool { return displayed(t, ctl) == "0" }, "the withdrawn notification gone")
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Error("withdrawn, but OnClosed was not called")
	}
	// Markup in the body is shown as written, not drawn: what dunst got
	// (its history keeps it) is the text escaped, and dunst draws markup.
	hist, _ := ctl("history")
	if !strings.Contains(hist, `&lt;b&gt;not bold&lt;/b&gt; &amp; &lt;a href=&quot;https://evil.example&quot;&gt;`) || strings.Contains(hist, "<a href") {
		t.Errorf("the body's markup reached dunst unescaped; its history:\n%s", hist)
	}
	// So is a title's: the spec has no markup in titles, so it is sent as
	// written, and dunst escapes it into its own markup.
	send("x")
	n.Send(Notification{Title: "<i>tilted</i> & <a href='https://evil.example'>t</a>", Body: "b", Expire: -1})
	testutil.Eventually(t, 10*time.Second, func() bool { return displayed(t, ctl) == "2" }, "two more shown")
	ctl("close-all")
	hist, _ = ctl("history")
	if !strings.Contains(hist, "<b>&lt;i&gt;tilted&lt;/i&gt; &amp; &lt;a href=") {
		t.Errorf("the title's markup reached dunst as markup; its history:\n%s", hist)
	}
}

// Close withdraws what is still shown: nobody is left to answer it.
func TestCloseWithdrawsAll(t *testing.T) {
	ctl, _, _ := dunst(t)
	n, err := Connect()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := n.Send(Notification{Title: fmt.Sprint("n", i), Body: "b", Expire: -1}); err != nil {
			t.Fatal(err)
		}
	}
	testutil.Eventually(t, 10*time.Second, func() bool { return displayed(t, ctl) == "3" }, "three shown")
	n.Close()
	testutil.Eventually(t, 10*time.Second, func() bool { return displayed(t, ctl) == "0" }, "all withdrawn on Close")
	if _, err := n.Send(Notification{Title: "late"}); err == nil {
		t.Error("Send after Close succeeded")
	}
}

func TestConnectWithoutServer(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", testutil.SessionBus(t))
	if _, err := Connect(); err == nil || !strings.Contains(err.Error(), "no notification server") {
		t.Errorf("Connect on a bus without a notification server: %v", err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")
	if _, err := Connect(); err == nil || !strings.Contains(err.Error(), "session bus") {
		t.Errorf("Connect without a bus: %v", err)
	}
}

func TestEscapeMarkup(t *testing.T) {
	if got := escapeMarkup(`<a href="x">&</a>`); got != "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;" {
		t.Errorf("escapeMarkup: %q", got)
	}
}

// fakeServer owns the notification server's name on conn, answering
// GetCapabilities and Notify.
type fakeServer struct{}

func (fakeServer) GetCapabilities() ([]string, *dbus.Error) { return []string{"body"}, nil }
func (fakeServer) Notify(string, uint32, string, string, string, []string, map[string]dbus.Variant, int32) (uint32, *dbus.Error) {
	return 7, nil
}

// A server that left the bus after Deckhand connected (one restarting):
// Send says it showed nothing (ErrNotShown), so it can be sent again on
// a new connection once a server is back, and it is.
func TestSendServerGone(t *testing.T) {
	// Without a display, a server the bus starts for a call (dunst has a
	// service file) fails at once, as activation does on a desktop whose
	// server cannot start.
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", testutil.SessionBus(t))
	own := func() *dbus.Conn {
		t.Helper()
		c, err := dbus.ConnectSessionBus()
		if err != nil {
			t.Fatal(err)
		}
		c.Export(fakeServer{}, busPath, iface)
		if r, err := c.RequestName(busName, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
			t.Fatalf("owning %s: %v %v", busName, r, err)
		}
		return c
	}
	server := own()
	n, err := Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if id, err := n.Send(Notification{Title: "first"}); err != nil || id != 7 {
		t.Fatalf("Send with the server there: %d %v", id, err)
	}
	server.Close()
	testutil.Eventually(t, 10*time.Second, func() bool {
		var has bool
		n.conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, busName).Store(&has)
		return !has
	}, "the server gone from the bus")
	if _, err := n.Send(Notification{Title: "second"}); !errors.Is(err, ErrNotShown) {
		t.Errorf("Send with the server gone: %v, want ErrNotShown", err)
	}
	n.Close()
	if _, err := n.Send(Notification{Title: "third"}); !errors.Is(err, ErrNotShown) {
		t.Errorf("Send after Close: %v, want ErrNotShown", err)
	}
	defer own().Close()
	again, err := Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, err := again.Send(Notification{Title: "second"}); err != nil {
		t.Errorf("Send on a new connection with a server back: %v", err)
	}
}
