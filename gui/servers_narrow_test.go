package gui

import (
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/guitest"

	"deckhand/config"
)

// TestServersFailureFitsASmallWindow: at 640×480 with the text at 128%,
// a connect that failed with a long reason fits the window's width: the
// reason wraps, the buttons show whole, and the wheel over the reason
// never moves the chat's place sideways under the sidebar (it did, about
// 25 px, and stayed so in the chat after Cancel: the form's "Could not
// connect" row was wider than the pane, and the pane's scroller turns the
// wheel sideways when its content is only too wide).
func TestServersFailureFitsASmallWindow(t *testing.T) {
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.28 }})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.ui.showServers()
	sw := h.ui.serversW
	docs := filepath.Join(t.TempDir(), "Documents")
	if err := os.Mkdir(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	sw.ShowConnect()
	f := sw.Form
	f.Kind.SetSelected("Command")
	f.Target.SetText("/nonexistent/" + strings.Repeat("mcp-server-filesystem-", 4) + "binary " + docs)
	h.tap(f.Win, "Connect and save")
	h.tap(f.Win, "Neither")
	h.until("the try to end", func() bool { return !f.Trying() && f.Problem.Text != "" })
	h.drain()

	split := h.ui.win.Content().(*container.Split)
	pane := split.Trailing.(*container.Scroll)
	if m, w := h.ui.mainArea.MinSize().Width, pane.Size().Width; m > w {
		t.Errorf("the failed form needs %.0f px wide, the pane is %.0f", m, w)
	}
	// A notch of the wheel over the reason, and over the pane itself.
	pane.Refresh()
	test.Scroll(h.ui.win.Canvas(), fyne.NewPos(split.Leading.Size().Width+60, 300), 0, -25)
	pane.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -25}})
	if pane.Offset.X != 0 {
		t.Errorf("the wheel moved the pane %.0f px sideways", pane.Offset.X)
	}
	f.Close()
	h.ui.serversW.Win.Close()
	h.drain()
	if pane.Offset.X != 0 {
		t.Errorf("back in the chat, the pane is %.0f px sideways", pane.Offset.X)
	}
}

// TestPanelLeavesThePaneUnscrolled: a panel scrolled sideways (one wider
// than a small window) leaves the chat at its place when it closes, not
// shifted under the sidebar with it.
func TestPanelLeavesThePaneUnscrolled(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	wide := canvas.NewRectangle(color.Transparent)
	wide.SetMinSize(fyne.NewSize(1000, 100))
	p := h.ui.newPanel("Deckhand: wide")
	p.SetContent(wide)
	p.Show()
	h.drain()
	h.ui.pane.Refresh()
	h.ui.pane.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DX: -25}})
	if h.ui.pane.Offset.X == 0 {
		t.Fatalf("the wide panel did not scroll sideways (it needs %.0f px, the pane has %.0f)", h.ui.mainArea.MinSize().Width, h.ui.pane.Size().Width)
	}
	p.Close()
	h.drain()
	if o := h.ui.pane.Offset; o != (fyne.Position{}) {
		t.Errorf("back in the chat, the pane is scrolled to %v", o)
	}
}

// TestServersFormLabelsBesideWhenWide: in a window wide enough, the
// connect form keeps its labels beside its fields.
func TestServersFormLabelsBesideWhenWide(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	h.ui.win.Resize(fyne.NewSize(1100, 720))
	h.ui.showServers()
	h.ui.serversW.ShowConnect()
	f := h.ui.serversW.Form
	f.Kind.SetSelected("Command")
	h.drain()
	var form *widget.Form
	guitest.Walk(f.Win.Content(), func(o fyne.CanvasObject) {
		if x, ok := o.(*widget.Form); ok {
			form = x
		}
	})
	if form == nil {
		t.Fatal("no form drawn")
	}
	if form.Orientation != widget.Horizontal {
		t.Errorf("at 1100 px the form's labels are above its fields (orientation %v)", form.Orientation)
	}
}
