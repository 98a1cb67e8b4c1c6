package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
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
