package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// probeUserns builds new user, mount and PID namespaces from inside
// (clone: unshare refuses a threaded process) and there mounts a tmpfs
// and a proc anew: with the capabilities a new namespace gives, the
// sandbox's mounts could be undone.
func probeUserns() finding {
	self, _ := os.Executable()
	cmd := exec.Command(self, "newns")
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}}
	out, err := cmd.Output()
	if err != nil {
		return finding{Detail: "clone(CLONE_NEWUSER): " + err.Error()}
	}
	return finding{Escaped: true, Detail: "started a process in a new user namespace: " + strings.TrimSpace(string(out))}
}

// newns is probeUserns' child, root of its new namespaces.
func newns() {
	dir, err := os.MkdirTemp("", "escape-ns-")
	if err != nil {
		fmt.Println("mkdir:", err)
		return
	}
	defer os.Remove(dir)
	var did []string
	for _, fs := range []string{"tmpfs", "proc"} {
		if err := unix.Mount(fs, dir, fs, 0, ""); err != nil {
			did = append(did, fmt.Sprintf("mounting %s: %v", fs, err))
			continue
		}
		did = append(did, "mounted a "+fs)
		unix.Unmount(dir, unix.MNT_DETACH)
	}
	fmt.Println(strings.Join(did, "; "))
}

// probePtrace attaches to a child of its own and reads its memory with
// process_vm_readv: the calls the filter denies, tried on the one process
// that is surely there.
func probePtrace() finding {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		return finding{Detail: "starting a child: " + err.Error()}
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	pid := cmd.Process.Pid
	var got, tried []string
	done := make(chan error)
	go func() {
		// ptrace's tracer is a thread; the child dies traced (killed
		// below), and the thread with the goroutine.
		runtime.LockOSThread()
		done <- unix.PtraceSeize(pid)
	}()
	if err := <-done; err != nil {
		tried = append(tried, "ptrace: "+err.Error())
	} else {
		got = append(got, "ptrace seized a process")
	}
	var b [1]byte
	var x byte = 1
	local := []unix.Iovec{{Base: &b[0], Len: 1}}
	remote := []unix.RemoteIovec{{Base: uintptr(unsafe.Pointer(&x)), Len: 1}}
	if _, err := unix.ProcessVMReadv(os.Getpid(), local, remote, 0); err != nil {
		tried = append(tried, "process_vm_readv: "+err.Error())
	} else {
		got = append(got, "process_vm_readv read memory")
	}
	if len(got) == 0 {
		return finding{Detail: strings.Join(tried, "; ")}
	}
	return finding{Escaped: true, Detail: strings.Join(slices.Concat(got, tried), "; ")}
}

// probeProcMem opens /proc/PID/mem for writing, and reads
// /proc/PID/environ, of every process it sees that it did not start:
// ptrace's reach without ptrace. A command of the built-in shell sees the
// sandbox that runs it (its /proc is that sandbox's); with this it could
// take it over.
func probeProcMem() finding {
	mine := descendants()
	var got []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil || mine[e.Name()] {
			continue
		}
		comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		what := e.Name() + " " + strings.TrimSpace(string(comm))
		if f, err := os.OpenFile(filepath.Join("/proc", e.Name(), "mem"), os.O_RDWR, 0); err == nil {
			f.Close()
			got = append(got, "opened the memory of "+what+" for writing")
		} else if data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ")); err == nil && len(data) > 0 {
			got = append(got, "read the environment of "+what)
		}
	}
	if len(got) == 0 {
		return finding{Detail: "no other process's memory or environment"}
	}
	return finding{Escaped: true, Detail: fmt.Sprintf("%d processes: %s", len(got), strings.Join(got[:min(6, len(got))], "; "))}
}

