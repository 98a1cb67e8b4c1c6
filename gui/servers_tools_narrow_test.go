package gui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/testutil"
	"deckhand/tools"
)

// everythingLike is a server with tools named and described as
// server-everything's are: names of up to 24 characters, a long line of
// description, and a schema whose JSON runs wider than a small window.
func everythingLike() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "example-servers/everything", Version: "1.0.0"}, nil)
	type in struct {
		Level string `json:"level" jsonschema:"the logging level to send messages at, one of debug, info, notice, warning, error, critical, alert or emergency"`
	}
	for _, name := range []string{"echo", "get-resource-reference", "toggle-simulated-logging", "get-structured-content", "trigger-long-running-operation", "get-tiny-image"} {
		sdk.AddTool(s, &sdk.Tool{Name: name, Description: "Toggles simulated, random-leveled logging on or off, and says which level it sends at, for a client to test its logging notifications"},
			func(context.Context, *sdk.CallToolRequest, in) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil, nil
			})
	}
	return s
}

// TestServersToolsFitASmallWindow: at 640×480 with the text at 128%, a
// server's tools page shows each tool's name whole in its list, its page
// wrapped inside the window, under one title row. The list was a column
// of about 60 px, each row a check box and "…"; the page's text ran past
// the window's edge ("its annotations are l"); and the page had two title
// rows ("Back to the chat · Tools of everything" and "‹ Servers · Tools of
// everything").
func TestServersToolsFitASmallWindow(t *testing.T) {
	up := testutil.ServeHTTP(t, everythingLike())
	h, sw := serversHarness(t, map[string]config.Server{"everything": {URL: up.StreamableURL}})
	applyLook(h.app, config.UI{TextScale: 1.28})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	h.until("everything's tools", func() bool { return h.ui.catalog != nil && hasTool(h, "everything.toggle-simulated-logging") })
	h.ui.showServers()
	test.Tap(sw.Rows["everything"].Tools)
	tw := sw.Tools
	h.until("the listing", func() bool { return tw.Loaded && len(tw.List) == 6 })
	tw.ToolList.Select(slices.IndexFunc(tw.List, func(x tools.Tool) bool { return x.Name == "toggle-simulated-logging" }))
	h.drain()

	var titles []string
	for _, l := range guitest.All[*widget.Label](h.ui.win.Content()) {
		if strings.Contains(l.Text, "Tools of everything") {
			titles = append(titles, l.Text)
		}
	}
	if len(titles) != 1 {
		t.Errorf("the page's title shows %d times: %q", len(titles), titles)
	}

	// Each row's name shows whole.
	h.until("the rows drawn", func() bool { return len(guitest.All[*widget.Label](tw.ToolList)) > 0 })
	rows := guitest.All[*widget.Label](tw.ToolList)
	if len(rows) == 0 {
		t.Fatalf("no row on screen: the list %v at %v, horizontal %v; the page %v", tw.ToolList.Size(), tw.ToolList.Position(), tw.ToolList.Visible(), h.ui.panel.view.Size())
	}
	for _, l := range rows {
		if need, got := widget.NewLabel(l.Text).MinSize().Width, l.Size().Width; need > got+0.5 {
			t.Errorf("the row %q needs %.0f px, it has %.0f", l.Text, need, got)
		}
	}

	// The page's text ends at the window's edge: the page is no wider
	// than the pane, and no line of the tool's page runs past its view.
	split := h.ui.win.Content().(*container.Split)
	pane := split.Trailing.(*container.Scroll)
	if m, w := h.ui.mainArea.MinSize().Width, pane.Size().Width; m > w {
		t.Errorf("the tools page needs %.0f px wide, the pane is %.0f", m, w)
	}
	var view *container.Scroll
	guitest.Walk(h.ui.panel.view, func(o fyne.CanvasObject) {
		if s, ok := o.(*container.Scroll); ok && s.Content == fyne.CanvasObject(tw.Detail) {
			view = s
		}
	})
	if view == nil {
		t.Fatal("the tool's page is not in a scroller")
	}
	d := fyne.CurrentApp().Driver()
	if cut := cutText(tw.Detail, d.AbsolutePositionForObject(view).X+view.Size().Width); len(cut) > 0 {
		t.Errorf("lines of the tool's page run past its view's edge:\n%s", strings.Join(cut, "\n"))
	}
	// The other words of the page (the hint, Run's note) wrap or fit.
	if cut := cutText(h.ui.panel.view, d.AbsolutePositionForObject(pane).X+pane.Size().Width); len(cut) > 0 {
		t.Errorf("words of the page run past the window's edge:\n%s", strings.Join(cut, "\n"))
	}
}

// cutText lists the texts under o that run past right, or are cut short
// in their labels; what lies in a scroller of its own (a code block,
// which scrolls sideways) is cut only if that scroller is. The rows of a
// list (which end in "…" when narrow) are left to the caller.
func cutText(o fyne.CanvasObject, right float32) []string {
	d := fyne.CurrentApp().Driver()
	var cut []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		end := d.AbsolutePositionForObject(o).X + o.Size().Width
		switch x := o.(type) {
		case *widget.List:
			return
		case *container.Scroll:
			if x.Direction == container.ScrollHorizontalOnly || x.Direction == container.ScrollBoth {
				if end > right+0.5 {
					cut = append(cut, fmt.Sprintf("a scroller ending at x=%.0f, past %.0f", end, right))
				}
				return
			}
		case *widget.Label:
			if x.Text == "" {
				return
			}
			short := x.Wrapping == fyne.TextWrapOff && widget.NewLabel(x.Text).MinSize().Width > x.Size().Width+0.5
			if end > right+0.5 || short || x.MinSize().Height > x.Size().Height+0.5 {
				cut = append(cut, fmt.Sprintf("%q: %v up to x=%.0f (the edge at %.0f), needs %v", x.Text, x.Size(), end, right, x.MinSize()))
			}
			return
		case *canvas.Text:
			if x.Text != "" {
				if end := d.AbsolutePositionForObject(x).X + x.MinSize().Width; end > right+0.5 {
					cut = append(cut, fmt.Sprintf("%q ends at x=%.0f, past %.0f", x.Text, end, right))
				}
			}
			return
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
	walk(o)
	return cut
}
