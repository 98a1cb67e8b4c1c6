package store

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
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
	fields := procStat(pid)
	if len(fields) > 0 && fields[0] == "Z" {
		return false // killed, and only waiting for its parent to notice
	}
	return start == "" || len(fields) < 20 || fields[19] == start
}

func isPermission(pid int) bool { return syscall.Kill(pid, 0) == syscall.EPERM }

// startTime is a process's start time in clock ticks since boot (Linux's
// /proc/PID/stat field 22), or "" where that cannot be read.
func startTime(pid int) string {
	fields := procStat(pid)
	if len(fields) < 20 {
		return ""
	}
	return fields[19] // field 22 overall: the first field after ")" is field 3
}

// procStat is /proc/PID/stat from its third field on (the state, "R", "S",
// "Z"…), or nil where it cannot be read.
func procStat(pid int) []string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}
