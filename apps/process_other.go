//go:build !linux

package apps

import "os/exec"

func confine(cmd *exec.Cmd) {}

func kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

func groupRSS(pid int) int64 { return 0 }
