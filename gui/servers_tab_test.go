package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/testutil"
)

// TestServersFormTabKeepsTheFocusInView: at 640x480 and 128%, each Tab
// through Connect a server… and a server's Edit page (a command's, every
// field shown) brings the control it lands on into view, going down and
// coming back up. (Issue 29: Tab went on to the fields below the fold,
// and what the person typed landed unseen in Environment.)
func TestServersFormTabKeepsTheFocusInView(t *testing.T) {
	up := testutil.ServeHTTP(t, testutil.NewServer("h"))
	h, sw := serversHarnessWith(t, map[string]config.Server{"h": {URL: up.StreamableURL}},
		func(c *config.Config) { c.UI.TextScale = 1.28 })
	h.ui.win.Resize(fyne.NewSize(640, 480))
	for _, form := range []struct {
		name string
		open func()
	}{
		{"Connect a server", sw.ShowConnect},
		{"Edit h", func() { test.Tap(sw.Rows["h"].Edit) }},
	} {
		form.open()
		f := sw.Form
		f.Kind.SetSelected("Command")
		h.drain()
		page := f.Scroll()
		page.Refresh() // laid out anew with the command's fields, as a frame of the driver does
		page.ScrollToTop()
		tabsStayInView(t, h, page, form.name, 10)
		f.Close()
		h.drain()
	}
}

// TestNoFieldKeepsTab: no field of Settings or of the server form takes
// Tab as a character (Fyne's window moves the focus on Tab unless the
// focused widget accepts it: a multi-line entry does). The Instructions
// and Environment boxes kept it, Shift+Tab and Ctrl+Tab too, and the
// fields after them were reached only round the window backwards (new-user
// pass 11).
func TestNoFieldKeepsTab(t *testing.T) {
	h, sw := serversHarnessWith(t, nil, nil)
	keeps := func(where string, o fyne.CanvasObject) {
		t.Helper()
		multi := 0
		guitest.Walk(o, func(x fyne.CanvasObject) {
			e, ok := x.(fyne.Tabbable)
			if !ok {
				return
			}
			if w, ok := x.(interface{ EntryWidget() *widget.Entry }); ok && w.EntryWidget().MultiLine {
				multi++
			}
			if e.AcceptsTab() {
				t.Errorf("%s: %T takes Tab as a character", where, e)
			}
		})
		if multi == 0 {
			t.Errorf("%s: no multi-line box found, so the test shows nothing", where)
		}
	}
	sw.ShowConnect()
	sw.Form.Kind.SetSelected("Command")
	h.drain()
	keeps("Connect a server", sw.Form.Scroll().Content)
	sw.Form.Close()
	h.drain()
	f := h.openSettings()
	for i := range f.Tabs.Items {
		f.Tabs.SelectIndex(i)
		h.drain()
		keeps("Settings ▸ "+f.Tabs.Items[i].Text, f.Tabs.Items[i].Content)
	}
}

// TestServersConnectButtonTabAndRing: in the Servers panel, Tab goes from
// "Back to the chat" to "Connect a server…", where both are drawn (at the
// top), before the servers' rows, and the button is ringed while it has
// the focus. (New-user pass 15, N4: it was the stop after every row's
// buttons, and its focus, Fyne's tint on the accent fill, could not be
// seen.)
func TestServersConnectButtonTabAndRing(t *testing.T) {
	up := testutil.ServeHTTP(t, testutil.NewServer("h"))
	h, sw := serversHarnessWith(t, map[string]config.Server{"h": {URL: up.StreamableURL}},
		func(c *config.Config) { c.UI.TextScale = 1.25; c.UI.Theme = "light" })
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.ui.showServers()
	h.until("the server's row", func() bool { return sw.Rows["h"] != nil })
	h.drain()
	c := h.ui.win.Canvas()
	c.Unfocus()
	var names []string
	back, connect := -1, -1
	var first fyne.Focusable
	for i := range 80 {
		c.FocusNext()
		f := c.Focused()
		if f == nil || f == first {
			break
		}
		if first == nil {
			first = f
		}
		name := stopName(f)
		names = append(names, name)
		switch {
		case strings.Contains(name, `"Back to the chat"`):
			back = i
		case strings.Contains(name, `"Connect a server…"`):
			connect = i
			if shown, has := ringShown(f.(fyne.CanvasObject)); !has || !shown {
				t.Errorf("Tab onto Connect a server…: no ring drawn (%T, can ring: %v)", f, has)
			}
		}
	}
	if back < 0 || connect < 0 {
		t.Fatalf("Tab did not reach Back to the chat (%d) and Connect a server… (%d): %q", back, connect, names)
	}
	if connect != back+1 {
		t.Errorf("Tab goes to Connect a server… %d stops after Back to the chat, want the next: %q", connect-back, names)
	}
}
