package gui

import (
	"os"
	"testing"

	"deckhand/testutil"
)

// TestMain keeps every test away from the developer's own home folder:
// servers run sandboxed, with the workspace and state folders there.
func TestMain(m *testing.M) {
	cleanup := testutil.IsolateHome()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
