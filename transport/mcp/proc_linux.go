package mcp

import (
	"os/exec"
	"syscall"
	"time"
)

// isolate puts the child in its own process group, so that Close can signal
// it together with anything it started (npx starts node), and asks the kernel
// to kill it if Deckhand dies first.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup ends what is left of the process group led by pid: SIGTERM, a
// short grace period, then SIGKILL.
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
