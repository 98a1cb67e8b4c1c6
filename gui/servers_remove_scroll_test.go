package gui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/gui/guitest"
)

// TestServersListShowsRowsAfterRemovingTheLast: at 640×480 (text 128%),
// with the list scrolled down to its last server, removing that server
// leaves servers in sight: the list kept its offset past the shorter
// list's end, and the page was blank below "MCP servers" until the wheel
// was turned.
func TestServersListShowsRowsAfterRemovingTheLast(t *testing.T) {
	down := map[string]config.Server{}
	for i := range 5 {
		down[fmt.Sprintf("down%d", i)] = config.Server{URL: "http://127.0.0.1:1/mcp", ConnectTimeout: time.Second}
	}
	h, sw := serversHarnessWith(t, down, func(c *config.Config) { c.UI.TextScale = 1.28 })
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.until("every server's row", func() bool {
		for alias := range down {
			if !strings.HasPrefix(h.serverState(sw, alias), "failed") {
				return false
			}
		}
		return true
	})
	h.drain()
	var list *container.Scroll
	for _, s := range guitest.All[*container.Scroll](sw.Win.Content()) {
		if _, ok := s.Content.(*fyne.Container); ok && s.Direction == container.ScrollVerticalOnly {
			list = s
		}
	}
	if list == nil {
		t.Fatal("no scrolled list of servers")
	}
	list.Refresh() // lays the rows out
	list.ScrollToOffset(fyne.NewPos(0, list.Content.MinSize().Height-list.Size().Height))
	if list.Offset.Y == 0 {
		t.Fatalf("the list (%v high, in %v) does not scroll: nothing to test", list.Content.MinSize().Height, list.Size().Height)
	}

	test.Tap(sw.Rows["down4"].Remove)
	h.tap(sw.Win, "Remove")
	h.until("down4's row gone", func() bool { return sw.Rows["down4"] == nil && sw.Rows["down3"] != nil })
	h.drain()

	// A row in sight: the view's band of the list meets one.
	top, bottom := list.Offset.Y, list.Offset.Y+list.Size().Height
	if end := list.Content.MinSize().Height; top > end-list.Size().Height+1 && top > 0 {
		t.Errorf("the list is scrolled to %.0f, past its end (%.0f high in a view of %.0f)", top, end, list.Size().Height)
	}
	seen := 0
	for _, r := range sw.Rows {
		y := fyne.CurrentApp().Driver().AbsolutePositionForObject(r.State).Y - fyne.CurrentApp().Driver().AbsolutePositionForObject(list.Content).Y
		if y+r.State.Size().Height > top && y < bottom {
			seen++
		}
	}
	if seen == 0 {
		t.Errorf("no server's row in sight after the removal (the view shows %.0f to %.0f of a list %.0f high)", top, bottom, list.Content.MinSize().Height)
	}
}
