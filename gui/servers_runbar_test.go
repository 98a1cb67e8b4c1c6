package gui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/testutil"
	"deckhand/tools"
)

// TestServersToolsRunBarFits: at 640×480 with the text at 125%, the run
// bar under a tool's page (Run… and its note) is as high as what it
// holds at the width it has: its note's lines all show, and it keeps no
// empty band above or below them.
func TestServersToolsRunBarFits(t *testing.T) {
	up := testutil.ServeHTTP(t, everythingLike())
	h, sw := serversHarness(t, map[string]config.Server{"everything": {URL: up.StreamableURL}})
	applyLook(h.app, config.UI{TextScale: 1.25})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.until("everything's tools", func() bool { return h.ui.catalog != nil && hasTool(h, "everything.toggle-simulated-logging") })
	h.ui.showServers()
	test.Tap(sw.Rows["everything"].Tools)
	tw := sw.Tools
	h.until("the listing", func() bool { return tw.Loaded && len(tw.List) == 6 })
	tw.ToolList.Select(slices.IndexFunc(tw.List, func(x tools.Tool) bool { return x.Name == "toggle-simulated-logging" }))
	h.drain()

	// The bar: the container that holds Run…, and its note.
	var bar *fyne.Container
	guitest.Walk(h.ui.panel.view, func(o fyne.CanvasObject) {
		if c, ok := o.(*fyne.Container); ok && slices.Contains(c.Objects, fyne.CanvasObject(tw.RunButton)) {
			bar = c
		}
	})
	if bar == nil {
		t.Fatal("no run bar")
	}
	var note *widget.Label
	for _, l := range guitest.All[*widgets.DimLabel](bar) {
		note = &l.Label
	}
	if note == nil {
		t.Fatal("no note in the run bar")
	}
	// Back from wider windows too: each layout comes at another width.
	for _, size := range []fyne.Size{{Width: 640, Height: 480}, {Width: 1280, Height: 800}, {Width: 640, Height: 480}, {Width: 1800, Height: 900}, {Width: 640, Height: 480}} {
		h.ui.win.Resize(size)
		h.drain()
		// What the note needs at the width it has: a twin's height there.
		twin, _ := widgets.Caption(note.Text)
		twin.Wrapping = note.Wrapping
		twin.Resize(fyne.NewSize(note.Size().Width, 1))
		need, button := twin.MinSize().Height, tw.RunButton.MinSize().Height
		if note.Size().Height < need-0.5 {
			t.Errorf("%v: the run bar's note is %.0f px high, its lines need %.0f (the bar %.0f): cut", size, note.Size().Height, need, bar.Size().Height)
		}
		if got, want := bar.Size().Height, max(need, button); got > want+0.5 {
			t.Errorf("%v: the run bar is %.0f px high, what it holds needs %.0f (its note %.0f at %.0f px wide, Run… %.0f)", size, got, want, need, note.Size().Width, button)
		}
		if got := tw.RunButton.Size().Height; got > button+0.5 {
			t.Errorf("%v: Run… is stretched to %.0f px high (it needs %.0f)", size, got, button)
		}
	}
}
