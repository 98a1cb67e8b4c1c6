//go:build !linux

package mcp

import "os/exec"

// isolate is Linux-only for now: elsewhere the SDK's own shutdown (close
// stdin, SIGTERM, SIGKILL) ends the direct child.
func isolate(cmd *exec.Cmd) {}

func killGroup(pid int) {}
