package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"deckhand/config"
	"deckhand/keys"
	"deckhand/testutil"
)

// TestServersSecretRowsFit: a server's secrets saved in the keyring, in
// its Edit form, a name of 56 letters among them: each row's Remove is
// whole inside the row and the pane, and the pane does not scroll
// sideways, in the 1100×720 window Deckhand opens on a 1280×800 screen,
// at 1280×800, and at 640×480 (with the text at 125% too). The name
// beside its field made the row as wide as the name: at 640×480 the form
// needed 653 px in a pane of 475 (806 in 438 at 125%), and Remove ended
// at 810 px, the pane at 636. (At 1100×720 and 1280×800 the test's
// fonts leave the row room; the real window's did not: see
// cmd/deckhand's TestWindowSecretRowsFit.)
func TestServersSecretRowsFit(t *testing.T) {
	keys.MockInit()
	t.Cleanup(keys.MockInit)
	const gh, long = "GITHUB_PERSONAL_ACCESS_TOKEN", "DECKHAND_A_RATHER_LONG_SECRET_VARIABLE_NAME_FOR_A_SERVER"
	for _, c := range []struct {
		size  fyne.Size
		scale float64
	}{
		{fyne.NewSize(1100, 720), 1}, {fyne.NewSize(1280, 800), 1}, {fyne.NewSize(640, 480), 1}, {fyne.NewSize(640, 480), 1.25},
	} {
		t.Run(fmt.Sprintf("%.0fx%.0f@%.0f%%", c.size.Width, c.size.Height, c.scale*100), func(t *testing.T) {
			srv := testutil.StdioServer(t, "-hasenv")
			srv.Secrets, srv.AllowSecrets = []string{gh, long}, []string{gh, long}
			servers := map[string]config.Server{"mine": srv}
			h := newHarness(t, harnessOptions{cfg: func(cfg *config.Config) {
				if err := config.AddServers(cfg.Path, servers); err != nil {
					t.Fatal(err)
				}
				cfg.MCP.Servers = servers
				cfg.UI.TextScale = c.scale
			}})
			for _, name := range []string{gh, long} {
				if err := keys.StoreSecret("mine", name, "s3cr3t"); err != nil {
					t.Fatal(err)
				}
			}
			h.ui.win.Resize(c.size)
			h.ui.showServers()
			sw := h.ui.serversW
			h.until("mine listed", func() bool { return sw.Rows["mine"] != nil })
			sw.Rows["mine"].Edit.OnTapped()
			f := sw.Form
			h.until("the keyring's answers", func() bool {
				return strings.HasPrefix(f.SecretStatus(gh), "Saved in the keyring") && strings.HasPrefix(f.SecretStatus(long), "Saved in the keyring")
			})
			h.drain()
			// Remove was shown in a row at rest: the real driver lays it
			// out at the next frame; here a resize does.
			h.ui.win.Resize(c.size.AddWidthHeight(1, 1))
			h.ui.win.Resize(c.size)

			pane := h.ui.pane
			if need, have := h.ui.mainArea.MinSize().Width, pane.Size().Width; need > have {
				t.Errorf("the form needs %.0f px wide, the pane is %.0f: it scrolls sideways", need, have)
			}
			d := fyne.CurrentApp().Driver()
			edge := d.AbsolutePositionForObject(pane).X + pane.Size().Width
			box := f.SecretBox
			boxEdge := d.AbsolutePositionForObject(box).X + box.Size().Width
			for _, name := range []string{gh, long} {
				rm := f.SecretRemove(name)
				if !rm.Visible() {
					t.Fatalf("%s: no Remove for a saved secret", name)
				}
				right := d.AbsolutePositionForObject(rm).X + rm.Size().Width
				if right > edge+0.5 || right > boxEdge+0.5 || rm.Size().Width+0.5 < rm.MinSize().Width {
					t.Errorf("%s: Remove ends at %.0f px (%.0f wide, needs %.0f); the secrets' rows end at %.0f, the pane at %.0f",
						name, right, rm.Size().Width, rm.MinSize().Width, boxEdge, edge)
				}
			}
		})
	}
}
