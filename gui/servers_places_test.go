package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/testutil"
)

// sidebarButton taps the sidebar's button labelled label (a panel may
// have a button of the same words: the tools page's back, "Servers").
func (h *harness) sidebarButton(label string) {
	h.t.Helper()
	for _, b := range guitest.All[*widget.Button](h.ui.side.Object()) {
		if b.Text == label {
			test.Tap(b)
			return
		}
	}
	h.t.Fatalf("the sidebar has no button %q", label)
}

// TestServersFromTheSidebarShowTheList: the sidebar's Servers shows the
// list of servers, also after a visit to a server's tools (it opened on
// "Tools of t" again, which only "‹ Servers" left).
func TestServersFromTheSidebarShowTheList(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.toolsOf("t", "echo")
	sw := h.ui.serversW
	for _, away := range []string{"the chat", "Settings", "none"} {
		test.Tap(sw.Rows["t"].Tools)
		if sw.Tools == nil || h.ui.panel != sw.Win {
			t.Fatalf("Tools of t did not show")
		}
		switch away {
		case "the chat":
			h.ui.toChat() // a chat chosen in the sidebar
		case "Settings":
			h.sidebarButton("Settings")
		}
		h.sidebarButton("Servers")
		h.drain()
		if h.ui.panel != sw.Win || sw.Tools != nil || sw.Win.Title() != "Deckhand: servers" || !h.shows(sw.Win, "Connect a server…") {
			t.Errorf("from the tools, then %s, the sidebar's Servers shows %q (the tools page open: %v)", away, sw.Win.Title(), sw.Tools != nil)
		}
		if b := h.button(sw.Win, "Back to the chat"); b == nil {
			t.Errorf("from the tools, then %s, the servers' back button does not go to the chat", away)
		}
		// Escape goes back to the chat, not to the tools.
		h.key("Escape")
		if h.ui.panel != nil {
			t.Errorf("from the tools, then %s, Escape on the servers left %q", away, h.ui.panel.Title())
		}
		h.ui.showServers()
	}
}

