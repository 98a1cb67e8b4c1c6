package toolcard

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/gui/guitest"
	"deckhand/tools"
)

// TestToolCardHeaderNeverOverlaps: at every width, from a narrow
// window's card to a wide one, the header's parts (the tool's name, its
// state, Open view, Show all, Copy) stay whole, inside the card and apart:
// at 640×480 (128%) Open view was drawn over "done in 7 ms", Show all
// over "done in <1 ms", and "running" and a long name were cut at the
// card's edge. Where one line is too narrow, the state goes under the
// name and both wrap; and the card is as high as that.
func TestToolCardHeaderNeverOverlaps(t *testing.T) {
	h := newHarness(t)
	h.host.Tools = tools.NewCatalog(map[string]tools.Source{"basic-vanillajs": {Tools: []*sdk.Tool{
		{Name: "get-time", InputSchema: map[string]any{"type": "object"}, Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://get-time/view.html"}}},
	}}})
	h.finished("c1", "basic-vanillajs.get-time", "2026-11-27T10:58:34.132Z", nil)
	h.finished("c2", "local.tool_search", strings.Repeat("Tools matching \"add two numbers\", best first.\n", 40), nil)
	h.tr.ToolRequested("c3", "everything.trigger-long-running-operation", []byte(`{"duration": 60}`))
	h.tr.ToolStarted("c3", "everything.trigger-long-running-operation", nil)
	h.frame()
	cards := map[string]*Card{
		"Open view": h.card("basic-vanillajs.get-time"),
		"Show all":  h.card("local.tool_search"),
		"running":   h.card("everything.trigger-long-running-operation"),
	}
	if !cards["Open view"].OpenView.Visible() || !cards["Show all"].Expand.Visible() || cards["running"].State.Text != "running" {
		t.Fatalf("the cards do not show Open view %v, Show all %v, running %q", cards["Open view"].OpenView.Visible(),
			cards["Show all"].Expand.Visible(), cards["running"].State.Text)
	}
	d := fyne.CurrentApp().Driver()
	type box struct {
		what     string
		pos      fyne.Position
		size     fyne.Size
		min      fyne.Size
		text     string
		isButton bool
	}
	for width := float32(260); width <= 900; width += 20 {
		for what, c := range cards {
			t.Run(fmt.Sprintf("%s at %.0f", what, width), func(t *testing.T) {
				// Measured as the chat measures a row: laid out at the
				// list's width, refreshed, asked its height (from a wide
				// card's layout, as when the window narrows).
				v := c.View()
				v.Resize(fyne.NewSize(1000, v.MinSize().Height))
				v.Refresh()
				v.Resize(fyne.NewSize(width, v.MinSize().Height))
				v.Refresh()
				measured := v.MinSize().Height
				v.Resize(fyne.NewSize(width, measured))
				v.Refresh()
				if again := v.MinSize().Height; again != measured {
					t.Errorf("measured %v high, then %v at the same width", measured, again)
				}
				origin := d.AbsolutePositionForObject(v)
				var parts []box
				add := func(what string, o fyne.CanvasObject, text string, isButton bool) {
					if o.Visible() && text != "" {
						parts = append(parts, box{what, d.AbsolutePositionForObject(o).Subtract(origin), o.Size(), o.MinSize(), text, isButton})
					}
				}
				add("name", c.name, c.name.Text, false)
				add("state", c.stateObj, c.State.Text, false)
				add("Open view", c.OpenView, c.OpenView.Text, true)
				add("Show all", c.Expand, c.Expand.Text, true)
				add("Copy", c.Copy, "Copy", true)
				for i, p := range parts {
					if p.min.Height > p.size.Height+0.5 || p.min.Width > p.size.Width+0.5 {
						t.Errorf("the %s %q is cut: needs %v, has %v", p.what, p.text, p.min, p.size)
					}
					if p.pos.X < 0 || p.pos.X+p.size.Width > width+0.5 || p.pos.Y+p.size.Height > v.Size().Height+0.5 {
						t.Errorf("the %s %q (at %v, %v) is outside the card (%v wide, %v high)", p.what, p.text, p.pos, p.size, width, v.Size().Height)
					}
					for _, q := range parts[i+1:] {
						if p.pos.X < q.pos.X+q.size.Width && q.pos.X < p.pos.X+p.size.Width &&
							p.pos.Y < q.pos.Y+q.size.Height && q.pos.Y < p.pos.Y+p.size.Height {
							t.Errorf("the %s %q (at %v, %v) and the %s %q (at %v, %v) overlap", p.what, p.text, p.pos, p.size, q.what, q.text, q.pos, q.size)
						}
					}
				}
			})
		}
	}
}

// TestToolCardNameBreaksAtSeparators: a tool's name too wide for its
// room wraps after a separator (. - _), never inside a word: at 640×480
// "basic-vanillajs.get-time" was drawn "basic-vanillajs.get-tim" over "e".
func TestToolCardNameBreaksAtSeparators(t *testing.T) {
	h := newHarness(t)
	h.host.Tools = tools.NewCatalog(map[string]tools.Source{"basic-vanillajs": {Tools: []*sdk.Tool{
		{Name: "get-time", InputSchema: map[string]any{"type": "object"}, Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://get-time/view.html"}}},
	}}})
	h.finished("c1", "basic-vanillajs.get-time", "2026-11-27T10:58:34.132Z", nil)
	h.frame()
	c := h.card("basic-vanillajs.get-time")
	wrapped := false
	for width := float32(180); width <= 600; width += 5 {
		v := c.View()
		v.Resize(fyne.NewSize(width, v.MinSize().Height))
		v.Refresh()
		v.Resize(fyne.NewSize(width, v.MinSize().Height))
		var lines []string
		guitest.Walk(c.name, func(o fyne.CanvasObject) {
			if tx, ok := o.(*canvas.Text); ok && strings.TrimSpace(tx.Text) != "" {
				lines = append(lines, strings.TrimSpace(strings.ReplaceAll(tx.Text, "\u200a", "")))
			}
		})
		if got := strings.Join(lines, ""); got != "basic-vanillajs.get-time" {
			t.Fatalf("at %v the name reads %q", width, lines)
		}
		// Where no part between separators fits its line, a word must
		// break.
		widest := fyne.MeasureText("vanillajs.", theme.TextSize(), c.name.TextStyle).Width + 2*theme.InnerPadding()
		if c.name.Size().Width < widest {
			continue
		}
		wrapped = wrapped || len(lines) > 1
		for _, l := range lines[:len(lines)-1] {
			if !strings.ContainsAny(l[len(l)-1:], ".-_") {
				t.Errorf("at %v the name breaks inside a word: %q", width, lines)
				break
			}
		}
	}
	if !wrapped {
		t.Error("the name never wrapped: the widths tried are too wide")
	}
}
