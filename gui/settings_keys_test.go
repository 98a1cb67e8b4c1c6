package gui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"deckhand/config"
	"deckhand/gui/guitest"
	"deckhand/gui/widgets"
	"deckhand/keys"
)

// TestSettingsTabKeepsTheFocusInView: at 640x480 and 128%, each Tab
// through the settings' pages brings the control it lands on into view,
// going down and coming back up. (Issue 29: from the tenth Tab on the
// focus went below the fold, and sixty Tabs later nothing had come into
// view.)
func TestSettingsTabKeepsTheFocusInView(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{cfg: func(c *config.Config) { c.UI.TextScale = 1.28 }})
	h.ui.win.Resize(fyne.NewSize(640, 480))
	f := h.openSettings()
	if err := keys.Store(h.model.URL, "sk-saved-9a1e"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { keys.Remove(h.model.URL) })
	f.Show() // the key's status anew: Remove key shows
	h.until("Remove key", func() bool { return !f.RemoveKey.Hidden })
	for i := range f.Tabs.Items {
		f.Tabs.SelectIndex(i)
		h.drain()
		page := f.Tabs.Items[i].Content.(*container.Scroll)
		page.ScrollToTop()
		tabsStayInView(t, h, page, f.Tabs.Items[i].Text, 4)
	}
}

// tabsStayInView presses Tab 40 times, then Shift+Tab 40 times, and checks
// that each stop inside page is in view: at least least of them each way.
func tabsStayInView(t *testing.T, h *harness, page *container.Scroll, name string, least int) {
	t.Helper()
	c := h.ui.win.Canvas()
	inPage := func(o fyne.Focusable) bool {
		found := false
		guitest.Walk(page.Content, func(x fyne.CanvasObject) { found = found || x == o.(fyne.CanvasObject) })
		return found
	}
	for _, back := range []bool{false, true} {
		seen := 0
		for range 40 {
			if back {
				c.FocusPrevious()
			} else {
				c.FocusNext()
			}
			h.drain()
			o := c.Focused()
			if o == nil || !inPage(o) {
				continue
			}
			seen++
			if !inView(h.ui.win, o.(fyne.CanvasObject)) {
				t.Errorf("%s, Tab %d (back %v): the focus is on %s, out of view (the offset %v)", name, seen, back, describe(o), page.Offset)
			}
		}
		if seen < least {
			t.Errorf("%s: Tab stopped on %d controls, want %d at least", name, seen, least)
		}
	}
}

func describe(o fyne.Focusable) string { return fmt.Sprintf("%T", o) }

// TestSettingsTabsByKeyboard: Ctrl+Tab and Ctrl+Page Down show the next
// tab, Ctrl+Shift+Tab and Ctrl+Page Up the one before, from a field too,
// with the keyboard on the tab's first control; the shortcuts' list says
// so. (Issue 29: Permissions and Advanced could not be reached without
// the mouse.)
func TestSettingsTabsByKeyboard(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{})
	f := h.openSettings()
	c := h.ui.win.Canvas()
	ctrl := func(k fyne.KeyName, shift bool) fyne.Shortcut {
		m := fyne.KeyModifierControl
		if shift {
			m |= fyne.KeyModifierShift
		}
		return &desktop.CustomShortcut{KeyName: k, Modifier: m}
	}
	// As the driver does: to a focused widget that takes shortcuts, else
	// to the canvas.
	press := func(s fyne.Shortcut) {
		if sc, ok := c.Focused().(fyne.Shortcutable); ok {
			sc.TypedShortcut(s)
			return
		}
		typeOnCanvas(c, s)
	}
	for _, step := range []struct {
		key  fyne.Shortcut
		want string
	}{
		{ctrl(fyne.KeyTab, false), "Permissions"},
		{ctrl(fyne.KeyPageDown, false), "Advanced"},
		{ctrl(fyne.KeyTab, false), "General"},
		{ctrl(fyne.KeyPageUp, false), "Advanced"},
		{ctrl(fyne.KeyTab, true), "Permissions"},
	} {
		press(step.key)
		h.drain()
		if got := f.Tabs.Selected().Text; got != step.want {
			t.Fatalf("%s: the tab is %s, want %s", step.key.ShortcutName(), got, step.want)
		}
		if o := c.Focused(); o == nil || !inView(h.ui.win, o.(fyne.CanvasObject)) {
			t.Errorf("%s: the keyboard is on %v, not on a control of %s in view", step.key.ShortcutName(), o, step.want)
		}
	}
	found := false
	for _, s := range h.ui.shortcuts() {
		found = found || s.keys == "Ctrl+Tab, Ctrl+Page Down"
	}
	if !found {
		t.Error("the shortcuts' list does not say how to switch the settings' tabs")
	}
}

