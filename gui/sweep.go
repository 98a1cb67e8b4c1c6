package gui

import (
	"os"
	"sync"
	"time"

	"fyne.io/fyne/v2/canvas"
)

// Fyne keeps the renderers (and canvas entries) of widgets that left the
// screen for a minute (cache.ValidDuration), and drops them only while it
// draws a frame in which something changed. A window at rest draws
// nothing (no cursor blink with animations off, nothing streaming), so it
// held on to everything that left the screen in its last minute of use:
// after 200 messages typed, the row views of every one, with their rich
// text and highlighted code. Once the window has been quiet a little
// longer than that minute, the sweeper draws one frame, in which Fyne
// drops them, and then runs Deps.Quiet (cmd/deckhand gives the memory
// freed back to the system). It costs one frame per spell of use. A
// frame's changes arm it, and so does a panel shown or closed: 19
// openings of the servers, a server's tools and the settings held 4.5 MB
// of live heap in Fyne's cache until the next frame drawn.
type sweeper struct {
	mu    sync.Mutex
	timer *time.Timer
}

// sweepAfter is how long after the last change the sweep runs: Fyne's
// cache lifetime (FYNE_CACHE overrides it, as Fyne reads it) and a margin.
var sweepAfter = func() time.Duration {
	d := time.Minute
	if v, err := time.ParseDuration(os.Getenv("FYNE_CACHE")); err == nil {
		d = v
	}
	return d + 5*time.Second
}()

// touch notes a change to the window: the sweep waits for quiet again.
func (s *sweeper) touch(u *UI) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Reset(sweepAfter)
		return
	}
	s.timer = time.AfterFunc(sweepAfter, func() { u.post(u.sweepNow) })
}

// sweepNow draws a frame, and after it lets the caller give memory back.
func (u *UI) sweepNow() {
	if u.win == nil {
		return
	}
	if c := u.win.Content(); c != nil {
		canvas.Refresh(c)
	}
	if q := u.d.Quiet; q != nil {
		time.AfterFunc(time.Second, q) // the frame is drawn within one
	}
}
