package apps

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"

	"deckhand/procstat"
)

// confine puts the helper in a process group of its own (so its web
// processes are ended with it) that dies with Deckhand.
func confine(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// owner is the account a file belongs to.
func owner(st fs.FileInfo) (uid int, known bool) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(sys.Uid), true
	}
	return 0, false
}

// kill ends the helper's process group (a confined helper leads a
// session of its own, so its group too), its web processes included.
func kill(pid int) { syscall.Kill(-pid, syscall.SIGKILL) }

// groupRSS sums VmRSS over the processes of pgid's group, from /proc.
func groupRSS(pgid int) int64 {
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	var total int64
	for _, stat := range dirs {
		st, err := procstat.ReadFile(stat)
		if err != nil || len(st.Fields) < 3 || st.Int(procstat.PGRP) != int64(pgid) {
			continue
		}
		// statm's second field: resident pages.
		m, err := os.ReadFile(filepath.Join(filepath.Dir(stat), "statm"))
		if err != nil {
			continue
		}
		mf := bytes.Fields(m)
		if len(mf) < 2 {
			continue
		}
		pages, _ := strconv.ParseInt(string(mf[1]), 10, 64)
		total += pages * int64(os.Getpagesize())
	}
	return total
}
