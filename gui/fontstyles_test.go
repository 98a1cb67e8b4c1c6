package gui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/google/go-cmp/cmp"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/testutil"
)

// Fyne parses its fonts again for each text style it measures or draws
// (about 8.7 MB of heap a style, for the life of the process:
// BenchmarkWindowMemory). A chat whose answer has bold text and code, then
// the servers, a server's tools and the settings opened and closed, use
// the styles that chat needs and no other, at any text size. Notices were
// italic, and the chat measures a sample of each kind of row when its
// width or text size changes; at 120% the settings drew the window at
// 100%, then at 120% again, as they opened: two theme changes, each
// emptying Fyne's font cache and measuring the samples again.
func TestPanelTextStyles(t *testing.T) {
	for _, scale := range []float64{1, 1.2} {
		t.Run(fmt.Sprintf("%.0f%%", scale*100), func(t *testing.T) {
			h := newHarness(t, harnessOptions{
				fallback: func(map[string]any) testutil.ModelResponse {
					return testutil.ModelResponse{Body: testutil.TextChunks("A short answer, with **bold** text:\n\n```go\nfunc main() {}\n```\n")}
				},
				cfg: func(c *config.Config) { c.UI.TextScale = scale },
			})
			h.ui.win.Resize(fyne.NewSize(1100, 720))
			h.ui.win.Show()
			guitest.ForgetFontFaces()
			h.say("hello")
			h.until("the answer", func() bool { return h.shows(h.ui.win, "A short answer, with bold text:") && !h.ui.running })
			h.drain()
			h.ui.win.Resize(fyne.NewSize(1000, 720)) // the chat measures its samples again
			h.drain()
			chat := guitest.FontFaces()

			h.ui.showServers()
			sw := h.ui.serversW
			h.until("t's row", func() bool { return sw.Rows["t"] != nil && h.serverState(sw, "t") == "ready" })
			sw.ShowTools("t")
			h.until("t's tools", func() bool { return h.shows(h.ui.win, "Tools of t") })
			h.drain()
			h.press(fyne.KeyEscape)
			h.press(fyne.KeyEscape)
			restyled := 0
			h.app.Settings().AddListener(func(fyne.Settings) { restyled++ })
			h.ui.showSettings()
			h.drain()
			h.press(fyne.KeyEscape)
			h.drain()
			if restyled != 0 {
				t.Errorf("opening and closing the settings changed the theme %d times, want 0", restyled)
			}
			if h.ui.panel != nil {
				t.Fatalf("a panel is still open: %q", h.ui.panel.Title())
			}
			if diff := cmp.Diff([]string{"bold", "monospace", "regular"}, chat); diff != "" {
				t.Errorf("the styles of a chat with bold text and code (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(chat, guitest.FontFaces()); diff != "" {
				t.Errorf("the styles after opening the panels (-the chat's +got):\n%s", diff)
			}
		})
	}
}
