package testutil

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"deckhand/procstat"
)

// Eventually polls cond until it holds, failing the test with msg after
// timeout. For conditions with no channel to wait on (a process that is
// gone, a file that appears); the timeout is a safety net, not a measurement.
func Eventually(t testing.TB, timeout time.Duration, cond func() bool, msg string, args ...any) {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline.C:
			t.Fatalf("after %v: "+msg, append([]any{timeout}, args...)...)
		case <-tick.C:
		}
	}
}

// Receive waits for a value on ch, failing the test after timeout.
func Receive[T any](t testing.TB, ch <-chan T, timeout time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(timeout):
		t.Fatalf("no %s within %v", what, timeout)
		panic("unreachable")
	}
}

// ProcessGone reports whether pid has exited (a zombie counts as exited: its
// parent may be a reaper that is slow, or not ours).
func ProcessGone(pid int) bool {
	if pid < 0 {
		return true
	}
	st, err := procstat.Read(pid)
	return err != nil || st.Field(procstat.State) == "Z"
}

// ReadPIDs waits until file holds n process ids (whitespace-separated, as
// the stdio test server writes them) and returns them as this process
// sees them. A pid written as "N@pid:[I]" is N in the PID namespace I (a
// sandbox's): it is found again by that namespace; one no longer found is
// returned as -1, which ProcessGone reports gone (every process of that
// namespace is).
func ReadPIDs(t testing.TB, file string, n int) []int {
	t.Helper()
	var pids []int
	Eventually(t, 30*time.Second, func() bool {
		data, _ := os.ReadFile(file)
		pids = pids[:0]
		for _, f := range strings.Fields(string(data)) {
			inner, ns, _ := strings.Cut(f, "@")
			pid, err := strconv.Atoi(inner)
			if err != nil {
				continue
			}
			if ns != "" {
				pid = HostPID(ns, pid)
			}
			pids = append(pids, pid)
		}
		return len(pids) >= n
	}, "%s never held %d pids", file, n)
	return pids
}

// HostPID is the pid, as this process sees it, of the process numbered
// inner in the PID namespace ns ("pid:[4026532]"), or -1 when no process
// of that namespace has that number.
func HostPID(ns string, inner int) int {
	if own, _ := os.Readlink("/proc/self/ns/pid"); own == ns {
		return inner
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if link, _ := os.Readlink("/proc/" + e.Name() + "/ns/pid"); link != ns {
			continue
		}
		status, _ := os.ReadFile("/proc/" + e.Name() + "/status")
		for _, line := range strings.Split(string(status), "\n") {
			if rest, ok := strings.CutPrefix(line, "NSpid:"); ok {
				f := strings.Fields(rest)
				if len(f) > 0 && f[len(f)-1] == strconv.Itoa(inner) {
					return pid
				}
			}
		}
	}
	return -1
}
