package store

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"deckhand/procstat"
)

// Owner names this process for the runs it starts: its pid and its start
// time, so that a recycled pid is not taken for the same process.
func Owner() string { return owner(os.Getpid()) }

func owner(pid int) string { return fmt.Sprintf("%d:%s", pid, startTime(pid)) }

// OwnerAlive reports whether the process that wrote owner still runs.
func OwnerAlive(o string) bool {
	pidText, start, ok := strings.Cut(o, ":")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil || pid <= 0 {
		return false
	}
	if syscall.Kill(pid, 0) != nil && !isPermission(pid) {
		return false
	}
	st, _ := procstat.Read(pid)
	if st.Field(procstat.State) == "Z" {
		return false // killed, and only waiting for its parent to notice
	}
	return start == "" || st.Field(procstat.StartTime) == "" || st.Field(procstat.StartTime) == start
}

func isPermission(pid int) bool { return syscall.Kill(pid, 0) == syscall.EPERM }

// startTime is a process's start time in clock ticks since boot (Linux's
// /proc/PID/stat field 22), or "" where that cannot be read.
func startTime(pid int) string {
	st, _ := procstat.Read(pid)
	return st.Field(procstat.StartTime)
}
