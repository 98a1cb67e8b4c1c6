package gui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/zalando/go-keyring"

	"deckhand/keys"
)

// TestSettingsKeyErrorTakesTheKeys: the dialog saying why a typed key
// could not be kept (a keyring with no login collection) closes with
// Enter and with Escape, and the Settings under it stay as they were.
// Enter did nothing, and Escape closed Settings behind the dialog, which
// stayed.
func TestSettingsKeyErrorTakesTheKeys(t *testing.T) {
	keys.MockInit()
	t.Cleanup(keys.MockInit)
	h := newHarness(t, harnessOptions{})
	f := h.openSettings()
	keyring.MockInitWithError(errors.New("no login collection"))
	for _, key := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEscape} {
		f.APIKey.SetText("sk-test-1234")
		h.tap(f.Window(), "Save")
		h.until("the keyring's error", func() bool { return !f.Saving })
		if f.Window().Canvas().Overlays().Top() == nil {
			t.Fatalf("no error shown; Settings show:\n%s", strings.Join(h.texts(f.Window()), "\n"))
		}
		h.press(key)
		h.drain()
		if f.Window().Canvas().Overlays().Top() != nil {
			t.Errorf("%s left the error dialog open", key)
		}
		if h.ui.panel == nil || h.ui.panel.Window != h.ui.win || h.ui.settingsW != fyne.Window(h.ui.panel) {
			t.Errorf("%s closed Settings behind the dialog", key)
		}
		if f.Window().Canvas().Overlays().Top() != nil {
			f.Window().Canvas().Overlays().Top().Hide()
		}
	}
}
