package chat

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/tools"
)

// A card offers Open view when its tool names a view, and not otherwise;
// the view is given the card's result (package appview).
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
	var viewed, plain *RowView
	h.until("both cards", func() bool {
		viewed, plain = h.card("app.get-time"), h.card("app.plain")
		return viewed != nil && plain != nil
	})
	if !viewed.Tool().OpenView.Visible() {
		t.Error("the card of a tool with a view does not offer Open view")
	}
	if plain.Tool().OpenView.Visible() {
		t.Error("the card of a tool without a view offers Open view")
	}
}
