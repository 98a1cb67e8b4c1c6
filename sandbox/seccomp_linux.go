package sandbox

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The system call filter every confined program runs under: allow by
// default, deny a list. The list started from Flatpak's
// (flatpak-run.c, setup_seccomp: its blocklist and its non-devel
// blocklist) and adds the calls Docker's default profile
// (moby/profiles/seccomp/default.json) allows only with a capability a
// container does not have, or not at all. What it denies and why, in
// groups:
//
//   - the kernel's keyrings (keyctl, add_key, request_key): a program would
//     read the person's keys, plant some, or have the kernel run the key
//     helper (as root, in the host's namespaces: a DNS lookup of its
//     choosing with dns_resolver);
//   - attack surface that programs do not need: io_uring, userfaultfd,
//     perf_event_open, bpf, NUMA calls, modify_ldt, uselib, the old
//     syscalls;
//   - SysV shared memory (shmget): a segment outlives the processes that
//     made it, holding memory no process owns (the OOM killer, unable to
//     free it, kills the person's programs), and in the sandbox's IPC
//     namespace nothing bounds it (kernel.shmall is the namespace root's
//     to set, and the sandbox maps no root); POSIX shared memory
//     (/dev/shm, memfd) stays, bounded;
//   - other processes' memory and files (ptrace, process_vm_readv/writev,
//     kcmp, pidfd_getfd);
//   - changing the system (kexec, modules, reboot, swap, the clock, quotas,
//     accounting, syslog);
//   - building namespaces and mounts from inside: unshare, setns, mount,
//     pivot_root, chroot, and clone with CLONE_NEWUSER (the new mount API
//     and clone3, whose flags a filter cannot read, say ENOSYS so that
//     libc falls back to clone);
//   - faking input on a terminal (ioctl TIOCSTI, TIOCLINUX), other
//     personalities than Linux's, and socket families other than unix,
//     IPv4, IPv6 and netlink (EAFNOSUPPORT, as Flatpak says).
//
// What is denied fails with EPERM (ENOSYS, EAFNOSUPPORT as said). The x32
// ABI is refused (the library's check), and any other ABI of the machine
// (i386 on x86_64, arm on arm64) kills the program: its call numbers
// differ, so the list would not hold there.
//
// github.com/elastic/go-seccomp-bpf builds the filter (pure Go, so the
// helper stays static); the arch guard in front of it is ours, because
// the library lets a foreign ABI through to the default action, which
// here is allow.
var seccompList = struct {
	eperm, enosys []string
}{
	eperm: []string{
		// The kernel's keyrings.
		"add_key", "keyctl", "request_key",
		// Attack surface.
		"io_uring_setup", "io_uring_enter", "io_uring_register", "userfaultfd", "perf_event_open", "bpf",
		"mbind", "get_mempolicy", "set_mempolicy", "migrate_pages", "move_pages", "set_mempolicy_home_node",
		"modify_ldt", "uselib", "ustat", "sysfs", "_sysctl", "vm86", "vm86old", "lookup_dcookie",
		"nfsservctl", "create_module", "get_kernel_syms", "query_module", "name_to_handle_at", "open_by_handle_at",
		"fanotify_init", "vhangup",
		// Memory no process owns.
		"shmget",
		// Other processes.
		"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
		// The system.
		"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff",
		"settimeofday", "stime", "clock_settime", "clock_settime64", "clock_adjtime", "clock_adjtime64",
		"quotactl", "quotactl_fd", "acct", "syslog", "iopl", "ioperm",
		// Namespaces and mounts.
		"unshare", "setns", "mount", "umount", "umount2", "pivot_root", "chroot",
	},
	enosys: []string{"clone3", "open_tree", "open_tree_attr", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr"},
}

// Arguments the filter looks at.
const (
	tiocsti   = 0x5412
	tioclinux = 0x541c
)

// allowedPersonalities are Docker's: Linux's, with the query and the
// flags programs set for themselves (PER_LINUX32, UNAME26).
var allowedPersonalities = []uint64{0x0, 0x8, 0x20000, 0x20008, 0xffffffff}

// allowedFamilies are the socket families a program may open.
var allowedFamilies = []uint64{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6, unix.AF_NETLINK}

// seccompPolicy is the filter for this machine's ABI, and the calls it
// denies there (some of the list exist only on other architectures).
func seccompPolicy() (*seccomp.Policy, []string, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return nil, nil, err
	}
	known := func(names []string) []string {
		return slices.DeleteFunc(slices.Clone(names), func(n string) bool { _, ok := info.SyscallNames[n]; return !ok })
	}
	eperm, enosys := known(seccompList.eperm), known(seccompList.enosys)
	var conditional []seccomp.NameWithConditions
	// clone with CLONE_NEWUSER: the flags are the first argument here
	// (s390's come second; the library has no table for it).
	conditional = append(conditional, seccomp.NameWithConditions{Name: "clone", Conditions: seccomp.ArgumentConditions{
		{Argument: 0, Operation: seccomp.BitsSet, Value: unix.CLONE_NEWUSER}}})
	// ioctl's request is an int: the kernel ignores the upper 32 bits,
	// so the filter must too (Flatpak's CVE-2019-10063). Equality on the
	// lower half alone is: every bit of the value set, every other clear.
	for _, req := range []uint32{tiocsti, tioclinux} {
		conditional = append(conditional, seccomp.NameWithConditions{Name: "ioctl", Conditions: lowerEquals(1, req)})
	}
	var notPersonality seccomp.ArgumentConditions
	for _, p := range allowedPersonalities {
		notPersonality = append(notPersonality, seccomp.Condition{Argument: 0, Operation: seccomp.NotEqual, Value: p})
	}
	conditional = append(conditional, seccomp.NameWithConditions{Name: "personality", Conditions: notPersonality})
	var notFamily seccomp.ArgumentConditions
	for _, f := range allowedFamilies {
		notFamily = append(notFamily, seccomp.Condition{Argument: 0, Operation: seccomp.NotEqual, Value: f})
	}
	denied := slices.Concat(eperm, enosys, []string{"clone (CLONE_NEWUSER)", "ioctl (TIOCSTI, TIOCLINUX)", "personality (other than Linux)", "socket (other families)"})
	return &seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls: []seccomp.SyscallGroup{
			{Names: eperm, NamesWithCondtions: conditional, Action: seccomp.ActionErrno | seccomp.Action(unix.EPERM)},
			{Names: enosys, Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS)},
			{NamesWithCondtions: []seccomp.NameWithConditions{{Name: "socket", Conditions: notFamily}},
				Action: seccomp.ActionErrno | seccomp.Action(unix.EAFNOSUPPORT)},
		},
	}, denied, nil
}

