package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"deckhand/gui/guitest"
	"deckhand/gui/settings"
	"deckhand/keys"
)

// settingsControls are the Settings' focusable objects shown on tab i,
// with their kinds, in the order of the walk.
func settingsControls(f *settings.Form, i int) ([]fyne.Focusable, []string) {
	f.Tabs.SelectIndex(i)
	var out []fyne.Focusable
	var kinds []string
	guitest.Walk(f.Window().Content(), func(o fyne.CanvasObject) {
		x, ok := o.(fyne.Focusable)
		if !ok || !o.Visible() {
			return
		}
		if d, ok := o.(fyne.Disableable); ok && d.Disabled() {
			return
		}
		out, kinds = append(out, x), append(kinds, fmt.Sprintf("%T", o))
	})
	return out, kinds
}

// TestSettingsCloseWithEscape: Escape closes the Settings as Close does,
// whichever of their controls has the keyboard (a field, the service's
// select, the model's field, a check box, a slider, a theme's option, a
// button), undoing what was not saved; as every other panel and dialog
// closes with Escape. Only Close and Back to the chat closed them: a
// focused field, select, check, slider, option or button kept the key.
func TestSettingsCloseWithEscape(t *testing.T) {
	keys.MockInit()
	t.Cleanup(keys.MockInit)
	h := newHarness(t, harnessOptions{})
	f := h.openSettings()
	for tab := range 3 {
		_, kinds := settingsControls(f, tab)
		if len(kinds) < 3 {
			t.Fatalf("tab %d has the controls %q: too few to prove anything", tab, kinds)
		}
		for i, kind := range kinds {
			t.Run(fmt.Sprintf("tab %d, %d %s", tab, i, kind), func(t *testing.T) {
				f := h.openSettings()
				objs, _ := settingsControls(f, tab)
				f.Prompt.SetText("typed, not saved")
				c := h.ui.win.Canvas()
				c.Focus(objs[i])
				if c.Focused() != objs[i] {
					t.Fatalf("%s took no keyboard", kind)
				}
				h.key(fyne.KeyEscape)
				h.drain()
				if h.ui.panel != nil && fyne.Window(h.ui.panel) == h.ui.settingsW {
					t.Fatalf("Escape on %s left the Settings open", kind)
				}
				if f.Prompt.Text != "" {
					t.Errorf("Escape on %s kept what was typed and not saved: Instructions %q", kind, f.Prompt.Text)
				}
			})
		}
	}
}

// TestSettingsEscapeForWhatIsOpenInside: Escape meant for something open
// in the Settings closes that alone: the service's list, the model's
// list, the question of Remove key.
func TestSettingsEscapeForWhatIsOpenInside(t *testing.T) {
	keys.MockInit()
	t.Cleanup(keys.MockInit)
	h := newHarness(t, harnessOptions{})
	if err := keys.Store(h.model.URL, "sk-test-remove"); err != nil {
		t.Fatal(err)
	}
	c := h.ui.win.Canvas()
	open := func() bool { return h.ui.panel != nil && fyne.Window(h.ui.panel) == h.ui.settingsW }
	for _, tc := range []struct {
		name string
		show func(f *settings.Form)
	}{
		{"the service's list", func(f *settings.Form) {
			c.Focus(f.Service)
			f.Service.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
		}},
		{"the model's list", func(f *settings.Form) {
			f.Model.SetOptions([]string{"a", "b"})
			c.Focus(f.Model)
			test.Tap(f.Model.ActionItem.(fyne.Tappable))
		}},
		{"Remove key's question", func(f *settings.Form) {
			f.Tabs.SelectIndex(0)
			h.until("Remove key", func() bool { return !f.RemoveKey.Hidden })
			test.Tap(f.RemoveKey)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := h.openSettings()
			tc.show(f)
			h.drain()
			if c.Overlays().Top() == nil {
				t.Fatalf("%s did not open:\n%s", tc.name, strings.Join(h.texts(f.Window()), "\n"))
			}
			h.key(fyne.KeyEscape)
			h.drain()
			if c.Overlays().Top() != nil {
				t.Errorf("Escape left %s open", tc.name)
			}
			if !open() {
				t.Fatalf("Escape for %s closed the Settings", tc.name)
			}
			h.key(fyne.KeyEscape)
			h.drain()
			if open() {
				t.Errorf("a second Escape, %s gone, left the Settings open", tc.name)
			}
		})
	}
}
