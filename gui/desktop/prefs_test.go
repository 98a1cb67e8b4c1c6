package desktop

import (
	"bytes"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/app"
)

// Fyne's preferences file is written whole or not at all, and an empty
// one loads as no preferences: the log had "Fyne error: Preferences load
// error: Cause: EOF" after a quit. The save at quit truncated
// preferences.json in place, then wrote it, and the watcher of its folder
// (any change there reloads it) read it in between, empty.
func TestPreferencesNeverReadHalfWritten(t *testing.T) {
	// Not t.TempDir: Fyne's watchers make its folders again as they go.
	cfg, err := os.MkdirTemp("", "prefs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(cfg) })
	t.Setenv("XDG_CONFIG_HOME", cfg)
	const id = "dev.deckhand.prefstest"
	path := filepath.Join(cfg, "fyne", id, "preferences.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil { // as a truncation leaves it
		t.Fatal(err)
	}
	var logged bytes.Buffer
	log.SetOutput(&logged)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	a := app.NewWithID(id)
	var before os.FileInfo
	if strings.Contains(logged.String(), "Preferences load error") {
		t.Errorf("an empty preferences file logs an error:\n%s", logged.String())
	}
	before, err = os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	a.Preferences().SetString("k", "v") // saved at once
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) {
		t.Error("the preferences were written into the file in place (truncated first), not into a new file renamed over it")
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), `"k":"v"`) {
		t.Errorf("preferences.json holds %q", data)
	}
}
