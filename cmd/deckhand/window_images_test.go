package main

import (
	"fmt"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/testutil"
)

// server-everything's tiny image (an optional chunk with a bad checksum,
// which browsers show) shows as a picture; an image whose data does not
// decode shows its note at once, in the card, without folding it.
func TestWindowToolImages(t *testing.T) {
	p := testutil.RequirePeers(t)
	media := testutil.ServeHTTP(t, testutil.NewMediaServer("m"))
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "ev__get-tiny-image", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "b", Name: "m__broken", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("two images")},
	)
	cfg := fmt.Sprintf(`[model]
base_url = %q
name = "scripted"

[tools]
enabled = false

[mcp.servers.ev]
command = %q
args = [%q, "stdio"]

[mcp.servers.m]
url = %q

[mcp.auto_approve]
"ev.*" = true
"m.*" = true
`, model.URL, p.Node, p.Everything, media.StreamableURL)
	w := startRealWindow(t, cfg, nil)
	w.waitScreen("both servers ready", func(s gui.Screen) bool { return shows(s, "2 servers ready") })
	box, _ := findEntry(w.screen(), "Message Deckhand")
	w.click(box)
	w.typeText("show me")
	w.key("Return")
	s := w.waitScreen("the tiny image and the broken one's note", func(s gui.Screen) bool {
		_, pic := find(s, "image", "bitmap")
		_, note := find(s, "label", "could not be decoded")
		return pic && note && shows(s, "two images")
	})
	w.keep("tool-images.png")
	if n := strings.Count(s.ScreenText(), "[image] bitmap"); n != 1 {
		t.Errorf("%d pictures shown, want the tiny image's:\n%s", n, s.ScreenText())
	}
}
