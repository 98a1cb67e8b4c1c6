package chat

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/tools"
)

// A card's Open view follows the tools offered: gone when its server
// disconnects, back when it connects again. The cards were drawn again
// only when their rows changed: in the window, Open view stayed away once
// the server was back (and a click on it while it was gone said the tool
// was not offered, which stayed too).
func TestCardsFollowTheToolsOffered(t *testing.T) {
	h := newCardHarness(t)
	withView := tools.NewCatalog(map[string]tools.Source{"app": {Tools: []*sdk.Tool{
		{Name: "get-time", InputSchema: map[string]any{"type": "object"}, Meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://get-time/view.html"}}},
	}}})
	h.ui.Tools = withView
	h.finished("c1", "app.get-time", "12:00", nil)
	h.drain()
	r := h.card("app.get-time")
	if r == nil || !r.Tool().OpenView.Visible() {
		t.Fatal("the card offers no Open view")
	}
	h.ui.Tools = tools.NewCatalog(nil)
	h.ui.chat.ToolsChanged()
	if r.Tool().OpenView.Visible() {
		t.Error("its server gone, the card still offers Open view")
	}
	h.ui.Tools = withView
	h.ui.chat.ToolsChanged()
	if !r.Tool().OpenView.Visible() {
		t.Error("its server back, the card offers no Open view")
	}
}
