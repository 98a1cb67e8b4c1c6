//go:build !linux

package mcp

// killGroup is Linux-only for now: elsewhere the SDK's own shutdown (close
// stdin, SIGTERM, SIGKILL) ends the direct child.
func killGroup(pid int) {}
