package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/sys/unix"
)

// syscallsEnv, set to 1, makes the test binary try the calls of
// probeCalls and print each one's errno as JSON, instead of testing.
const syscallsEnv = "DECKHAND_TEST_SYSCALLS"

func init() {
	if os.Getenv(syscallsEnv) == "1" {
		out, _ := json.Marshal(tryCalls())
		os.Stdout.Write(out)
		os.Exit(0)
	}
}

// probeCalls are calls made with arguments the kernel rejects (or that
// harm nothing), so that unconfined each fails its own way (or works),
// and only the filter answers EPERM, ENOSYS or EAFNOSUPPORT.
var probeCalls = []struct {
	name string
	want syscall.Errno
	call func() syscall.Errno
}{
	{"keyctl", unix.EPERM, func() syscall.Errno {
		return raw(unix.SYS_KEYCTL, unix.KEYCTL_GET_KEYRING_ID, uintptr(negOne(unix.KEY_SPEC_SESSION_KEYRING)), 0)
	}},
	{"add_key", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_ADD_KEY, 0, 0, 0) }},
	{"request_key", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_REQUEST_KEY, 0, 0, 0) }},
	{"io_uring_setup", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_IO_URING_SETUP, 0, 0, 0) }},
	{"userfaultfd", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_USERFAULTFD, 0xffff, 0, 0) }},
	{"perf_event_open", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_PERF_EVENT_OPEN, 0, 0, 0) }},
	{"bpf", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_BPF, 0xffff, 0, 0) }},
	{"ptrace", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_PTRACE, 0xffff, 0, 0) }},
	{"process_vm_readv", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_PROCESS_VM_READV, 0, 0, 0) }},
	{"kexec_file_load", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_KEXEC_FILE_LOAD, uintptr(negOne(-1)), 0, 0) }},
	{"unshare", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_UNSHARE, 0, 0, 0) }},
	{"clone3", unix.ENOSYS, func() syscall.Errno { return raw(unix.SYS_CLONE3, 0, 0, 0) }},
	// IPC_PRIVATE, size 0: unconfined, EINVAL.
	{"shmget", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_SHMGET, 0, 0, unix.IPC_CREAT|0o600) }},
	// The upper half of ioctl's request is ignored by the kernel: the
	// filter must not be talked past with it.
	{"ioctl TIOCSTI", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_IOCTL, uintptr(negOne(-1)), 1<<32|tiocsti, 0) }},
	{"ioctl TIOCLINUX", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_IOCTL, uintptr(negOne(-1)), tioclinux, 0) }},
	{"personality", unix.EPERM, func() syscall.Errno { return raw(unix.SYS_PERSONALITY, 0x0006, 0, 0) }}, // PER_BSD
	{"socket AF_PACKET", unix.EAFNOSUPPORT, func() syscall.Errno {
		return raw(unix.SYS_SOCKET, unix.AF_PACKET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	}},
	{"clone CLONE_NEWUSER", unix.EPERM, func() syscall.Errno {
		cmd := exec.Command("/bin/true")
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: unix.CLONE_NEWUSER}
		err := cmd.Run()
		var errno syscall.Errno
		if errors.As(err, &errno) {
			return errno
		}
		return 0
	}},
	// What a program needs still works.
	{"socket AF_INET", 0, func() syscall.Errno { return raw(unix.SYS_SOCKET, unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0) }},
	{"personality query", 0, func() syscall.Errno { return raw(unix.SYS_PERSONALITY, 0xffffffff, 0, 0) }},
	{"ioctl TCGETS", unix.EBADF, func() syscall.Errno { return raw(unix.SYS_IOCTL, uintptr(negOne(-1)), unix.TCGETS, 0) }},
}

func negOne(v int) int { return v }

func raw(trap, a1, a2, a3 uintptr) syscall.Errno {
	_, _, errno := unix.RawSyscall(trap, a1, a2, a3)
	return errno
}

func tryCalls() map[string]int {
	got := map[string]int{}
	for _, c := range probeCalls {
		got[c.name] = int(c.call())
	}
	return got
}