// lowerEquals matches when the lower 32 bits of argument arg are v,
// whatever the upper ones: the library compares all 64 bits for Equal,
// but its bit tests with a value below 2³² look at the lower half only.
func lowerEquals(arg uint32, v uint32) seccomp.ArgumentConditions {
	conds := seccomp.ArgumentConditions{{Argument: arg, Operation: seccomp.BitsNotSet, Value: uint64(^v)}}
	for bit := range 32 {
		if v&(1<<bit) != 0 {
			conds = append(conds, seccomp.Condition{Argument: arg, Operation: seccomp.BitsSet, Value: 1 << bit})
		}
	}
	return conds
}

var seccompProgram = sync.OnceValues(func() ([]unix.SockFilter, error) {
	pol, _, err := seccompPolicy()
	if err != nil {
		return nil, err
	}
	insts, err := pol.Assemble()
	if err != nil {
		return nil, err
	}
	info, _ := arch.GetInfo("")
	// Any other ABI of this machine is refused before the library's
	// filter, which would let it through.
	guard := []bpf.Instruction{
		bpf.LoadAbsolute{Off: 4, Size: 4}, // seccomp_data.arch
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(info.ID), SkipTrue: 1},
		bpf.RetConstant{Val: unix.SECCOMP_RET_KILL_PROCESS},
	}
	raw, err := bpf.Assemble(append(guard, insts...))
	if err != nil {
		return nil, err
	}
	prog := make([]unix.SockFilter, len(raw))
	for i, r := range raw {
		prog[i] = unix.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	return prog, nil
})

// installSeccomp puts the filter on every thread of this process (the
// runner's goroutines start commands from any of them); no_new_privs must
// be set already (Landlock and dropCapabilities set it).
func installSeccomp() error {
	prog, err := seccompProgram()
	if err != nil {
		return fmt.Errorf("building the system call filter: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	switch {
	case errno == unix.ENOSYS || errno == unix.EINVAL:
		return fmt.Errorf("%w: no seccomp filters (Linux 3.17 or later with CONFIG_SECCOMP_FILTER is needed)", ErrUnavailable)
	case errno != 0:
		return fmt.Errorf("installing the system call filter: %w", errno)
	case r != 0:
		return fmt.Errorf("installing the system call filter: thread %d could not take it", r)
	}
	return nil
}

// newSessionKeyring makes this process (and what it starts) join a new
// anonymous session keyring, leaving the person's: the filter denies the
// keyring calls anyway, and this keeps /proc/keys and anything the kernel
// looks up on the program's behalf from reaching the person's keys. A
// kernel without keys has nothing to leave.
func newSessionKeyring() error {
	_, _, errno := unix.Syscall(unix.SYS_KEYCTL, unix.KEYCTL_JOIN_SESSION_KEYRING, 0, 0) // NULL: anonymous
	switch errno {
	case 0, unix.ENOSYS:
		return nil
	case unix.EDQUOT:
		return fmt.Errorf("joining a new session keyring: this user's kernel key quota is spent (kernel.keys.maxkeys and maxbytes; each running sandbox holds one keyring): %w", errno)
	}
	return fmt.Errorf("joining a new session keyring: %w", errno)
}

// seccompList's origin, as `deckhand policy` names it.
const seccompOrigin = "Flatpak's blocklist and Docker's default profile"

func summarizeSeccomp() SeccompSummary {
	_, denied, err := seccompPolicy()
	if err != nil {
		return SeccompSummary{List: "none: " + err.Error()}
	}
	return SeccompSummary{List: seccompOrigin, Denied: len(denied), Calls: denied}
}
