package gui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/testutil"
)

// TestServersToolsDetailRoomInASmallWindow: at 640×480 with the text at
// 125%, a server with tools left out (the hostile test server: 4 of
// them) shows the picked tool's page in at least a third of the window's
// height, the notes of what was left out folded to one line with Show,
// which opens them whole. The page
// had about 60 px (three lines) under a list of two rows, over the run
// bar and about 90 px of notes fixed below (new-user report 12,
// problem 7).
func TestServersToolsDetailRoomInASmallWindow(t *testing.T) {
	h, sw := serversHarnessWith(t, map[string]config.Server{
		"hz": {Command: testutil.BuildProgram(t, "./testutil/stdioserver"), Args: []string{"-hostile"}},
	}, nil)
	applyLook(h.app, config.UI{TextScale: 1.25})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.until("hz ready with its left-out tools", func() bool {
		r := sw.Rows["hz"]
		return r != nil && r.State.Text == "ready" && r.LeftOut.Visible()
	})
	test.Tap(sw.Rows["hz"].Tools)
	tw := sw.Tools
	h.until("the listing", func() bool { return tw.Loaded && len(tw.List) > 0 })
	h.drain()
	var view *container.Scroll
	guitest.Walk(h.ui.panel.view, func(o fyne.CanvasObject) {
		if s, ok := o.(*container.Scroll); ok && s.Content == fyne.CanvasObject(tw.Detail) {
			view = s
		}
	})
	if view == nil {
		t.Fatal("the tool's page is not in a scroller")
	}
	win := h.ui.win.Canvas().Size().Height
	if got := view.Size().Height; got < 0.27*win {
		t.Errorf("the tool's page is %.0f px high in a window of %.0f, want at least 27%% of it (the list %.0f px, the notes %.0f)",
			got, win, tw.ToolList.Size().Height, tw.NotesLabel.Size().Height)
	}
	// Show opens the notes whole; the page keeps some room.
	if tw.NotesShow.Hidden || tw.NotesLabel.Wrapping != fyne.TextWrapOff {
		t.Fatalf("four notes are not folded to one line with Show")
	}
	test.Tap(tw.NotesShow)
	h.drain()
	if tw.NotesLabel.Text != sw.Notes || tw.NotesShow.Text != "Show less" {
		t.Errorf("Show: the notes say %q, the button %q; want them whole:\n%s", tw.NotesLabel.Text, tw.NotesShow.Text, sw.Notes)
	}
	if !h.shows(h.ui.win, "Left out") {
		t.Errorf("the notes of the tools left out are not on the page")
	}
}
