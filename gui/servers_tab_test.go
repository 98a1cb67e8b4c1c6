package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

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
	c := h.ui.win.Canvas()
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
		inPage := func(o fyne.Focusable) bool {
			found := false
			guitest.Walk(page.Content, func(x fyne.CanvasObject) { found = found || x == o.(fyne.CanvasObject) })
			return found
		}
		for _, back := range []bool{false, true} {
			seen := 0
			for range 40 {
				if back {
					c.FocusPrevious()
				} else {
					c.FocusNext()
				}
				h.drain()
				o := c.Focused()
				if o == nil || !inPage(o) {
					continue
				}
				seen++
				if !inView(h.ui.win, o.(fyne.CanvasObject)) {
					t.Errorf("%s, Tab %d (back %v): the focus is on %s, out of view (the form's offset %v)", form.name, seen, back, describe(o), page.Offset)
				}
			}
			if seen < 10 {
				t.Errorf("%s: Tab stopped on %d controls of the form, want 10 at least", form.name, seen)
			}
		}
		f.Close()
		h.drain()
	}
}
