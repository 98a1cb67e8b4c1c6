package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/testutil"
)

// TestRestartRunsTheRunningBinary: the window's restart (after a settings
// change that needs one) runs again the binary that is running, not what
// is at its path now. A copy of this test binary replaces itself at its
// path with a script (as a program that may write the folder could), then
// restarts: the new run must be the copy (it says "original"), not the
// script (which says "planted").
func TestRestartRunsTheRunningBinary(t *testing.T) {
	switch os.Getenv("DECKHAND_TEST_RESTART") {
	case "replace":
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(exe+".planted", []byte("#!/bin/sh\necho planted\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(exe+".planted", exe); err != nil {
			t.Fatal(err)
		}
		os.Setenv("DECKHAND_TEST_RESTART", "restarted")
		t.Fatalf("restart failed: %v", restartSelf())
	case "restarted":
		io.WriteString(os.Stdout, "original argv0="+os.Args[0]+"\n")
		os.Exit(0)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "deckhand")
	testutil.CopyProgram(t, self, copied)
	cmd := exec.Command(copied, "-test.run=^TestRestartRunsTheRunningBinary$")
	cmd.Env = append(os.Environ(), "DECKHAND_TEST_RESTART=replace")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "original argv0="+copied+"\n") {
		t.Fatalf("the restart ran something else than the running binary (or lost its argv[0]) (%v):\n%s", err, out)
	}
}