// TestSettingsTextSizeByArrows: the text-size slider, focused, moves by
// 5% with the arrow keys, and the size is applied at each press. (Issue
// 29: Right and Up left it where it was.)
func TestSettingsTextSizeByArrows(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{})
	f := h.openSettings()
	c := h.ui.win.Canvas()
	c.Focus(f.TextSize)
	for _, step := range []struct {
		key  fyne.KeyName
		want string
	}{
		{fyne.KeyRight, "105%"},
		{fyne.KeyUp, "110%"},
		{fyne.KeyLeft, "105%"},
		{fyne.KeyDown, "100%"},
	} {
		h.key(step.key)
		h.drain()
		if f.TextLabel.Text != step.want {
			t.Errorf("%s: the slider says %s, want %s", step.key, f.TextLabel.Text, step.want)
		}
		if got, want := h.app.Settings().Theme().Size(theme.SizeNameText)/theme.DefaultTheme().Size(theme.SizeNameText), float32(f.TextSize.Value/100); got < want-0.01 || got > want+0.01 {
			t.Errorf("%s: the text is drawn at %.2f of its size, want %.2f", step.key, got, want)
		}
	}
}

// TestSettingsByKeyboard: Ctrl+, opens the settings with the keyboard on
// Service, the first field of General, and the next Tab goes to Model; a
// click on Check (Fyne's driver takes the focus from wherever it was,
// then taps) leaves the keyboard on Check; Ctrl+S saves and closes, from
// a field and from elsewhere. (New-user pass 15, N7: nothing was focused,
// the first Tab rang New chat in the sidebar and Service was the sixth;
// after Check the focus went back to the sidebar's start; Ctrl+S did
// nothing, Save the 18th Tab stop of 19.)
func TestSettingsByKeyboard(t *testing.T) {
	keys.MockInit()
	h := newHarness(t, harnessOptions{})
	c := h.ui.win.Canvas()
	// As the driver does: to a focused widget that takes shortcuts, else
	// to the canvas.
	press := func(s fyne.Shortcut) {
		if sc, ok := c.Focused().(fyne.Shortcutable); ok {
			sc.TypedShortcut(s)
			return
		}
		typeOnCanvas(c, s)
	}
	ctrl := func(k fyne.KeyName) fyne.Shortcut {
		return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}
	}
	for _, from := range []string{"a field", "the Service list"} {
		h.ui.focusInput()
		press(ctrl(fyne.KeyComma))
		h.drain()
		f := h.ui.settingsF
		if f == nil || h.ui.panel == nil {
			t.Fatal("Ctrl+, did not open the settings")
		}
		h.until("the key's status", func() bool { return f.KeyStatus.Text != "" })
		if got := c.Focused(); got != fyne.Focusable(f.Service) {
			t.Fatalf("opened, the keyboard is on %T, want Service", got)
		}
		c.FocusNext()
		if got := c.Focused(); got != fyne.Focusable(f.Model) {
			t.Errorf("the first Tab goes to %T, want Model", got)
		}
		var check *widgets.RingButton
		for _, b := range guitest.All[*widgets.RingButton](f.Window().Canvas().Content()) {
			if b.Text == "Check" {
				check = b
			}
		}
		if check == nil {
			t.Fatal("no Check button")
		}
		c.Unfocus() // the press
		test.Tap(check)
		h.until("what Check found", func() bool { return f.Checked.Visible() && !strings.Contains(f.Checked.Text, "for its models…") })
		if got := c.Focused(); got != fyne.Focusable(check) {
			t.Errorf("after Check, the keyboard is on %T, want Check", got)
		}
		name := "other-" + strings.Fields(from)[1]
		f.Model.SetText(name)
		if from == "a field" {
			c.Focus(f.Model)
		} else {
			c.Focus(f.Service)
		}
		press(ctrl(fyne.KeyS))
		h.drain()
		if h.ui.cfg.Model.Name != name {
			t.Errorf("Ctrl+S from %s: the model saved is %q, want %q", from, h.ui.cfg.Model.Name, name)
		}
		if h.ui.panel != nil {
			t.Errorf("Ctrl+S from %s: the settings are still shown", from)
			h.ui.toChat()
		}
	}
}
