package gui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/sidebar"
	"deckhand/gui/widgets"
	"deckhand/testutil"
)

// ringShown reports whether o draws a focus ring, and whether it can.
func ringShown(o fyne.CanvasObject) (shown, has bool) {
	w, ok := o.(fyne.Widget)
	if !ok {
		return false, false
	}
	r, ok := test.WidgetRenderer(w).(interface{ RingShown() bool })
	if !ok {
		return false, false
	}
	return r.RingShown(), true
}

// TestMainWindowFocusIsMarked: Tab from the message box around the main
// window, in the light and the dark theme: a control whose own mark does
// not show (an accent button: Fyne tints its fill with the accent; the
// chat list: its highlight is the open chat's selection) is ringed. Send,
// New chat and the list showed nothing.
func TestMainWindowFocusIsMarked(t *testing.T) {
	for _, th := range []string{"light", "dark"} {
		t.Run(th, func(t *testing.T) {
			h := newHarness(t, harnessOptions{responses: []testutil.ModelResponse{{Body: testutil.TextChunks("Hello.")}}})
			applyLook(h.app, config.UI{Theme: th})
			h.say("hi")
			h.until("the answer", func() bool { return h.shows(h.ui.win, "Hello.") && !h.ui.running })
			c := h.ui.win.Canvas()
			c.Focus(h.ui.input)
			var seen []string
			for range 40 {
				c.FocusNext()
				f := c.Focused()
				if f == nil || f == fyne.Focusable(h.ui.input) {
					break
				}
				name := fmt.Sprintf("%T", f)
				o, _ := f.(fyne.CanvasObject)
				shown, has := ringShown(o)
				switch x := f.(type) {
				case *widgets.RingButton:
					name = x.Text
				case *widget.Button:
					name = x.Text
					if x.Importance != widget.MediumImportance && x.Importance != widget.LowImportance {
						t.Errorf("Tab onto %q, an accent button with no ring: its focus does not show", x.Text)
					}
				}
				if has && !shown {
					t.Errorf("Tab onto %s: its ring is not shown", name)
				}
				if _, list := f.(*sidebar.List); list && !has {
					t.Errorf("Tab onto the chat list (%s): no ring", name)
				}
				seen = append(seen, name)
			}
			t.Logf("Tab went through %q", seen)
			for _, want := range []string{"Send", "New chat", "*sidebar.List"} {
				found := false
				for _, s := range seen {
					found = found || s == want
				}
				if !found {
					t.Errorf("Tab never reached %s; it went through %q", want, seen)
				}
			}
		})
	}
}

// TestApprovalFillFollowsTheRing: the approval's Deny is filled as the
// default (Enter denies) until Tab rings a button; then no button but the
// ringed one may look chosen. Deny kept its fill beside Allow once's ring.
func TestApprovalFillFollowsTheRing(t *testing.T) {
	h := approvalHarness(t, nil)
	h.say("echo hi")
	h.until("the approval dialog", func() bool { return h.ui.dialogs.Approvals.Shown() != nil })
	c := h.ui.win.Canvas()
	filled := func() (out []string) {
		guitest.Walk(c.Overlays().Top(), func(o fyne.CanvasObject) {
			if b, ok := o.(*widgets.RingButton); ok && b.Importance == widget.HighImportance {
				if shown, _ := ringShown(b); !shown {
					out = append(out, b.Text)
				}
			}
		})
		return out
	}
	if got := filled(); len(got) != 1 || got[0] != "Deny" {
		t.Fatalf("before Tab, filled %q, want [Deny]", got)
	}
	for i := range 3 {
		c.FocusNext()
		if got := filled(); len(got) != 0 {
			t.Errorf("after %d Tab (on %q), %q filled beside the ring", i+1, c.Focused().(*widgets.RingButton).Text, got)
		}
	}
	c.Unfocus()
	if got := filled(); len(got) != 1 || got[0] != "Deny" {
		t.Errorf("with no button focused, filled %q, want [Deny] (Enter denies)", got)
	}
}
