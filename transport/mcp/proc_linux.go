package mcp

import (
	"syscall"
	"time"
)

// killGroup ends what is left of the process group led by pid (a server
// runs in a session of its own, and a sandboxed one as the first process
// of its PID namespace, which takes everything it started with it):
// SIGTERM, a short grace period, then SIGKILL.
func killGroup(pid int) {
	if pid <= 0 {
		return
	}
	if syscall.Kill(-pid, syscall.SIGTERM) != nil {
		return // nothing left in the group
	}
	deadline := time.Now().Add(500 * time.Millisecond)
	for time.Now().Before(deadline) {
		if syscall.Kill(-pid, 0) != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

// killGroupNow kills the process group led by pid outright (SIGKILL), for
// when Deckhand itself is ending.
func killGroupNow(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
