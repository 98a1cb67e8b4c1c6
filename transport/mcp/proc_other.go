//go:build !linux

package mcp

import "os"

// killGroup is Linux-only for now: elsewhere the SDK's own shutdown (close
// stdin, SIGTERM, SIGKILL) ends the direct child.
func killGroup(pid int) {}

// killGroupNow kills the direct child alone elsewhere.
func killGroupNow(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
