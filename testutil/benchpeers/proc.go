package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"deckhand/procstat"
)

var pageSize = int64(os.Getpagesize())

// parents maps every visible process to its parent, read from /proc.
func parents() map[int]int {
	out := map[int]int{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := procstat.Read(pid)
		if err != nil {
			continue
		}
		if ppid, err := strconv.Atoi(st.Field(procstat.PPID)); err == nil {
			out[pid] = ppid
		}
	}
	return out
}

// descendants lists root's descendants (not root itself).
func descendants(root int, ppids map[int]int) []int {
	children := map[int][]int{}
	for pid, ppid := range ppids {
		children[ppid] = append(children[ppid], pid)
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// rss is a process's resident set in bytes (0 once it is gone).
func rss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return pages * pageSize
}

// tree counts root and its descendants and sums their RSS.
func tree(root int) (count int, bytes int64) {
	pids := append([]int{root}, descendants(root, parents())...)
	for _, p := range pids {
		if r := rss(p); r > 0 || p == root {
			count++
			bytes += r
		}
	}
	return count, bytes
}

// becomeSubreaper makes this process inherit the orphans of the hosts it
// runs (servers still alive when their host exits), so that cleanUp can
// find them and end them before the next run.
func becomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// cleanUp ends the processes left by a run: this process's children
// other than keep (the mock model), and what they started. They get grace
// to exit by themselves (their host closed their stdin), then SIGKILL.
// It returns how many were still there when it started.
func cleanUp(keep map[int]bool, grace time.Duration) int {
	self := os.Getpid()
	deadline := time.Now().Add(grace)
	first := -1
	for {
		ppids := parents()
		var left []int
		for _, p := range descendants(self, ppids) {
			if !keep[p] && !keep[ppids[p]] {
				left = append(left, p)
			}
		}
		if first < 0 {
			first = len(left)
		}
		if len(left) == 0 {
			return first
		}
		for _, p := range left {
			if time.Now().After(deadline) {
				syscall.Kill(p, syscall.SIGKILL)
			}
			if ppids[p] == self {
				var ws syscall.WaitStatus
				syscall.Wait4(p, &ws, syscall.WNOHANG, nil)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}
