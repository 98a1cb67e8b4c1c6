package gui

import (
	"fmt"
	"image"
	"os"
	"os/exec"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/sidebar"
	"deckhand/gui/widgets"
	"deckhand/testutil"
)

// tabStop is one stop of the main window's Tab cycle, where it is drawn.
type tabStop struct {
	name   string
	obj    fyne.CanvasObject
	at     fyne.Position
	size   fyne.Size
	region int // 0 the sidebar, 1 the chat (its header, the transcript), 2 the composer
}

func (s tabStop) String() string { return fmt.Sprintf("%s at %v", s.name, s.at) }

// stopName names a stop for the failure messages: a button by its text
// or tip, anything else by its type.
func stopName(f fyne.Focusable) string {
	switch x := f.(type) {
	case *widgets.RingButton:
		return fmt.Sprintf("button %q", x.Text)
	case *widgets.TipButton:
		return fmt.Sprintf("button %q (tip %q)", x.Text, x.Tip)
	case *widget.Button:
		return fmt.Sprintf("button %q", x.Text)
	}
	return fmt.Sprintf("%T", f)
}

// tabCycle walks Tab from the window's first stop until it comes back to
// it, and places each stop in the sidebar, the chat or the composer.
func tabCycle(t *testing.T, h *harness) []tabStop {
	t.Helper()
	c, d := h.ui.win.Canvas(), fyne.CurrentApp().Driver()
	sideRight := d.AbsolutePositionForObject(h.ui.side.Object()).X + h.ui.side.Object().Size().Width
	bodyBottom := d.AbsolutePositionForObject(h.ui.body).Y + h.ui.body.Size().Height
	c.Unfocus()
	var stops []tabStop
	var first fyne.Focusable
	for range 80 {
		c.FocusNext()
		f := c.Focused()
		if f == nil || f == first {
			return stops
		}
		if first == nil {
			first = f
		}
		o := f.(fyne.CanvasObject)
		s := tabStop{name: stopName(f), obj: o, at: d.AbsolutePositionForObject(o), size: o.Size()}
		switch {
		case s.at.X < sideRight:
			s.region = 0
		case s.at.Y+s.size.Height <= bodyBottom:
			s.region = 1
		default:
			s.region = 2
		}
		stops = append(stops, s)
	}
	t.Fatalf("Tab did not come back to its first stop in 80 presses: %v", stops)
	return nil
}

// focusMarked counts the pixels of o's area that change when the keyboard's
// focus comes onto it: what a person sees of a Tab stop. The window's own
// work is run to its end before each look (a frame of the bridge can land
// between the presses), and the look is taken up to five times.
func focusMarked(h *harness, o fyne.CanvasObject) (n int) {
	w := h.ui.win
	c := w.Canvas()
	for range 5 {
		c.Unfocus()
		h.drain()
		before := c.Capture()
		c.Focus(o.(fyne.Focusable))
		h.drain()
		after := c.Capture()
		c.Unfocus()
		scale := float32(after.Bounds().Dx()) / c.Size().Width
		at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
		s := o.Size()
		r := image.Rect(int(at.X*scale), int(at.Y*scale), int((at.X+s.Width)*scale), int((at.Y+s.Height)*scale)).Intersect(after.Bounds())
		n = 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if before.At(x, y) != after.At(x, y) {
					n++
				}
			}
		}
		if n > 0 {
			return n
		}
	}
	return n
}

// readsBefore: b comes before a in reading order (b wholly above a, or
// beside it on its left).
func readsBefore(b, a tabStop) bool {
	if b.at.Y+b.size.Height <= a.at.Y {
		return true
	}
	overlap := b.at.Y < a.at.Y+a.size.Height && a.at.Y < b.at.Y+b.size.Height
	return overlap && b.at.X+b.size.Width <= a.at.X
}

// TestTabCycleIsMarkedAndInScreenOrder: Tab goes once round the main
// window, in a new chat and in a chat with a message and its answer. Each
// stop is something drawn that shows when it has the focus (its pixels
// change), and the stops follow the screen: the sidebar, then the chat
// (its header, the transcript's actions), then the composer, each part in
// reading order. In a new chat, Tab from Settings stopped on the chat's
// invisible stop after the transcript (no size, nothing drawn) before the
// paperclip: a press that showed nothing (new-user report 5, problem 10).
func TestTabCycleIsMarkedAndInScreenOrder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer bool
	}{
		{"new chat", false},
		{"chat with an answer", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Hello.")}}})
			if tc.answer {
				h.say("hi")
				h.until("the answer", func() bool { return h.shows(h.ui.win, "Hello.") && !h.ui.running })
			}
			stops := tabCycle(t, h)
			t.Logf("Tab went through %v", stops)
			if len(stops) == 0 || stops[0].region != 0 {
				t.Fatalf("Tab's first stop is not in the sidebar: %v", stops)
			}
			regions := map[int]bool{}
			for i, s := range stops {
				regions[s.region] = true
				if s.size.Width < 1 || s.size.Height < 1 {
					t.Errorf("Tab stop %d, %v, has no size (%v): nothing a person can see or act on", i+1, s, s.size)
				} else if n := focusMarked(h, s.obj); n == 0 {
					t.Errorf("Tab stop %d, %v: no pixel of it changes when it takes the focus", i+1, s)
				}
				if i == 0 {
					continue
				}
				p := stops[i-1]
				switch {
				case s.region < p.region:
					t.Errorf("Tab goes from %v back to %v, in a part of the window above it", p, s)
				case s.region == p.region && readsBefore(s, p):
					t.Errorf("Tab goes from %v back to %v, before it on the screen", p, s)
				}
			}
			for r, name := range []string{"the sidebar", "the chat", "the composer"} {
				if !regions[r] && (r != 1 || tc.answer) {
					t.Errorf("Tab never reaches %s: %v", name, stops)
				}
			}
		})
	}
}

// TestFocusMarkedWhenFyneCacheClockIsOld: the window a test makes long
// after the last capture (a minute in Fyne's test driver, 11 s here: a
// process of its own with FYNE_CACHE=1s, and Fyne cleans its cache at most
// every 10 s) still marks the focus of its
// search box, its chat list and its message box. In full runs of the
// package they showed none: the renderers the window made were stamped with
// the old clock sample, dropped at its first capture and made again without
// a layout (guitest.NewApp).
func TestFocusMarkedWhenFyneCacheClockIsOld(t *testing.T) {
	if os.Getenv("DECKHAND_OLD_CACHE_CLOCK") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFocusMarkedWhenFyneCacheClockIsOld$", "-test.v")
		cmd.Env = append(os.Environ(), "DECKHAND_OLD_CACHE_CLOCK=1", "FYNE_CACHE=1s")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		return
	}
	test.NewCanvas().Capture()
	time.Sleep(11 * time.Second) // the clock sample grows older than the cache's 1 s, the last clean than 10 s
	h := newHarness(t, harnessOptions{})
	for _, s := range tabCycle(t, h) {
		switch s.obj.(type) {
		case *sidebar.SearchEntry, *sidebar.List, *widgets.MessageEntry:
			if focusMarked(h, s.obj) == 0 {
				t.Errorf("%v: no pixel of it changes when it takes the focus", s)
			}
		}
	}
}
