package gui

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/gui/chat"
	"deckhand/testutil"
	"deckhand/transcript"
)

// TestToolCardEndInTheWindow: in the window at 640×480 and 1280×800, a
// long result's card ends, in view above the chat's last answer, in its
// control ("Show the whole result (… more)"), whole and inside the card;
// pressed with Space, the whole result shows (its first thousand lines,
// and a note with Copy all for the rest) and the control, now Show less,
// stays where it was, with the focus; pressed again, the result is cut
// again, the control still there. With DECKHAND_SHOTS set, the window is
// written there as PNGs to look at.
func TestToolCardEndInTheWindow(t *testing.T) {
	long := strings.Repeat("a line of output\n", 1100)
	for _, size := range []fyne.Size{{Width: 640, Height: 480}, {Width: 1280, Height: 800}} {
		t.Run(fmt.Sprintf("%.0fx%.0f", size.Width, size.Height), func(t *testing.T) {
			h := newHarness(t, harnessOptions{
				cfg:      func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.*": true} },
				fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": ` + jsonQuote(long) + `}`}, "Done."),
			})
			h.ui.win.Resize(size)
			h.say("echo a lot")
			var c *chat.RowView
			h.until("the cut card and the answer", func() bool {
				c = h.card("t.echo")
				return c != nil && c.Row.State == transcript.Succeeded && c.Tool().OutMore.Visible() && h.shows(h.ui.win, "Done.")
			})
			h.queue.Settle()
			shot := func(name string) {
				dir := os.Getenv("DECKHAND_SHOTS")
				if dir == "" {
					return
				}
				f, err := os.Create(filepath.Join(dir, fmt.Sprintf("toolcard-%s-%.0f.png", name, size.Width)))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				png.Encode(f, h.ui.win.Canvas().Capture())
			}
			d := fyne.CurrentApp().Driver()
			list := h.ui.chat.List
			inView := func(o fyne.CanvasObject) bool {
				y := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(list).Y
				return y >= 0 && y+o.Size().Height <= list.Size().Height
			}
			end := c.Tool().OutMore
			border := c.Tool().Border
			x, bx := d.AbsolutePositionForObject(end).X, d.AbsolutePositionForObject(border).X
			if !strings.HasPrefix(end.Text, "Show the whole result (") || !inView(end) {
				t.Errorf("the cut result ends in %q, in view %v", end.Text, inView(end))
			}
			if end.Size().Width < end.MinSize().Width || x < bx || x+end.Size().Width > bx+border.Size().Width {
				t.Errorf("the control is %v wide (needs %v) at x %v, in a card from %v to %v", end.Size().Width, end.MinSize().Width,
					x, bx, bx+border.Size().Width)
			}
			shot("cut")
			at := d.AbsolutePositionForObject(end).Y
			// Tab from the message box, round the window and into the
			// chat, reaches it, and its ring shows; pressed with Space, the
			// focus stays on it.
			cv := h.ui.win.Canvas()
			cv.Focus(h.ui.input)
			var seen []string
			for range 40 {
				if cv.Focused() == fyne.Focusable(end) {
					break
				}
				cv.FocusNext()
				seen = append(seen, fmt.Sprintf("%T", cv.Focused()))
			}
			if cv.Focused() != fyne.Focusable(end) {
				t.Fatalf("Tab from the message box never reached the result's end; it went through %q", seen)
			}
			if shown, has := ringShown(end); !has || !shown {
				t.Error("the focused control at the result's end shows no ring")
			}
			for _, tt := range []struct{ name, says string }{
				{name: "whole", says: "Show less"},
				{name: "cut-again", says: "Show the whole result ("},
			} {
				cv.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
				h.until("the result "+tt.name, func() bool {
					c = h.card("t.echo")
					return c != nil && strings.HasPrefix(c.Tool().OutMore.Text, tt.says)
				})
				h.queue.Settle()
				end = c.Tool().OutMore
				if tt.name == "whole" && (!c.Tool().OutCopy.Visible() || !inView(c.Tool().OutCopy)) {
					t.Error("shown whole, the result's first thousand lines end without Copy all in view")
				}
				if now := d.AbsolutePositionForObject(end).Y; now < at-1 || now > at+1 || !inView(end) || cv.Focused() != fyne.Focusable(end) {
					t.Errorf("%s: the control pressed moved from %v to %v (in view %v, focused %v)", tt.name, at, now, inView(end), cv.Focused() == fyne.Focusable(end))
				}
				shot(tt.name)
			}
		})
	}
}

// TestToolCardHeaderShowAllKeepsTheHeader: the header's Show all, on a
// card above the chat's last answer, leaves the header where it is, the
// card growing below it. In the window the view jumped to the chat's end,
// the header out of sight: the chat still followed its end as it does
// after it is opened (Reset), until the next frame, which was this
// card's.
func TestToolCardHeaderShowAllKeepsTheHeader(t *testing.T) {
	long := strings.Repeat("a line of output\n", 60)
	h := newHarness(t, harnessOptions{
		cfg:      func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"t.*": true} },
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "t__echo", Arguments: `{"text": ` + jsonQuote(long) + `}`}, "Done."),
	})
	h.ui.win.Resize(fyne.NewSize(1280, 800))
	h.say("echo a lot")
	var c *chat.RowView
	h.until("the cut card and the answer", func() bool {
		c = h.card("t.echo")
		return c != nil && c.Row.State == transcript.Succeeded && c.Tool().Expand.Visible() && h.shows(h.ui.win, "Done.")
	})
	h.queue.Settle()
	d := fyne.CurrentApp().Driver()
	at := d.AbsolutePositionForObject(c.Tool().Expand).Y
	test.Tap(c.Tool().Expand)
	h.until("the whole result", func() bool {
		c = h.card("t.echo")
		return c != nil && strings.Count(c.Tool().Out.String(), "a line of output") == 60
	})
	h.queue.Settle()
	if c = h.card("t.echo"); c == nil {
		t.Fatal("after the header's Show all the card is out of view")
	}
	if now := d.AbsolutePositionForObject(c.Tool().Expand).Y; now != at {
		t.Errorf("the header's Show all moved from %v to %v", at, now)
	}
}
