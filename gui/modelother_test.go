package gui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
)

// TestModelOtherDialog: the model picker's Other… opens a field wide
// enough for a provider's long model name, with the keyboard in it at
// once (what is typed lands there); Enter uses the name, Escape cancels
// and keeps the model. At 1100x720, and at 640x480 with the text at 128%.
// (Issue 29: a tiny field, not focused, typing lost, Enter did nothing.)
func TestModelOtherDialog(t *testing.T) {
	const long = "meta-llama/Llama-3.3-70B-Instruct-Turbo"
	for _, tt := range []struct {
		name  string
		size  fyne.Size
		scale float64
	}{
		{"1100x720", fyne.NewSize(1100, 720), 1},
		{"640x480 at 128%", fyne.NewSize(640, 480), 1.28},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = tt.scale }})
			h.ui.win.Resize(tt.size)
			p := h.ui.comp
			h.until("the listing to end", func() bool { return p.ListedOf != "" })
			open := func() *widget.Entry {
				t.Helper()
				h.ui.win.Canvas().Focus(p.Picker)
				p.Picker.SetSelected("Other…")
				h.drain()
				e, ok := h.ui.win.Canvas().Focused().(entryOf)
				if !ok {
					t.Fatalf("Other… gave no field the keyboard (it is on %T)", h.ui.win.Canvas().Focused())
				}
				return e.EntryWidget()
			}

			field := open()
			h.typeText(long)
			if field.Text != long {
				t.Errorf("typed %q, the field holds %q", long, field.Text)
			}
			need := fyne.MeasureText(long, theme.TextSize(), fyne.TextStyle{}).Width + 2*theme.InnerPadding()
			if got := field.Size().Width; got < need {
				t.Errorf("the field is %.0f px wide, %q needs %.0f", got, long, need)
			}
			right := fyne.CurrentApp().Driver().AbsolutePositionForObject(field).X + field.Size().Width
			if w := h.ui.win.Canvas().Size().Width; right > w {
				t.Errorf("the field ends at x=%.0f, past the window's %.0f", right, w)
			}
			h.key(fyne.KeyEscape)
			h.drain()
			if h.ui.win.Canvas().Overlays().Top() != nil || p.Picker.Selected != "scripted" {
				t.Errorf("Escape: the dialog shown %v, the model %q; want it closed, scripted kept",
					h.ui.win.Canvas().Overlays().Top() != nil, p.Picker.Selected)
			}

			open()
			h.typeText(long)
			h.key(fyne.KeyReturn)
			h.until("the typed model", func() bool { return p.Picker.Selected == long })
			if h.ui.win.Canvas().Overlays().Top() != nil {
				t.Errorf("Enter left the dialog open")
			}
			if strings.Contains(h.ui.input.Text, "Llama") {
				t.Errorf("the name went into the message box: %q", h.ui.input.Text)
			}
		})
	}
}

// typeText types s, a rune at a time, into what has the keyboard, as a
// person does (nothing if nothing has it).
func (h *harness) typeText(s string) {
	h.t.Helper()
	for _, r := range s {
		if f := h.ui.win.Canvas().Focused(); f != nil {
			f.TypedRune(r)
		}
	}
}