// runCalls runs the test binary's probeCalls, confined by spec (nil:
// plain), and returns each call's errno.
func runCalls(t *testing.T, spec *Spec) map[string]int {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := Command(self, nil, []string{syscallsEnv + "=1"}, spec)
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the probe failed: %v: %s", err, errOut.String())
	}
	got := map[string]int{}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("the probe said %q: %v", out.String(), err)
	}
	return got
}

// A confined program meets the filter: the kernel's keyrings, io_uring,
// userfaultfd, perf, bpf, ptrace, another process's memory, kexec,
// namespaces from inside, clone3, SysV shared memory, faking terminal
// input (even with the upper half of the request set), other
// personalities and socket families are denied, each with its errno; what programs need is not. The
// control runs the same calls unconfined, where none of them gets the
// filter's answer (or the test proves nothing).
func TestSeccomp(t *testing.T) {
	requireSandbox(t)
	self, _ := os.Executable()
	spec := &Spec{Read: append(systemDirs, filepath.Dir(self)), Write: []string{t.TempDir()}}
	confined, plain := runCalls(t, spec), runCalls(t, nil)
	for _, c := range probeCalls {
		got, ctl := syscall.Errno(confined[c.name]), syscall.Errno(plain[c.name])
		if got != c.want {
			t.Errorf("confined %s = %v (%d), want %v", c.name, got, got, c.want)
		}
		if c.want != 0 && c.want != unix.EBADF && ctl == c.want {
			// Some calls the kernel itself refuses to the unprivileged
			// or where a setting says so (bpf, kexec, io_uring, socket
			// families): for those the control shows nothing. The
			// keyring's must be the filter's doing.
			if !strings.Contains(c.name, "key") {
				t.Logf("control: unconfined %s = %v too (a privilege or a kernel setting): this row shows nothing here", c.name, ctl)
				continue
			}
			t.Errorf("control: unconfined %s = %v too: the test cannot tell the filter's answer", c.name, ctl)
		}
	}
}

// The filter's list names calls that exist: each on at least one of the
// architectures the library has a table for.
func TestSeccompListKnown(t *testing.T) {
	pol, denied, err := seccompPolicy()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pol.Assemble(); err != nil {
		t.Fatalf("Assemble: %v", err)
	}
	if len(denied) < 60 {
		t.Errorf("the filter denies %d calls here: %v", len(denied), denied)
	}
	for _, name := range append(seccompList.eperm, seccompList.enosys...) {
		found := false
		for _, a := range []string{"amd64", "arm64", "386", "arm"} {
			if info, err := arch.GetInfo(a); err == nil {
				if _, ok := info.SyscallNames[name]; ok {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s is no system call of any architecture", name)
		}
	}
}

// A confined program has a session keyring of its own, not the one it
// was started from.
func TestNewSessionKeyring(t *testing.T) {
	before, _, errno := unix.Syscall(unix.SYS_KEYCTL, unix.KEYCTL_GET_KEYRING_ID, uintptr(negOne(unix.KEY_SPEC_SESSION_KEYRING)), 1)
	if errno != 0 {
		t.Skipf("no kernel keyring here: %v", errno)
	}
	if os.Getenv("DECKHAND_TEST_KEYRING_CHILD") == "1" {
		if err := newSessionKeyring(); err != nil {
			t.Fatal(err)
		}
		after, _, _ := unix.Syscall(unix.SYS_KEYCTL, unix.KEYCTL_GET_KEYRING_ID, uintptr(negOne(unix.KEY_SPEC_SESSION_KEYRING)), 0)
		os.Stdout.WriteString("\nring " + strconv.Itoa(int(before)) + " " + strconv.Itoa(int(after)) + "\n")
		return
	}
	self, _ := os.Executable()
	cmd := exec.Command(self, "-test.run", "^TestNewSessionKeyring$")
	cmd.Env = append(os.Environ(), "DECKHAND_TEST_KEYRING_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	_, line, _ := strings.Cut(string(out), "\nring ")
	var from, to int
	if _, err := fmt.Sscan(line, &from, &to); err != nil {
		t.Fatalf("the child said %q", out)
	}
	if from == 0 || to == 0 || from == to {
		t.Errorf("session keyring %d, then %d: want a new one", from, to)
	}
}
