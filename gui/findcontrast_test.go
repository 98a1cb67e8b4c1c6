package gui

import (
	"fmt"
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets/richtext"
	"deckhand/testutil"
)

// TestFindCodeMatchContrast: the current match of a find in a code block
// is readable on its orange mark in both themes, measured on the drawn
// pixels: the highlighted code's colours (a shell builtin in the primary
// blue) were drawn on the orange as they were on the code's background,
// "echo" at about 2:1.
func TestFindCodeMatchContrast(t *testing.T) {
	for _, th := range []string{config.ThemeLight, config.ThemeDark} {
		t.Run(th, func(t *testing.T) {
			answer := "Run this:\n\n```sh\necho hello world\n```\n\nDone."
			h := newHarness(t, harnessOptions{
				cfg:       func(c *config.Config) { c.UI.Theme = th },
				responses: []testutil.ModelResponse{{Body: testutil.TextChunks(answer)}}})
			h.ui.win.Resize(fyne.NewSize(1000, 700))
			h.say("show me")
			h.until("the answer", func() bool { return h.shows(h.ui.win, "Done.") && !h.ui.running })
			f := h.ui.chat.Find
			f.Open("echo")
			h.drain()
			var state string
			var ratio float64
			h.until("the current match in the code drawn", func() bool {
				h.ui.win.Content().Refresh()
				var cur *richtext.SelText
				guitest.Walk(h.ui.win.Content(), func(o fyne.CanvasObject) {
					if s, ok := o.(*richtext.SelText); ok && s.FoundCur {
						cur = s
					}
				})
				if cur == nil {
					state = fmt.Sprintf("no block marks the current match (the bar says %q)", f.Count.Text)
					return false
				}
				var mark *canvas.Rectangle
				for _, o := range append(cur.Marks.Objects, cur.Over.Objects...) {
					if r, ok := o.(*canvas.Rectangle); ok {
						mark = r // the block's one match
					}
				}
				if mark == nil {
					state = "no current mark"
					return false
				}
				ratio, state = drawnContrast(h.ui.win, mark)
				return true
			})
			t.Log(state)
			if ratio < 4.5 {
				t.Errorf("%s theme: the current match in code reads at %.1f:1 on its mark, want 4.5:1 at least (%s)", th, ratio, state)
			}
		})
	}
}

// drawnContrast is the contrast of a match's text on its mark, read from
// the drawn window in o's area: the mark is the colour most pixels have,
// the text the pixel that differs from it most.
func drawnContrast(w fyne.Window, o fyne.CanvasObject) (float64, string) {
	img := w.Canvas().Capture()
	scale := float32(img.Bounds().Dx()) / w.Canvas().Size().Width
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	s := o.Size()
	r := image.Rect(int((at.X+1)*scale), int((at.Y+1)*scale), int((at.X+s.Width-1)*scale), int((at.Y+s.Height-1)*scale))
	counts := map[color.NRGBA]int{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			counts[color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)]++
		}
	}
	var bg color.NRGBA
	for c, n := range counts {
		if n > counts[bg] {
			bg = c
		}
	}
	var text color.NRGBA
	best := 1.0
	for c := range counts {
		if k := contrast(c, bg); k > best {
			best, text = k, c
		}
	}
	return best, fmt.Sprintf("text %v on mark %v: %.1f:1", text, bg, best)
}
