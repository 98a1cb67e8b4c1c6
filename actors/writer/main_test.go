package writer

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain keeps the tests' log key (and anything else of Deckhand's data
// folder) out of the developer's own home folder.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "deckhand-store-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	os.Unsetenv("DBUS_SESSION_BUS_ADDRESS") // the key file, never the developer's keyring
	os.Setenv("XDG_RUNTIME_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