// descendants are the pids (as /proc names them) of this process and
// those it started.
func descendants() map[string]bool {
	self, _ := os.Readlink("/proc/self")
	mine := map[string]bool{self: true}
	parent := map[string]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			// pid (comm) state ppid ...
			if i := strings.LastIndexByte(string(data), ')'); i > 0 {
				if f := strings.Fields(string(data[i+1:])); len(f) > 1 {
					parent[e.Name()] = f[1]
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for p, pp := range parent {
			if mine[pp] && !mine[p] {
				mine[p], changed = true, true
			}
		}
	}
	return mine
}

// probeSignals sends signal 0 to every pid of the machine's range: any
// that answers and is not this process (or one of its threads, numbered
// as its own namespace numbers them) is a process it could signal.
func probeSignals() finding {
	max := 1 << 22
	if data, err := os.ReadFile("/proc/sys/kernel/pid_max"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && n < max {
			max = n
		}
	}
	own := map[int]bool{os.Getpid(): true}
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, t := range tasks {
		data, _ := os.ReadFile(filepath.Join("/proc/self/task", t.Name(), "status"))
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "NSpid:" {
				n, _ := strconv.Atoi(f[len(f)-1]) // the innermost namespace's, as kill reads it
				own[n] = true
			}
		}
	}
	var signalled []int
	seen := 0
	for pid := 1; pid <= max; pid++ {
		if own[pid] {
			continue
		}
		switch err := unix.Kill(pid, 0); err {
		case nil:
			if descends(pid, own) {
				continue // a child an earlier probe left, still ending: its own
			}
			signalled = append(signalled, pid)
		case unix.EPERM:
			seen++
		}
	}
	if len(signalled) == 0 {
		return finding{Detail: fmt.Sprintf("no other process answers signal 0 (pids 1-%d; %d seen but refused)", max, seen)}
	}
	return finding{Escaped: true, Detail: fmt.Sprintf("may signal %d processes (%v…), %d more seen", len(signalled), signalled[:min(5, len(signalled))], seen)}
}

// descends reports whether pid is a descendant of one of own, by its
// parents in /proc (a process it cannot see there is not).
func descends(pid int, own map[int]bool) bool {
	for range 64 {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return false
		}
		// The name, in parentheses, may hold spaces: the fields after
		// its closing one are the state, then the parent.
		i := strings.LastIndexByte(string(data), ')')
		f := strings.Fields(string(data[i+1:]))
		if i < 0 || len(f) < 2 {
			return false
		}
		ppid, err := strconv.Atoi(f[1])
		if err != nil || ppid <= 0 {
			return false
		}
		if own[ppid] {
			return true
		}
		pid = ppid
	}
	return false
}

// probeTIOCSTI types a space into every terminal it can open: the
// controlling one, one it was handed, and one of its own (a pty it opens
// and makes a child's controlling terminal, the one terminal TIOCSTI
// takes without a capability: it shows whether the filter lets the call
// through at all). The kernel may refuse it to anyone
// (dev.tty.legacy_tiocsti = 0).
func probeTIOCSTI() finding {
	var got, tried []string
	for _, fd := range slices.Concat([]int{0, 1, 2}, startFDs) {
		if err := typeSpace(fd); err == nil {
			got = append(got, fmt.Sprintf("typed into fd %d", fd))
		} else if err != unix.ENOTTY {
			tried = append(tried, fmt.Sprintf("fd %d: %v", fd, err))
		}
	}
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		if err := typeSpace(int(f.Fd())); err == nil {
			got = append(got, "typed into /dev/tty")
		} else {
			tried = append(tried, "/dev/tty: "+err.Error())
		}
		f.Close()
	} else {
		tried = append(tried, "/dev/tty: "+err.Error())
	}
	if r, err := ownTerminal(); err == nil {
		got = append(got, r)
	} else {
		tried = append(tried, "a pty of its own: "+err.Error())
	}
	if len(got) == 0 {
		return finding{Detail: "no terminal took input: " + strings.Join(tried, "; ")}
	}
	return finding{Escaped: true, Detail: strings.Join(got, "; ")}
}

func typeSpace(fd int) error {
	if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err != nil {
		return unix.ENOTTY
	}
	c := byte(' ')
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.TIOCSTI, uintptr(unsafe.Pointer(&c))); errno != 0 {
		return errno
	}
	return nil
}

// ownTerminal opens a pty and runs `escape tiocsti` with it as its
// controlling terminal.
func ownTerminal() (string, error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return "", err
	}
	defer m.Close()
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		return "", fmt.Errorf("unlocking: %w", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		return "", fmt.Errorf("TIOCGPTN: %w", err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return "", err
	}
	defer pts.Close()
	self, _ := os.Executable()
	cmd := exec.Command(self, "tiocsti")
	cmd.Stdin = pts
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%v: %s", err, out)
	}
	if r := strings.TrimSpace(string(out)); r != "typed" {
		return "", fmt.Errorf("%s", r)
	}
	return "typed into a pty of its own, its child's controlling terminal", nil
}

