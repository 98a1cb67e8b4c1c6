package main

import (
	"os/exec"
	"strings"
	"testing"

	"deckhand/testutil"
)

// TestQuietCommands runs the real binary's headless commands against an
// empty home: none may say anything about Fyne (the window's toolkit must
// not wake up, or complain, in a terminal command).
func TestQuietCommands(t *testing.T) {
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	tests := []struct {
		name string
		args []string
	}{
		{name: "version", args: []string{"--version"}},
		{name: "help", args: []string{"help"}},
		{name: "overview", args: nil},
		{name: "mcp list", args: []string{"mcp", "list"}},
		{name: "mcp list json", args: []string{"mcp", "list", "--json"}},
		{name: "sessions", args: []string{"sessions"}},
		{name: "sessions json", args: []string{"sessions", "--json"}},
		{name: "approvals", args: []string{"approvals"}},
		{name: "doctor", args: []string{"doctor"}},
		{name: "window without a display", args: []string{"window"}},
		{name: "unknown command", args: []string{"frobnicate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, dir := freshHome(t)
			cmd := exec.Command(bin, tt.args...)
			cmd.Env, cmd.Dir = env, dir
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if _, exit := err.(*exec.ExitError); err != nil && !exit {
				t.Fatal(err)
			}
			if strings.Contains(stderr.String(), "Fyne") || strings.Contains(stdout.String(), "Fyne") {
				t.Errorf("deckhand %s (%v) mentions Fyne:\nstderr:\n%s\nstdout:\n%s", strings.Join(tt.args, " "), err, &stderr, &stdout)
			}
		})
	}
}
