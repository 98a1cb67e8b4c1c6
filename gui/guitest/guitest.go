// Package guitest is what the tests of the window's packages share: the
// test goroutine standing in for the UI goroutine (a Queue of the work the
// window posts for it), a Host for what a test shows in a window of its
// own (a chat view, tool cards), a finished tool call for a transcript the
// test writes itself, and a look at what a window shows (Walk, All, Texts,
// Shows). Only tests import it. Apart from Host's Tell and Told, none of
// it is safe for concurrent use: the test goroutine alone drives a window.
package guitest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/widgets"
	"deckhand/gui/widgets/richtext"
	"deckhand/tools"
	"deckhand/transcript"
)

// Queue is the work a window posts for its UI goroutine (its Post), which
// the test goroutine runs in that goroutine's place.
type Queue chan func()

// NewQueue has room for all a test's window posts between two drains.
func NewQueue() Queue { return make(Queue, 1<<16) }

// Post queues f for the test goroutine to run.
func (q Queue) Post(f func()) { q <- f }

// Drain runs the queued work until none is left.
func (q Queue) Drain() {
	for {
		select {
		case f := <-q:
			f()
		default:
			return
		}
	}
}

// Settle runs the queued work until none is left for a moment (100 ms):
// what the work starts may post more.
func (q Queue) Settle() {
	for {
		select {
		case f := <-q:
			f()
		case <-time.After(100 * time.Millisecond):
			return
		}
	}
}

// Until runs the queued work until cond holds, and fails t after 15
// seconds with what w shows. cond is looked at again after each thing the
// UI runs, and now and then besides: some of what a test waits for (a
// notification sent by the notes' worker, an image decoded on a goroutine
// of its own) comes without anything for the UI to run.
func (q Queue) Until(t testing.TB, w fyne.Window, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(15 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case f := <-q:
			f()
		case <-tick.C:
		case <-deadline:
			t.Fatalf("timed out waiting for %s; the window shows:\n%s", what, strings.Join(Texts(w), "\n"))
		}
	}
}

// FinishCall adds to tr a call of tool, started and finished with output
// and media: a card for the test to look at once it is drawn.
func FinishCall(tr *transcript.Transcript, call, tool, output string, media *tools.Media) {
	tr.ToolRequested(call, tool, []byte(`{"q": "x"}`))
	tr.ToolStarted(call, tool, nil)
	tr.ToolFinished(call, tool, nil, output, false, false, 12*time.Millisecond)
	tr.ToolMedia(call, media)
}

// TapTop taps the visible button labelled label in c's top overlay (a
// dialog's), and fails the test when there is none.
func TapTop(t testing.TB, c fyne.Canvas, label string) {
	t.Helper()
	var found *widget.Button
	Walk(c.Overlays().Top(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == label && b.Visible() {
			found = b
		}
	})
	if found == nil {
		t.Fatalf("no %q button on top of the window", label)
	}
	test.Tap(found)
}

// Walk visits the visible objects under o.
func Walk(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	f(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			Walk(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			Walk(c, f)
		}
	}
}

// All is the visible objects of type T under o, in the order Walk visits
// them.
func All[T fyne.CanvasObject](o fyne.CanvasObject) []T {
	var out []T
	Walk(o, func(o fyne.CanvasObject) {
		if x, ok := o.(T); ok {
			out = append(out, x)
		}
	})
	return out
}

// Texts is what a window shows: the text of every visible label, rich
// text and button, its overlays (dialogs) included.
func Texts(w fyne.Window) []string {
	var out []string
	objs := []fyne.CanvasObject{w.Canvas().Content()}
	objs = append(objs, w.Canvas().Overlays().List()...)
	for _, o := range objs {
		Walk(o, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Label:
				out = append(out, x.Text)
			case *widget.RichText:
				out = append(out, x.String())
			case *richtext.MDText:
				out = append(out, x.String())
			case *widget.Button:
				out = append(out, "["+x.Text+"]")
			case *widgets.RingButton:
				out = append(out, "["+x.Text+"]")
			case *widgets.TipButton:
				out = append(out, "["+x.Text+"]")
			}
		})
	}
	return out
}

// Shows reports whether any of w's texts holds text.
func Shows(w fyne.Window, text string) bool {
	return slices.ContainsFunc(Texts(w), func(s string) bool { return strings.Contains(s, text) })
}

// NewApp is Fyne's test app for t, with Fyne's cache clock set to now.
// The cache stamps each renderer it hands out with a clock sample taken
// at its last clean, which the real driver takes every frame and the test
// driver only at a Capture. In a full run of a package, a minute can pass
// between two captures: every renderer the test's window makes is then
// stamped as expired, the window's first Capture drops them, and those made
// again in their place are never laid out (an entry's border has no size,
// so taking the focus changes no pixel of it).
func NewApp(t testing.TB) fyne.App {
	a := test.NewTempApp(t)
	test.NewCanvas().Capture() // its clean takes a new clock sample
	return a
}
