package gui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"deckhand/keys"
)

// TestLockedKeyringKeylessModel: with the keyring locked (every call
// fails as gnome-keyring's does when its unlock prompt is dismissed), a
// model server that needs no key still fills the model picker with its
// models, and Settings' Check lists them, with no word of the keyring.
// (Issue 29 item 3: Check failed with the keyring's error, and the picker
// offered only the configured model and Other….) The real gnome-keyring,
// locked on a session bus, is cmd/deckhand's
// TestWindowLockedKeyringKeylessModel.
func TestLockedKeyringKeylessModel(t *testing.T) {
	keys.MockInit()
	keyring.MockInitWithError(errors.New("cannot unlock the collection: the prompt was dismissed"))
	t.Cleanup(keys.MockInit)
	if _, err := keys.Get("http://127.0.0.1:1/v1"); !errors.Is(err, keys.ErrLocked) {
		t.Fatalf("the fake keyring says %v, want it locked", err)
	}
	var models []string
	for i := range 22 {
		models = append(models, fmt.Sprintf("model-%02d", i+1))
	}
	h, _ := pickerHarness(t, harnessOptions{}, append([]string{"scripted"}, models...)...)
	p := h.ui.comp
	h.until("the picker's list", func() bool { return p.ListedOf != "" })
	if want := append(append([]string{"scripted"}, models...), "Other…"); !slices.Equal(p.Picker.Options, want) {
		t.Errorf("the picker offers %q, want the server's 23 models and Other…", p.Picker.Options)
	}

	f := h.openSettings()
	h.tap(f.Window(), "Check")
	h.until("what Check found", func() bool { return !strings.Contains(f.Checked.Text, "for its models…") })
	if !strings.Contains(f.Checked.Text, "answers with 23 models") {
		t.Errorf("Check says %q, want the server's 23 models", f.Checked.Text)
	}
	for _, l := range []string{f.Checked.Text, f.KeyStatus.Text} {
		if strings.Contains(strings.ToLower(l), "keyring") && !strings.Contains(l, "need none") {
			t.Errorf("the settings speak of the keyring, for a server that needs no key: %q", l)
		}
	}
}
