package gui

import (
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
)

// bareUI is the window with no actors behind it; drain runs the work it
// queued for the UI goroutine, as the app's loop would.
func bareUI(t testing.TB) (u *UI, drain func()) {
	t.Helper()
	guitest.NewApp(t)
	queue := guitest.NewQueue()
	u = New(Deps{App: fyne.CurrentApp(), Config: &config.Config{Model: config.Model{BaseURL: "http://x/v1", Name: "m"}},
		Post: queue.Post})
	drain = queue.Drain
	u.win.Resize(fyne.NewSize(1100, 720))
	u.win.Show()
	return u, drain
}

// The sweep runs once the window has been quiet for sweepAfter, not while
// it changes, and then lets the caller give memory back.
func TestSweepWhenQuiet(t *testing.T) {
	old := sweepAfter
	sweepAfter = 200 * time.Millisecond
	t.Cleanup(func() { sweepAfter = old })
	u, drain := bareUI(t)
	var quiet atomic.Int32
	u.d.Quiet = func() { quiet.Add(1) }
	for range 10 {
		u.sweep.touch(u)
		time.Sleep(50 * time.Millisecond)
		drain()
	}
	if n := quiet.Load(); n != 0 {
		t.Fatalf("swept %d times while the window changed", n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for quiet.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		drain()
	}
	if n := quiet.Load(); n != 1 {
		t.Fatalf("swept %d times once quiet, want 1", n)
	}
}

// A panel shown and closed arms the sweep too: Fyne kept the renderers of
// the servers, a server's tools and the settings until something drew a
// frame, and a window at rest after them drew none (19 openings held 4.5
// MB of live heap, released by the next frame drawn).
func TestSweepAfterPanel(t *testing.T) {
	old := sweepAfter
	sweepAfter = 200 * time.Millisecond
	t.Cleanup(func() { sweepAfter = old })
	u, drain := bareUI(t)
	drain()
	if u.sweep.timer != nil {
		t.Fatal("the bare window armed the sweep before the panel: this test cannot tell")
	}
	var quiet atomic.Int32
	u.d.Quiet = func() { quiet.Add(1) }
	p := u.newPanel("Deckhand: a panel")
	p.SetContent(widget.NewLabel("in the panel"))
	p.Show()
	drain()
	p.Hide()
	drain()
	deadline := time.Now().Add(10 * time.Second)
	for quiet.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		drain()
	}
	if quiet.Load() == 0 {
		t.Fatal("no sweep after a panel was shown and closed")
	}
}