// TestServersSavedServerInView: after Connect and save, the servers
// show the new server's row, in view and marked, also at 640×480 with the
// text at 128% and servers enough to fill the page (the list showed its
// top, the new server below the fold: one had to scroll to see that it
// worked); so after an edit, for the server edited.
func TestServersSavedServerInView(t *testing.T) {
	servers := map[string]config.Server{}
	for _, alias := range []string{"alpha", "beta", "gamma"} {
		servers[alias] = config.Server{URL: testutil.ServeHTTP(t, testutil.NewServer(alias)).StreamableURL}
	}
	// Served before the window starts: a server's cleanup that came
	// before the window's would wait for the window's connection to it.
	up := testutil.ServeHTTP(t, testutil.NewServer("zeta"))
	h, sw := serversHarness(t, servers)
	applyLook(h.app, config.UI{TextScale: 1.28})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.until("the servers ready", func() bool {
		return h.serverState(sw, "alpha") == "ready" && h.serverState(sw, "beta") == "ready" && h.serverState(sw, "gamma") == "ready"
	})
	var list *container.Scroll
	guitest.Walk(sw.Win.Content(), func(o fyne.CanvasObject) {
		if s, ok := o.(*container.Scroll); ok && list == nil {
			list = s
		}
	})
	if list == nil {
		t.Fatal("the servers are not in a scroller")
	}
	d := fyne.CurrentApp().Driver()
	// inView says whether alias's row shows whole, from its name to its
	// buttons, in the list's view.
	inView := func(alias string) bool {
		r := sw.Rows[alias]
		if r == nil {
			return false
		}
		top, bottom := d.AbsolutePositionForObject(list).Y, d.AbsolutePositionForObject(list).Y+list.Size().Height
		name, tools := d.AbsolutePositionForObject(r.State).Y, d.AbsolutePositionForObject(r.Tools).Y+r.Tools.Size().Height
		return name >= top-0.5 && tools <= bottom+0.5
	}
	for _, step := range []struct {
		name, alias string
		open        func()
		form        config.ServerForm
	}{
		{"connect", "zeta", sw.ShowConnect, config.ServerForm{Kind: "URL", Target: up.StreamableURL, Alias: "zeta"}},
		{"edit", "alpha", func() { test.Tap(sw.Rows["alpha"].Edit) }, config.ServerForm{Kind: "URL", Target: servers["alpha"].URL + "?again", Alias: "alpha"}},
	} {
		list.ScrollToOffset(fyne.NewPos(0, 0))
		if step.alias == "alpha" {
			list.ScrollToOffset(fyne.NewPos(0, list.Content.Size().Height)) // alpha above the fold
		}
		step.open()
		f := h.submitForm(sw, step.form)
		if !f.Closed {
			t.Fatalf("%s: the form stayed open: %s", step.name, f.Problem.Text)
		}
		h.until(step.alias+" ready", func() bool { return h.serverState(sw, step.alias) == "ready" })
		h.drain()
		if h.ui.panel != sw.Win {
			t.Fatalf("%s: after saving the window shows %v", step.name, h.ui.panel)
		}
		if !inView(step.alias) {
			t.Errorf("%s: %s's row is out of view (the list at %.0f of %.0f px, its view %.0f px high)", step.name, step.alias, list.Offset.Y, list.Content.Size().Height, list.Size().Height)
		}
		if !sw.Rows[step.alias].Marked {
			t.Errorf("%s: %s's row is not marked", step.name, step.alias)
		}
		for alias, r := range sw.Rows {
			if alias != step.alias && r.Marked {
				t.Errorf("%s: %s's row is marked too", step.name, alias)
			}
		}
	}
	// Scrolled by the person, the list stays where they put it as the
	// statuses come.
	list.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: list.Content.Size().Height}})
	if list.Offset.Y != 0 {
		t.Fatalf("the wheel left the list at %.0f", list.Offset.Y)
	}
	sw.Refresh()
	if list.Offset.Y != 0 {
		t.Errorf("a status update moved the list the person scrolled to %.0f", list.Offset.Y)
	}
	// Shown again from the sidebar, the list marks nothing.
	h.sidebarButton("Servers")
	for alias, r := range sw.Rows {
		if r.Marked {
			t.Errorf("shown again, %s's row is still marked", alias)
		}
	}
}

// TestPanelBackSaysWhereItGoes: a panel's back button names where it
// goes: the chat from the servers, the servers from a server's tools, its
// resources and the connect form (these two said "Back to the chat" and
// went to the servers).
func TestPanelBackSaysWhereItGoes(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.until("t ready", func() bool { return h.ui.catalog != nil && hasTool(h, "t.echo") })
	h.sidebarButton("Servers")
	sw := h.ui.serversW
	back := func() string { return h.ui.panel.back.Text }
	if got := back(); got != "Back to the chat" {
		t.Errorf("the servers' back button says %q", got)
	}
	for _, page := range []struct {
		name string
		open func()
	}{
		{"the connect form", sw.ShowConnect},
		{"t's resources", func() { test.Tap(sw.Rows["t"].Resources) }},
		{"t's tools", func() { test.Tap(sw.Rows["t"].Tools) }},
	} {
		page.open()
		if got := back(); got != "Servers" {
			t.Errorf("%s: the back button says %q, want Servers", page.name, got)
		}
		test.Tap(h.ui.panel.back)
		if h.ui.panel != sw.Win || sw.Win.Title() != "Deckhand: servers" {
			t.Errorf("%s: back went to %v, want the servers", page.name, h.ui.panel)
		}
		if got := back(); got != "Back to the chat" {
			t.Errorf("back from %s, the servers' back button says %q", page.name, got)
		}
	}
}
