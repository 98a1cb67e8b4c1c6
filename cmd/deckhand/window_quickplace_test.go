package main

import (
	"fmt"
	"strings"
	"testing"

	"deckhand/testutil"
)

// TestWindowQuickPromptCentred: the quick prompt, called up with Ctrl+K,
// opens near the middle of the screen, where a person looks; the window
// manager put it in the bottom-left corner.
func TestWindowQuickPromptCentred(t *testing.T) {
	model := testutil.NewModelServer(t, testutil.ModelResponse{Body: testutil.TextChunks("ok")})
	cfg := scriptedConfig(model.URL)
	w := startRealWindow(t, cfg, nil, withDisplay("1280x800"))
	const title = "Deckhand: quick prompt"
	w.openQuickPrompt()
	var x, y, width, height int
	for _, line := range strings.Split(w.xdo("getwindowgeometry", w.windowID(title)), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "Position: "); ok {
			fmt.Sscanf(rest, "%d,%d", &x, &y)
		}
		if rest, ok := strings.CutPrefix(line, "Geometry: "); ok {
			fmt.Sscanf(rest, "%dx%d", &width, &height)
		}
	}
	w.keep("quick-placed.png")
	cx, cy := x+width/2, y+height/2
	if width == 0 || abs(cx-640) > 1280/8 || abs(cy-400) > 800/8 {
		t.Errorf("the quick prompt is at %d,%d, %dx%d: its middle %d,%d, want near the screen's, 640,400", x, y, width, height, cx, cy)
	}
}

func abs(n int) int { return max(n, -n) }
