package main

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	cfg := scriptedConfig(model.URL, fmt.Sprintf(`[mcp.servers.ev]
command = %q
args = [%q, "stdio"]

[mcp.servers.m]
url = %q

[mcp.auto_approve]
"ev.*" = true
"m.*" = true
`, p.Node, p.Everything, media.StreamableURL))
	w := startRealWindow(t, cfg, nil)
	w.waitScreen("both servers ready", func(s gui.Screen) bool { return shows(s, "2 servers ready") })
	w.say("show me")
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

// A tool's image shows at a useful size on its card (server-everything's
// 20-pixel logo was a speck); a click shows it large over the window;
// Save… writes it through the file dialog; Escape closes the large view.
func TestWindowToolImageEnlargeAndSave(t *testing.T) {
	p := testutil.RequirePeers(t)
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "ev__get-tiny-image", Arguments: `{}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("an image")},
	)
	cfg := scriptedConfig(model.URL, fmt.Sprintf(`[mcp.servers.ev]
command = %q
args = [%q, "stdio"]

[mcp.auto_approve]
"ev.*" = true
`, p.Node, p.Everything))
	w := startRealWindow(t, cfg, nil)
	w.waitServerReady()
	w.say("show me")
	s := w.waitScreen("the tiny image", func(s gui.Screen) bool {
		_, pic := find(s, "image", "bitmap")
		return pic && shows(s, "an image")
	})
	w.keep("tool-image-card.png")
	pic, _ := find(s, "image", "bitmap")
	if pic.W < 120 || pic.H < 120 {
		t.Errorf("the image shows at %.0f×%.0f px on its card, want at least 120 px a side", pic.W, pic.H)
	}

	// A click shows it large.
	w.click(pic)
	s = w.waitScreen("the image shown large", func(s gui.Screen) bool {
		big, ok := find(s, "picture", "bitmap")
		_, save := find(s, "button", "Save…")
		return ok && save && big.H >= 300 && big.H > 1.5*pic.H
	})
	time.Sleep(500 * time.Millisecond) // kept: the frame after the bitmap arrives, for the screenshot to show it
	w.keep("tool-image-large.png")

	// Save… opens the file dialog, at the home folder, the name filled in.
	w.clickText("button", "Save…")
	s = w.waitScreen("the file dialog", func(s gui.Screen) bool { _, ok := exactButton(s, "Save"); return ok })
	w.keep("tool-image-save-dialog.png")
	saveB, _ := exactButton(s, "Save")
	w.click(saveB)
	saved := filepath.Join(w.dir, "home", "get-tiny-image.png")
	testutil.Eventually(t, 10*time.Second, func() bool { _, err := os.Stat(saved); return err == nil }, "no %s after Save; stderr:\n%s", saved, w.stderr)
	testutil.Eventually(t, 5*time.Second, func() bool {
		f, err := os.Open(saved)
		if err != nil {
			return false
		}
		defer f.Close()
		cfg, err := png.DecodeConfig(f)
		return err == nil && cfg.Width > 0
	}, "%s is not a PNG", saved)

	// Escape closes the large view.
	w.waitScreen("the file dialog gone", func(s gui.Screen) bool { _, ok := exactButton(s, "Save"); return !ok })
	w.key("Escape")
	w.waitScreen("the large view closed", func(s gui.Screen) bool {
		_, big := find(s, "picture", "")
		_, card := find(s, "image", "bitmap")
		return !big && card
	})
}

// exactButton is the visible button whose text is text.
func exactButton(s gui.Screen, text string) (gui.ScreenItem, bool) {
	for _, it := range s.Items {
		if it.Visible && it.Kind == "button" && it.Text == text {
			return it, true
		}
	}
	return gui.ScreenItem{}, false
}