// tiocsti is ownTerminal's child: it types into its controlling terminal
// (its stdin) and says how that went.
func tiocsti() {
	if err := typeSpace(0); err != nil {
		fmt.Println("TIOCSTI:", err)
		return
	}
	fmt.Println("typed")
}

// processBound is the most tasks (processes and threads) a confined
// program may have: above it, a fork bomb takes the person's (and the
// machine's: kernel.pid_max is often 32768) room for processes.
const processBound = 4096

// probeProcessLimit reads the limit on the program's tasks and tries to
// raise it.
func probeProcessLimit() finding {
	var l unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NPROC, &l); err != nil {
		return finding{Detail: "getrlimit: " + err.Error()}
	}
	if l.Max > processBound {
		return finding{Escaped: true, Detail: fmt.Sprintf("may start %s tasks (RLIMIT_NPROC): a fork bomb fills the machine", limitText(l.Max))}
	}
	raised := unix.Rlimit{Cur: processBound * 4, Max: processBound * 4}
	if err := unix.Setrlimit(unix.RLIMIT_NPROC, &raised); err == nil {
		unix.Setrlimit(unix.RLIMIT_NPROC, &l)
		return finding{Escaped: true, Detail: fmt.Sprintf("raised its limit of %d tasks", l.Max)}
	}
	return finding{Detail: fmt.Sprintf("at most %d tasks, a limit it cannot raise", l.Max)}
}

func limitText(n uint64) string {
	if n == unix.RLIM_INFINITY {
		return "unlimited"
	}
	return strconv.FormatUint(n, 10)
}

// probeTmpfsMemory adds up the memory file systems it may write (their
// size, as statfs says): what is written there is memory no process owns,
// which the OOM killer cannot free by killing the writer, so it kills the
// person's programs instead. More than a quarter of the machine's memory
// is an escape.
func probeTmpfsMemory() finding {
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err != nil {
		return finding{Detail: "sysinfo: " + err.Error()}
	}
	ram := si.Totalram * uint64(si.Unit)
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return finding{Detail: "mountinfo: " + err.Error()}
	}
	var total uint64
	var parts []string
	seen := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		// id parent major:minor root mountpoint options ... - fstype source superoptions
		pre, post, ok := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 6 || len(g) < 1 || g[0] != "tmpfs" || !strings.HasPrefix(f[5], "rw") || seen[f[4]] {
			continue
		}
		if unix.Access(f[4], unix.W_OK) != nil {
			continue
		}
		var st unix.Statfs_t
		if unix.Statfs(f[4], &st) != nil {
			continue
		}
		seen[f[4]] = true // statfs sees the top one of those mounted here
		size := st.Blocks * uint64(st.Bsize)
		total += size
		parts = append(parts, fmt.Sprintf("%s %d MiB", f[4], size>>20))
	}
	detail := fmt.Sprintf("%d MiB of memory file systems it may fill (%s), of %d MiB of memory", total>>20, strings.Join(parts, ", "), ram>>20)
	return finding{Escaped: total > ram/4, Detail: detail}
}

// probeSysVShm makes a SysV shared memory segment (1 MiB, never touched,
// removed at once) and reads how much the IPC namespace lets such
// segments hold: a segment outlives the processes that made it, holding
// memory no process owns, as a tmpfs does. Above a quarter of the
// machine's memory is an escape.
func probeSysVShm() finding {
	id, err := unix.SysvShmGet(unix.IPC_PRIVATE, 1<<20, unix.IPC_CREAT|0o600)
	if err != nil {
		return finding{Detail: "shmget: " + err.Error()}
	}
	unix.SysvShmCtl(id, unix.IPC_RMID, nil)
	var si unix.Sysinfo_t
	unix.Sysinfo(&si)
	ram := si.Totalram * uint64(si.Unit)
	data, _ := os.ReadFile("/proc/sys/kernel/shmall")
	pages, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return finding{Escaped: true, Detail: "made a segment; kernel.shmall unreadable: " + string(data)}
	}
	limit := pages * uint64(os.Getpagesize())
	if pages > ram || limit > ram/4 {
		return finding{Escaped: true, Detail: fmt.Sprintf("made a segment; segments may hold %d pages (kernel.shmall), of %d MiB of memory", pages, ram>>20)}
	}
	return finding{Detail: fmt.Sprintf("made a segment; segments may hold %d MiB", limit>>20)}
}
