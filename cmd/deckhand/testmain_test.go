package main

import (
	"os"
	"testing"
)

// TestMain keeps every test away from the developer's own config and log.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "deckhand-cmd-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir+"/config")
	os.Setenv("XDG_DATA_HOME", dir+"/data")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
