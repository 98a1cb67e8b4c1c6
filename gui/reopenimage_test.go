package gui

import (
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/config"
	"deckhand/testutil"
	"deckhand/transcript"
)

// A tool's image is shown again on its card when the chat is read back
// from the log (after a restart), from its file beside the log, not named
// by a placeholder.
func TestReopenedSessionShowsToolImages(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "deckhand.db")
	rules := func(c *config.Config) { c.MCP.AutoApprove = map[string]bool{"m.shot": true} }
	servers := func() map[string]*sdk.Server { return map[string]*sdk.Server{"m": testutil.NewMediaServer("m")} }
	h := newHarness(t, harnessOptions{dbPath: dbPath, cfg: rules, inProcess: servers(),
		fallback: toolThenText(testutil.ToolCallSpec{ID: "c1", Name: "m__shot", Arguments: `{}`}, "That is the page.")})
	h.until("m's tools", func() bool { return h.ui.catalog != nil && hasTool(h, "m.shot") })
	h.say("show me the page")
	h.until("the answer", func() bool { return h.shows(h.ui.win, "That is the page.") })
	if err := h.sys.SyncLog(t.Context()); err != nil {
		t.Fatal(err)
	}
	h.ui.Stop()

	h2 := newHarness(t, harnessOptions{dbPath: dbPath, cfg: rules, inProcess: servers()})
	h2.until("the logged session", func() bool { return len(h2.ui.side.Items) == 1 })
	h2.ui.side.List.Select(0)
	h2.until("the card from the log", func() bool {
		c := h2.card("m.shot")
		return c != nil && c.Row.State == transcript.Succeeded
	})
	h2.until("the image from the log", func() bool {
		c := h2.card("m.shot")
		return c.Row.Media != nil && len(c.Row.Media.Images) == 1 && c.Tool().Media.Pic.Pic.Image != nil
	})
	if img := h2.card("m.shot").Row.Media.Images[0]; img.Refused != "" || len(img.Data) == 0 {
		t.Errorf("the image read back: %d bytes, refused %q", len(img.Data), img.Refused)
	}
}
