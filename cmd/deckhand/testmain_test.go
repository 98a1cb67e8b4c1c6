package main

import (
	"os"
	"testing"

	"deckhand/testutil"
)

// TestMain keeps every test away from the developer's own config and log.
func TestMain(m *testing.M) {
	cleanup := testutil.IsolateHome()
	code := m.Run()
	cleanup()
	os.Exit(code)
}
