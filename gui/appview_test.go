package gui

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/tools"
	"deckhand/transcript"
)

// A card offers Open view when its tool names a view, and not otherwise;
// the view is given the card's result with its structured content.
func TestToolCardOffersItsView(t *testing.T) {
	h := newCardHarness(t)
	h.ui.catalog = tools.NewCatalog(map[string]tools.Source{"app": {Tools: []*sdk.Tool{
		{Name: "get-time", InputSchema: map[string]any{"type": "object"}, Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://get-time/view.html"}}},
		{Name: "plain", InputSchema: map[string]any{"type": "object"}},
	}}})
	h.finished("c1", "app.get-time", "12:00", nil)
	h.tr.ToolStructured("c1", []byte(`{"time":"12:00"}`))
	h.finished("c2", "app.plain", "ok", nil)
	h.frame()
	var viewed, plain *rowView
	h.until("both cards", func() bool {
		viewed, plain = h.card("app.get-time"), h.card("app.plain")
		return viewed != nil && plain != nil
	})
	if !viewed.tool().openView.Visible() {
		t.Error("the card of a tool with a view does not offer Open view")
	}
	if plain.tool().openView.Visible() {
		t.Error("the card of a tool without a view offers Open view")
	}
	res := cardResult(viewed.row)
	if got, _ := res.StructuredContent.(map[string]any)["time"]; got != "12:00" || res.IsError {
		t.Errorf("cardResult = %+v, want the structured content, not an error", res)
	}
	if r := cardResult(transcript.Row{State: transcript.Running}); r != nil {
		t.Errorf("cardResult of a running call = %+v, want nil", r)
	}
}
