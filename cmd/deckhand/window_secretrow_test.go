package main

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"deckhand/gui"
	"deckhand/keys"
	"deckhand/testutil"
)

// A server's secrets saved in the keyring, in its Edit form: each row's
// Remove in sight shows whole, icon and all, at 1280×800 and at 640×480,
// a long variable's name wrapping on a line of its own (beside the field,
// it pushed the button past the pane's edge: at 640×480 the whole form
// scrolled sideways). Screenshots are kept (DECKHAND_SHOTS).
func TestWindowSecretRowsFit(t *testing.T) {
	const gh, long = "GITHUB_PERSONAL_ACCESS_TOKEN", "DECKHAND_A_RATHER_LONG_SECRET_VARIABLE_NAME_FOR_A_SERVER"
	for _, size := range []string{"1280x800", "640x480"} {
		t.Run(size, func(t *testing.T) {
			bus := testutil.SessionBus(t)
			// The long name first: its row is the one in sight.
			cfg := fmt.Sprintf("[tools]\nenabled = false\n\n[mcp.servers.mine]\ncommand = %q\nsecrets = [%q, %q]\nallow_secrets = [%q, %q]\n",
				stdioServerBin(t), long, gh, long, gh)
			w := startRealWindow(t, cfg, func(env []string, home string) {
				gnomeKeyring(t, env, bus, nil)
				set := testutil.BuildProgram(t, "./testutil/escape")
				for _, name := range []string{gh, long} {
					c := exec.Command(set, "keyring-set", keys.Service, keys.SecretAccount("mine", name), "s3cr3t")
					c.Env = append(env, "DBUS_SESSION_BUS_ADDRESS="+bus)
					if out, err := c.CombinedOutput(); err != nil {
						t.Fatalf("keeping the secret in the keyring: %v\n%s", err, out)
					}
				}
			}, withEnv("DBUS_SESSION_BUS_ADDRESS="+bus), withDisplay(size))
			w.clickText("button", "Servers")
			s := w.waitScreen("mine's Edit", func(s gui.Screen) bool { _, ok := findHint(s, "Edit mine"); return ok })
			edit, _ := findHint(s, "Edit mine")
			w.click(edit)
			saved := func(s gui.Screen) int {
				n := 0
				for _, it := range s.Items {
					if it.Kind == "label" && strings.HasPrefix(it.Text, "Saved in the keyring") {
						n++
					}
				}
				return n
			}
			s = w.waitScreen("the form", func(s gui.Screen) bool { _, ok := findEntry(s, "derived from"); return ok })
			alias, _ := findEntry(s, "derived from")
			s = w.wheelUntil("a secret's status in sight", alias, func(s gui.Screen) bool { _, ok := find(s, "label", "Saved in the keyring"); return ok })
			// The wheel goes on over that label: over a field, the
			// pointer could rest on the Secrets field, whose long line
			// scrolls sideways and takes the wheel.
			status, _ := find(s, "label", "Saved in the keyring")
			s = w.wheelUntil("the long name's Remove in sight", status, func(s gui.Screen) bool {
				for _, it := range s.Items {
					// In sight from top to bottom (a row half under the
					// form's buttons is scrolled further).
					if it.Kind == "button" && it.Text == "Remove" && it.Visible && abs32(it.CY-(it.Y+it.H/2)) < 1 {
						return shows(s, long[:20])
					}
				}
				return false
			})
			w.keep("secret-rows-" + size + ".png")
			for _, it := range s.Items {
				if it.Kind != "button" || it.Text != "Remove" || !it.Visible {
					continue
				}
				t.Logf("Remove: x %.0f, %.0f px wide (needs %.0f), the part in sight centred at %.0f", it.X, it.W, it.MinW, it.CX)
				// Whole: the middle of the part in sight is its middle
				// (cut by the pane's edge, the part in sight is narrower),
				// and it is as wide as it needs.
				if abs32(it.CX-(it.X+it.W/2)) > 1 || it.W+0.5 < it.MinW {
					t.Errorf("a secret's Remove at x %.0f, %.0f px wide (needs %.0f), the middle of the part in sight at %.0f: cut", it.X, it.W, it.MinW, it.CX)
				}
			}
			if saved(s) != 2 {
				t.Errorf("%d secrets said saved, want 2", saved(s))
			}
		})
	}
}

// findHint is the first visible item whose hint (an icon button's tip)
// holds hint.
func findHint(s gui.Screen, hint string) (gui.ScreenItem, bool) {
	for _, it := range s.Items {
		if it.Visible && strings.Contains(it.Hint, hint) {
			return it, true
		}
	}
	return gui.ScreenItem{}, false
}
