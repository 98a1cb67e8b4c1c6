//go:build !linux

package mcp

import "os/exec"

// isolate is Linux-only for now: elsewhere the SDK's own shutdown (close
// stdin, SIGTERM, SIGKILL) ends the direct child.
func isolate(cmd *exec.Cmd) {}

func killGroup(pid int) {}

// supervisedCommand runs the server plainly: the supervisor is Linux-only.
func supervisedCommand(path string, args []string) *exec.Cmd { return exec.Command(path, args...) }
