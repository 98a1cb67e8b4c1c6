package gui

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/testutil"
)

// hoverTip rests the pointer on b and checks that tips shows want near it,
// whole in the window and off the button, and that it goes when the
// pointer moves to away.
func (h *harness) hoverTip(t *testing.T, tips *widgets.Tips, b *widgets.TipButton, want string, away fyne.CanvasObject) {
	t.Helper()
	c := h.ui.win.Canvas()
	drv := fyne.CurrentApp().Driver()
	test.MoveMouse(c, drv.AbsolutePositionForObject(away).AddXY(2, 2))
	at, size := drv.AbsolutePositionForObject(b), b.Size()
	test.MoveMouse(c, at.AddXY(size.Width/2, size.Height/2))
	h.until("the tip "+want, func() bool { return tips.Shown() == b })
	if tips.Label.Text != want {
		t.Errorf("the pointer on the button shows the tip %q, want %q", tips.Label.Text, want)
	}
	tp, ts := drv.AbsolutePositionForObject(tips.Label), tips.Label.Size()
	win := c.Size()
	if tp.X < 0 || tp.Y < 0 || tp.X+ts.Width > win.Width || tp.Y+ts.Height > win.Height {
		t.Errorf("the tip %q at %v, %v is not all in the %v window", want, tp, ts, win)
	}
	if tp.Y < at.Y+size.Height && tp.Y+ts.Height > at.Y && tp.X < at.X+size.Width && tp.X+ts.Width > at.X {
		t.Errorf("the tip %q at %v, %v covers its button at %v, %v", want, tp, ts, at, size)
	}
	test.MoveMouse(c, drv.AbsolutePositionForObject(away).AddXY(2, 2))
	if tips.Shown() != nil {
		t.Errorf("the tip %q stays after the pointer left", want)
	}
}

// TestComposerAndServersIconsNameThemselves: the paperclip under the
// message box, an attached file's ✕, and a server's Edit (pencil) and
// Remove (bin) on the Servers page name themselves when the pointer rests
// on them, in a 640x480 window at 128% text (the message box two lines
// high), as a message's Copy and Delete do. They showed only a hover fill.
func TestComposerAndServersIconsNameThemselves(t *testing.T) {
	up := testutil.ServeHTTP(t, testutil.NewServer("h"))
	h, sw := serversHarnessWith(t, map[string]config.Server{"h": {URL: up.StreamableURL}}, func(c *config.Config) { c.UI.TextScale = 1.28 })
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.until("h ready", func() bool { return h.serverState(sw, "h") == "ready" })

	t.Run("servers", func(t *testing.T) {
		r := sw.Rows["h"]
		h.hoverTip(t, sw.Tips, r.Edit, "Edit h", h.ui.side.Search)
		h.hoverTip(t, sw.Tips, r.Remove, "Remove h", h.ui.side.Search)
	})

	h.ui.toChat()
	h.drain()
	t.Run("composer", func(t *testing.T) {
		p := h.ui.comp
		h.hoverTip(t, p.Tips, p.Attach, "Attach files…", h.ui.title)
		file := filepath.Join(t.TempDir(), "notes.txt")
		if err := os.WriteFile(file, []byte("some notes"), 0o600); err != nil {
			t.Fatal(err)
		}
		p.Add(file)
		var x *widgets.TipButton
		h.until("the file's chip", func() bool {
			for _, b := range guitest.All[*widgets.TipButton](p.Chips) {
				if b.Tip == "Remove notes.txt" {
					x = b
				}
			}
			return x != nil
		})
		h.hoverTip(t, p.Tips, x, "Remove notes.txt", h.ui.title)
	})
}

// TestNoIconButtonWithoutAName: no button in the window shows an icon
// alone without a name for the pointer (a TipButton with its tip): in the
// chat with an answer in two versions and the find bar open, on the
// Servers page, a server's tools, in the Connect form and in the Settings. The paperclip and
// a server's pencil and bin were plain buttons.
func TestNoIconButtonWithoutAName(t *testing.T) {
	up := testutil.ServeHTTP(t, testutil.NewServer("h"))
	h, sw := serversHarness(t, map[string]config.Server{"h": {URL: up.StreamableURL}})
	h.model.Add(
		testutil.ModelResponse{Body: testutil.TextChunks("The zebrafinch sings.")},
		testutil.ModelResponse{Body: testutil.TextChunks("A robin sings.")},
	)
	h.until("h ready", func() bool { return h.serverState(sw, "h") == "ready" })
	check := func(place string) {
		t.Helper()
		h.drain()
		objs := append([]fyne.CanvasObject{h.ui.win.Canvas().Content()}, h.ui.win.Canvas().Overlays().List()...)
		n := 0
		var walk func(o fyne.CanvasObject)
		walk = func(o fyne.CanvasObject) {
			if o == nil || !o.Visible() {
				return
			}
			switch b := o.(type) {
			case *widget.SelectEntry, *widgets.PageSelectEntry:
				return // its arrow is the field's, which its form label names
			case *widget.Button:
				n++
				if b.Text == "" && b.Icon != nil {
					t.Errorf("%s: a button shows the icon %s alone, with no name", place, b.Icon.Name())
				}
			case *widgets.RingButton:
				n++
				if b.Text == "" && b.Icon != nil {
					t.Errorf("%s: a button shows the icon %s alone, with no name", place, b.Icon.Name())
				}
			case *widgets.TipButton:
				n++
				if b.Text == "" && b.Tip == "" {
					t.Errorf("%s: a button shows the icon %v alone, with no tip", place, b.Icon)
				}
			}
			switch x := o.(type) {
			case *fyne.Container:
				for _, c := range x.Objects {
					walk(c)
				}
			case fyne.Widget:
				for _, c := range test.WidgetRenderer(x).Objects() {
					walk(c)
				}
			}
		}
		for _, o := range objs {
			walk(o)
		}
		if n == 0 {
			t.Errorf("%s: no button found: the check proves nothing", place)
		}
	}
	check("servers")
	sw.ShowTools("h")
	h.until("h's tools", func() bool { return sw.Tools != nil && h.shows(h.ui.win, "echo") })
	check("a server's tools")
	h.ui.showServers()
	sw.ShowConnect()
	check("connect form")
	sw.Form.Kind.SetSelected("Command")
	check("connect form, a command")
	sw.Form.Close()
	h.ui.showSettings()
	check("settings")
	h.ui.toChat()
	h.twoVersions()
	h.ui.chat.Find.Open("robin")
	check("chat")
}
