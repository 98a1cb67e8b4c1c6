package gui

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"deckhand/gui/guitest"
	"deckhand/gui/widgets"

	"deckhand/config"
)

// TestServersConnectFitsASmallWindowFromTheStart: at 640×480 with the
// text at 125%, Servers ▸ Connect a server… fits its pane as it first
// opens (kind URL), for a command, and after the kind is switched back
// and forth: no field reaches past the pane's right edge and the pane
// does not scroll sideways, and each field shows its placeholder whole.
// It first opened with the labels beside the fields, the URL and Alias
// fields too narrow for their placeholders at the window's edge
// (placeholders cut: the fields were 256 px, "https://mcp.example.com/mcp"
// needs 276 and "derived from the URL or command" 309); only the Command
// kind, with its wide check box, stacked the labels.
func TestServersConnectFitsASmallWindowFromTheStart(t *testing.T) {
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.25 }})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.ui.showServers()
	h.drain()
	sw := h.ui.serversW
	sw.ShowConnect()
	f := sw.Form
	h.drain()
	fits := func(when string) {
		t.Helper()
		pane := h.ui.pane
		pane.Refresh()
		if need, have := h.ui.mainArea.MinSize().Width, pane.Size().Width; need > have {
			t.Errorf("%s: the form needs %.0f px wide, the pane is %.0f", when, need, have)
		}
		pane.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DX: -25}})
		if pane.Offset.X != 0 {
			t.Errorf("%s: the pane scrolls %.0f px sideways", when, pane.Offset.X)
			pane.Offset.X = 0
			pane.Refresh()
		}
		d := fyne.CurrentApp().Driver()
		edge := d.AbsolutePositionForObject(pane).X + pane.Size().Width
		n := 0
		guitest.Walk(f.Win.Content(), func(o fyne.CanvasObject) {
			switch o.(type) {
			case *widget.Entry, *widget.Select, *widget.Check, *widget.RadioGroup, *widget.Button, *widget.Label:
			default:
				return
			}
			n++
			if right := d.AbsolutePositionForObject(o).X + o.Size().Width; right > edge+0.5 {
				t.Errorf("%s: a %T ends at %.0f px, past the pane's edge at %.0f", when, o, right, edge)
			}
		})
		if n == 0 {
			t.Fatalf("%s: no control drawn", when)
		}
		// Each field is as wide as its placeholder ("https://mcp.example.com/mc",
		// "derived from the URL or com" was all the person saw). The
		// command's example is longer than the pane: it is cut stacked too.
		entries := map[string]*widget.Entry{"Alias": &f.Alias.Entry}
		if f.Kind.Selected == "URL" {
			entries["URL"], entries["Token variable"] = &f.Target.Entry, &f.AuthEnv.Entry
		}
		for name, e := range entries {
			need := fyne.MeasureText(e.PlaceHolder, theme.TextSize(), e.TextStyle).Width + 2*theme.InnerPadding()
			if w := e.Size().Width; w < need {
				t.Errorf("%s: the %s field is %.0f px wide, its placeholder %q needs %.0f", when, name, w, e.PlaceHolder, need)
			}
		}
	}
	if f.Kind.Selected != "URL" {
		t.Fatalf("the form opened with kind %q, want URL", f.Kind.Selected)
	}
	fits("first shown (URL)")
	for _, kind := range []string{"Command", "URL", "Command", "URL"} {
		f.Kind.SetSelected(kind)
		h.drain()
		fits("after choosing " + kind)
	}
	// And after the window was wide (labels beside) and small again.
	h.ui.win.Resize(fyne.NewSize(1100, 720))
	h.drain()
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.drain()
	fits("back to 640 px from 1100")
}

// TestServersConnectFitsAfterAFailureAndAKindSwitch: at 640×480 in the
// light theme with the text at 125%, a try that failed and then a switch
// of Kind (URL to Command and back) leave the connect form in its pane:
// its labels above the fields, the hints wrapped, Cancel and Connect and
// save whole inside the window. (New-user pass 15, N3: the failure's
// heading, grown to "Could not connect (the last try, before your
// change)" by the switch, was one bold line wider than the pane; the
// form grew with it, "Connect and save" was cut to "Co", and the form
// went to its labels-beside layout, cut at the right.)
func TestServersConnectFitsAfterAFailureAndAKindSwitch(t *testing.T) {
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Internal Server Error: upstream database unreachable (pool exhausted after 30s)", http.StatusInternalServerError)
	}))
	t.Cleanup(bad.Close)
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.25; c.UI.Theme = "light" }})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.ui.showServers()
	h.drain()
	sw := h.ui.serversW
	sw.ShowConnect()
	f := sw.Form
	f.Target.SetText(bad.URL + "/mcp")
	h.tap(f.Win, "Connect and save")
	h.until("the try to end", func() bool { return !f.Trying() && f.Problems.Visible() })
	h.drain()
	d := fyne.CurrentApp().Driver()
	edge := h.ui.win.Canvas().Size().Width
	check := func(when string) {
		t.Helper()
		h.ui.pane.Refresh()
		h.drain()
		for _, label := range []string{"Cancel", "Connect and save"} {
			var b fyne.CanvasObject
			guitest.Walk(h.ui.win.Content(), func(o fyne.CanvasObject) {
				if r, ok := o.(*widgets.RingButton); ok && r.Text == label && b == nil {
					b = r
				}
			})
			if b == nil {
				t.Fatalf("%s: no button %q", when, label)
			}
			if right := d.AbsolutePositionForObject(b).X + b.Size().Width; right > edge+0.5 {
				t.Errorf("%s: %q ends at %.0f px, past the window's edge at %.0f", when, label, right, edge)
			}
		}
		if need, have := h.ui.mainArea.MinSize().Width, h.ui.pane.Size().Width; need > have {
			t.Errorf("%s: the form needs %.0f px wide, the pane is %.0f", when, need, have)
		}
		guitest.Walk(f.Win.Content(), func(o fyne.CanvasObject) {
			if form, ok := o.(*widget.Form); ok && form.Orientation != widget.Vertical {
				t.Errorf("%s: the form's labels are beside its fields at 640 px", when)
			}
		})
	}
	check("after the failure")
	for _, kind := range []string{"Command", "URL", "Command"} {
		f.Kind.SetSelected(kind)
		h.drain()
		check("after the failure and choosing " + kind)
	}
}
