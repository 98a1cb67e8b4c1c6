package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/testutil"
)

// shortcut sends s to the window as the driver does: to the widget that
// has the keyboard, if it takes shortcuts, else to the window's.
func (h *harness) shortcut(s fyne.Shortcut) {
	h.t.Helper()
	c := h.ui.win.Canvas()
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	typeOnCanvas(c, s)
}

// TestServersFormClosesWithEscape: Escape and Ctrl+W close Connect a
// server… and a server's Edit page as Cancel does, back to the servers
// and saving nothing, whether a field has the keyboard (it has when the
// form opens) or not; they close the tools and the resources so. Neither
// closed the form.
func TestServersFormClosesWithEscape(t *testing.T) {
	up := testutil.ServeHTTP(t, testutil.NewServer("h"))
	h, sw := serversHarness(t, map[string]config.Server{"h": {URL: up.StreamableURL}})
	h.until("h ready", func() bool { return h.serverState(sw, "h") == "ready" })
	before := h.configText()
	ctrlW := &desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault}
	for _, form := range []struct {
		name string
		open func()
	}{
		{"Connect a server", sw.ShowConnect},
		{"Edit h", func() { test.Tap(sw.Rows["h"].Edit) }},
	} {
		for _, key := range []struct {
			name    string
			focused bool
			press   func()
		}{
			{"Escape in a field", true, func() { h.key(fyne.KeyEscape) }},
			{"Ctrl+W in a field", true, func() { h.shortcut(ctrlW) }},
			{"Escape", false, func() { h.key(fyne.KeyEscape) }},
			{"Ctrl+W", false, func() { h.shortcut(ctrlW) }},
		} {
			t.Run(form.name+", "+key.name, func(t *testing.T) {
				form.open()
				f := sw.Form
				if f == nil || h.ui.panel != f.Win {
					t.Fatal("the form did not open")
				}
				c := h.ui.win.Canvas()
				if key.focused {
					if c.Focused() == nil {
						t.Fatal("no field has the keyboard as the form opens")
					}
					test.Type(c.Focused(), "x")
				} else {
					c.Unfocus()
				}
				key.press()
				h.drain()
				if !f.Closed || sw.Form != nil {
					t.Errorf("%s left the form open", key.name)
				}
				if h.ui.panel != sw.Win || sw.Win.Title() != "Deckhand: servers" {
					t.Errorf("after %s the window shows %v, want the servers", key.name, h.ui.panel)
				}
				if after := h.configText(); after != before {
					t.Errorf("%s changed the config:\n%s", key.name, after)
				}
				if !f.Closed {
					f.Close()
				}
				h.ui.showServers()
			})
		}
	}
}

// TestServersFormClosesWithEscapeOnAnyControl: Escape closes Connect a
// server… and a server's Edit page, saving nothing, whichever of its
// controls has the keyboard: a kind's option (URL, Command), a select, the
// sandbox's check, a button, as from a field. Fyne's radio options,
// selects, checks and buttons kept the key, and the form stayed.
func TestServersFormClosesWithEscapeOnAnyControl(t *testing.T) {
	up := testutil.ServeHTTP(t, testutil.NewServer("h"))
	h, sw := serversHarness(t, map[string]config.Server{"h": {URL: up.StreamableURL}})
	h.until("h ready", func() bool { return h.serverState(sw, "h") == "ready" })
	before := h.configText()
	// controls are the form's focusable objects but its fields, in the
	// order Tab goes, with their kind.
	controls := func() ([]fyne.Focusable, []string) {
		var out []fyne.Focusable
		var kinds []string
		guitest.Walk(sw.Form.Win.Content(), func(o fyne.CanvasObject) {
			f, ok := o.(fyne.Focusable)
			if !ok {
				return
			}
			if d, ok := o.(fyne.Disableable); ok && d.Disabled() {
				return
			}
			kind := fmt.Sprintf("%T", o)
			if strings.Contains(kind, "Entry") || strings.Contains(kind, "entry") {
				return // the fields: TestServersFormClosesWithEscape
			}
			out, kinds = append(out, f), append(kinds, kind)
		})
		return out, kinds
	}
	for _, form := range []struct {
		name string
		open func()
	}{
		{"Connect a server", sw.ShowConnect},
		{"Edit h", func() { test.Tap(sw.Rows["h"].Edit) }},
	} {
		for _, kind := range []string{"URL", "Command"} {
			form.open()
			sw.Form.Kind.SetSelected(kind)
			h.drain()
			_, kinds := controls()
			sw.Form.Close()
			h.ui.showServers()
			if len(kinds) < 4 {
				t.Fatalf("%s, %s: the form has the controls %q: too few to prove anything", form.name, kind, kinds)
			}
			for i, k := range kinds {
				t.Run(fmt.Sprintf("%s, %s, %d %s", form.name, kind, i, k), func(t *testing.T) {
					form.open()
					f := sw.Form
					f.Kind.SetSelected(kind)
					h.drain()
					objs, _ := controls()
					c := h.ui.win.Canvas()
					c.Focus(objs[i])
					if c.Focused() != objs[i] {
						t.Fatalf("%s took no keyboard", k)
					}
					h.key(fyne.KeyEscape)
					h.drain()
					if !f.Closed || sw.Form != nil {
						t.Errorf("Escape on %s left the form open", k)
					}
					if h.ui.panel != sw.Win {
						t.Errorf("after Escape on %s the window shows %v, want the servers", k, h.ui.panel)
					}
					if after := h.configText(); after != before {
						t.Errorf("Escape on %s changed the config:\n%s", k, after)
					}
					if !f.Closed {
						f.Close()
					}
					h.ui.showServers()
				})
			}
		}
	}
}
