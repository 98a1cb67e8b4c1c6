package sandbox

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// maxTasks is the most processes and threads a sandbox may hold at once.
// Without a limit a fork bomb inside takes the room the person's own
// limit leaves (RLIMIT_NPROC is often near 100 000, above the machine's
// kernel.pid_max of 32768), and then no program of the session starts.
// A Chromium driven by a server runs a few hundred; a Node or Go server a
// few dozen.
const maxTasks = 2048

// limitTasks lowers RLIMIT_NPROC to maxTasks (a lower limit is kept). From
// Linux 5.14 the kernel counts it per user namespace, so the count is the
// sandbox's own tasks, not the person's; before, it would count every
// process of the person, and the limit is left alone. The program keeps no
// capability to raise it again.
func limitTasks() error {
	if !tasksCountedPerNamespace() {
		return nil
	}
	var l unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NPROC, &l); err != nil {
		return fmt.Errorf("reading the process limit: %w", err)
	}
	l.Cur, l.Max = min(l.Cur, maxTasks), min(l.Max, maxTasks)
	if err := unix.Setrlimit(unix.RLIMIT_NPROC, &l); err != nil {
		return fmt.Errorf("limiting the sandbox to %d processes: %w", maxTasks, err)
	}
	return nil
}

// tasksCountedPerNamespace reports whether the kernel is 5.14 or later.
func tasksCountedPerNamespace() bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	var major, minor int
	if _, err := fmt.Sscanf(unix.ByteSliceToString(u.Release[:]), "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 5 || major == 5 && minor >= 14
}

// closeInherited marks every descriptor above 2 close-on-exec: Deckhand
// hands its children only 0-2 (and fd 3, the helper's own), but a
// descriptor Deckhand itself inherited without close-on-exec (from a
// launcher, a terminal, a shell's `exec 7<file`) would pass through exec
// to the program, and a file or socket opened outside is reached through
// it whatever the mounts and Landlock say (they judge a path when it is
// opened). The helper keeps using fd 3 itself.
func closeInherited() error {
	err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	if err != unix.ENOSYS && err != unix.EINVAL {
		return err
	}
	// Before Linux 5.11: one at a time.
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return fmt.Errorf("listing the descriptors: %w", err)
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
	return nil
}

// tmpfsLimits are the size and inode count of each memory file system a
// sandbox may write (its /tmp and /dev/shm): a tenth of the machine's
// memory, at least 512 MiB, and one inode per 8 KiB of it. Without them
// each would take half the memory (the kernel's default), and what is
// written there belongs to no process: the OOM killer, finding none to
// free it, would kill the person's programs instead.
func tmpfsLimits() string {
	size := uint64(512 << 20)
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) == nil {
		size = max(size, si.Totalram*uint64(si.Unit)/10)
	}
	return fmt.Sprintf("size=%d,nr_inodes=%d", size, size/8192)
}
