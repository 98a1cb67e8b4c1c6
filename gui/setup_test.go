package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/transport/llm"
)

// inView reports whether all of o is on w's screen: inside the window and
// inside the visible part of every scroller it is in. A scroller shows
// its content from its offset: what lies past its bottom is below the
// fold until the person scrolls.
func inView(w fyne.Window, o fyne.CanvasObject) bool {
	type rect struct{ x0, y0, x1, y1 float32 }
	size := w.Canvas().Size()
	found, in := false, false
	var visit func(c fyne.CanvasObject, at fyne.Position, clip rect)
	visit = func(c fyne.CanvasObject, at fyne.Position, clip rect) {
		if found || c == nil || !c.Visible() {
			return
		}
		at = at.Add(c.Position())
		if c == o {
			found = true
			s := c.Size()
			in = at.X >= clip.x0 && at.Y >= clip.y0 && at.X+s.Width <= clip.x1+0.5 && at.Y+s.Height <= clip.y1+0.5
			return
		}
		if s, ok := c.(*container.Scroll); ok {
			z := s.Size()
			clip = rect{max(clip.x0, at.X), max(clip.y0, at.Y), min(clip.x1, at.X+z.Width), min(clip.y1, at.Y+z.Height)}
		}
		var children []fyne.CanvasObject
		switch x := c.(type) {
		case *fyne.Container:
			children = x.Objects
		case fyne.Widget:
			children = test.WidgetRenderer(x).Objects()
		}
		for _, ch := range children {
			visit(ch, at, clip)
		}
	}
	visit(w.Canvas().Content(), fyne.Position{}, rect{0, 0, size.Width, size.Height})
	return found && in
}

// TestFirstRunButtonsInReach: at 640×480, a new user sees the first-run
// panel's buttons (Use this on a server found, Look again, Open settings)
// without scrolling, at any text size: below the explanation they were
// past the window's bottom at 120%, in a panel that gave no sign it
// scrolled.
func TestFirstRunButtonsInReach(t *testing.T) {
	type test struct {
		name  string
		scale float64
		found bool
		want  []string
	}
	var tests []test
	for _, scale := range []float64{1, 1.2, 1.5} {
		tests = append(tests,
			test{name: fmt.Sprintf("nothing found at %.0f%%", scale*100), scale: scale, want: []string{"Look again", "Open settings"}},
			test{name: fmt.Sprintf("a server found at %.0f%%", scale*100), scale: scale, found: true, want: []string{"Use this", "Look again", "Open settings"}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, harnessOptions{
				noModel: true,
				cfg:     func(c *config.Config) { c.UI.TextScale = tt.scale },
				probe: func(h *harness) []llm.Endpoint {
					if !tt.found {
						return nil
					}
					return []llm.Endpoint{{Name: "Ollama", BaseURL: h.model.URL, Models: []string{"llama3.2"}}}
				},
			})
			h.until("the probe's answer", func() bool {
				return h.shows(h.ui.win, "Use this") || h.shows(h.ui.win, "No model server answered")
			})
			h.ui.win.Resize(fyne.NewSize(640, 480))
			h.drain()
			// Laid out again, as a real window is on every change: the
			// first layout at a new size wraps labels to their old width.
			h.ui.win.Content().Refresh()
			for _, label := range tt.want {
				b := h.button(h.ui.win, label)
				if b == nil {
					t.Fatalf("no button %q; the window shows:\n%s", label, strings.Join(h.texts(h.ui.win), "\n"))
				}
				if !inView(h.ui.win, b) {
					t.Errorf("at 640×480, %q is out of sight (at %v, %v; the window %v)", label,
						fyne.CurrentApp().Driver().AbsolutePositionForObject(b), b.Size(), h.ui.win.Canvas().Size())
				}
			}
		})
	}
}
