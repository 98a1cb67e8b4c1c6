package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// The helper is Deckhand's own binary started again in a hidden mode
// (helperArg), as the first process of new user, mount, PID and IPC
// namespaces (and a network namespace unless the network is on). It builds
// the program's view of the files, brings up its loopback, confines itself
// with Landlock, drops every capability and then becomes the program with
// exec: nothing of Deckhand stays resident. The program is the PID
// namespace's first process, so everything it starts dies with it.
//
// The mode is recognised in an init function, before anything else of the
// binary runs, so any binary that links this package (deckhand, a test
// binary) can be the helper.
const (
	helperArg = "__deckhand-sandbox"
	planEnv   = "DECKHAND_SANDBOX_PLAN"
)

func init() {
	if len(os.Args) > 1 && os.Args[1] == helperArg {
		// Capabilities are per thread: everything from here to exec
		// runs on this one.
		runtime.LockOSThread()
		os.Exit(helper(os.Args[2:]))
	}
}

// helper runs argv (or, with no argv and a serving plan, a runner) inside
// the plan's sandbox. It returns only on failure, with 126 after saying why
// on the plan's report descriptor (see Cmd.BuildFailure), or on stderr
// where it has none.
func helper(argv []string) int {
	var p plan
	fail := func(err error) int {
		if p.Report > 0 {
			report := os.NewFile(uintptr(p.Report), "report")
			if _, werr := report.WriteString(err.Error()); werr == nil {
				return 126
			}
		}
		fmt.Fprintf(os.Stderr, "deckhand sandbox: %v\n", err)
		return 126
	}
	if err := closeInherited(); err != nil {
		return fail(fmt.Errorf("closing inherited descriptors: %w", err))
	}
	raw := os.Getenv(planEnv)
	os.Unsetenv(planEnv) // the program never sees it
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		p.Report = 0
		return fail(fmt.Errorf("reading the plan: %w", err))
	}
	program := ""
	if len(argv) > 0 && !p.Serve {
		program = argv[0]
	}
	if err := p.mount(program); err != nil {
		return fail(err)
	}
	port := 0
	if p.NewNet {
		if err := loopbackUp(); err != nil {
			return fail(fmt.Errorf("bringing up the loopback: %w", err))
		}
		if p.Proxy {
			var err error
			if port, err = handOverListener(); err != nil {
				return fail(fmt.Errorf("opening the proxy's listener: %w", err))
			}
			for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"} {
				os.Setenv(k, "http://127.0.0.1:"+strconv.Itoa(port))
			}
			os.Setenv("ALL_PROXY", "socks5h://127.0.0.1:"+strconv.Itoa(port))
			os.Setenv("all_proxy", "socks5h://127.0.0.1:"+strconv.Itoa(port))
			os.Setenv("NO_PROXY", "localhost,127.0.0.1,::1")
			os.Setenv("no_proxy", "localhost,127.0.0.1,::1")
			os.Setenv("NODE_USE_ENV_PROXY", "1") // Node 24 and later
		}
	}
	if err := p.landlock(port); err != nil {
		return fail(err)
	}
	dropCapabilities()
	if err := limitTasks(); err != nil {
		return fail(err)
	}
	if err := os.Chdir(p.Dir); err != nil {
		return fail(fmt.Errorf("entering %s: %w", p.Dir, err))
	}
	// Last, as nothing above may need what they take away: the person's
	// keyring, then the calls the filter denies (seccomp_linux.go).
	if err := newSessionKeyring(); err != nil {
		return fail(err)
	}
	if err := installSeccomp(); err != nil {
		return fail(err)
	}
	if p.Serve {
		return serveRunner(os.NewFile(3, "runner"))
	}
	if len(argv) == 0 {
		return 0 // a probe: the sandbox can be built here
	}
	run := argv[0]
	if p.run != "" {
		run = p.run
	}
	err := unix.Exec(run, argv, os.Environ())
	// As exec.Command would say it: 127 for a program that is not there.
	fmt.Fprintf(os.Stderr, "%s: %v\n", filepath.Base(argv[0]), err)
	if os.IsNotExist(err) {
		return 127
	}
	return 126
}

// mount builds the new root: a tmpfs on /tmp becomes / (pivot_root, the
// old root kept at /oldroot while the plan's mounts are bound from it),
// then the old root is detached and the new one made read-only. program
// is the path the program is run by, "" for none (see pinProgram).
func (p *plan) mount(program string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	if err := unix.Mount("tmpfs", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=4m"); err != nil {
		return fmt.Errorf("mounting the new root: %w", err)
	}
	if err := os.Chdir("/tmp"); err != nil {
		return err
	}
	if err := os.Mkdir("oldroot", 0o755); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "oldroot"); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	for _, m := range p.Mounts {
		if err := m.apply(); err != nil {
			if m.Kind == mountCover && errors.Is(err, unix.ENOENT) {
				if _, err := os.Lstat(m.Path); os.IsNotExist(err) {
					continue // gone since the plan (a socket closed): nothing there to hide
				}
			}
			return p.mountError(m, err)
		}
	}
	if p.Program > 0 && program != "" {
		if err := p.pinProgram(program); err != nil {
			return fmt.Errorf("the program Deckhand opened: %w", err)
		}
	}
	if err := unix.Unmount("/oldroot", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detaching the old root: %w", err)
	}
	if err := os.Remove("/oldroot"); err != nil {
		return err
	}
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("making the root read-only: %w", err)
	}
	return nil
}

const oldRoot = "/oldroot"

// pinnedProgram is the folder, a memory file system of its own, that holds
// the copy pinProgram makes.
const pinnedProgram = "/.deckhand-program"

// pinProgram makes the program that runs the file Deckhand opened (the
// descriptor Program). What is at path inside is bound from the path as it
// was when the plan was made (or shows it live, through a folder bound
// whole), and a program that may write that folder could have put another
// file there since Deckhand opened it. The bind cannot be made from the
// descriptor: its mount is in Deckhand's mount namespace, and the kernel
// binds only from this one's. So path is opened here: where that is the
// same file (device and inode), it runs, from this descriptor (nothing
// done at a path from now on changes it); else a copy of the opened file
// runs, read from Deckhand's descriptor into a read-only memory file
// system at pinnedProgram (readable and executable under Landlock as the
// plan's files are). Either way argv[0] stays path. A script cannot be run
// so (its interpreter would be given a descriptor closed on exec).
func (p *plan) pinProgram(path string) error {
	var want unix.Stat_t
	if err := unix.Fstat(p.Program, &want); err != nil {
		return err
	}
	if want.Mode&unix.S_IFMT != unix.S_IFREG {
		return errors.New("not a regular file")
	}
	same := func(fd int) bool {
		var got unix.Stat_t
		return unix.Fstat(fd, &got) == nil && got.Dev == want.Dev && got.Ino == want.Ino
	}
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err == nil && same(fd) {
		p.run = "/proc/self/fd/" + strconv.Itoa(fd)
		return nil
	}
	if err == nil {
		unix.Close(fd)
	}
	copied, err := p.copyProgram(path, want.Size)
	if err != nil {
		return err
	}
	if fd, err = unix.Open(copied, unix.O_PATH|unix.O_CLOEXEC, 0); err != nil {
		return err
	}
	p.Read = append(p.Read, copied)
	p.run = "/proc/self/fd/" + strconv.Itoa(fd)
	return nil
}

// copyProgram copies the program Deckhand opened, of size bytes, into a
// read-only memory file system of its own at pinnedProgram, and returns
// the copy's path.
func (p *plan) copyProgram(path string, size int64) (string, error) {
	if err := os.Mkdir(pinnedProgram, 0o755); err != nil {
		return "", err
	}
	opts := fmt.Sprintf("mode=0755,size=%d,nr_inodes=4", size+1<<20)
	if err := unix.Mount("tmpfs", pinnedProgram, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return "", fmt.Errorf("mounting a file system for a copy of it: %w", err)
	}
	copied := filepath.Join(pinnedProgram, filepath.Base(path))
	out, err := os.OpenFile(copied, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o555)
	if err != nil {
		return "", err
	}
	// ReadAt (pread): the descriptor's offset is shared with Deckhand's.
	in := io.NewSectionReader(os.NewFile(uintptr(p.Program), "program"), 0, size)
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return "", fmt.Errorf("copying it: %w", err)
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return copied, readOnly(pinnedProgram)
}

// mountError says what of m could not be done. A place to hide names the
// folder granted around it, which the person can narrow: Deckhand will
// not show that folder with it in sight.
func (p *plan) mountError(m mountEntry, err error) error {
	if m.Kind != mountCover && m.Kind != mountHide {
		return fmt.Errorf("%s %s: %w", m.Kind, m.Path, err)
	}
	var holder *mountEntry
	for i, k := range p.Mounts {
		if (k.Kind == mountRO || k.Kind == mountRW) && k.Path != m.Path && within(m.Path, k.Path) && (holder == nil || len(k.Path) > len(holder.Path)) {
			holder = &p.Mounts[i]
		}
	}
	if holder == nil {
		return fmt.Errorf("could not hide %s (%w)", m.Path, err)
	}
	may := "read"
	if holder.Kind == mountRW {
		may = "write"
	}
	return fmt.Errorf("could not hide %s inside %s, a folder granted to %s (%w): grant a narrower folder, one that leaves %s out", m.Path, holder.Path, may, err, m.Path)
}

func (m mountEntry) apply() error {
	switch m.Kind {
	case mountRO, mountRW, mountSock:
		if m.Dir {
			if err := os.MkdirAll(m.Path, 0o755); err != nil {
				return err
			}
		} else if err := touch(m.Path); err != nil {
			return err
		}
		if err := unix.Mount(oldRoot+m.Src, m.Path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return err
		}
		if m.Kind == mountRO {
			return readOnly(m.Path)
		}
	case mountLink:
		if err := os.MkdirAll(filepath.Dir(m.Path), 0o755); err != nil {
			return err
		}
		if err := os.Symlink(m.Target, m.Path); err != nil && !os.IsExist(err) {
			return err
		}
	case mountTmpfs:
		if err := os.MkdirAll(m.Path, 0o755); err != nil {
			return err
		}
		return unix.Mount("tmpfs", m.Path, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777,"+tmpfsLimits())
	case mountHide:
		// Empty and writable (for the mount points of what is bound
		// inside it); what is written there stays in memory.
		return unix.Mount("tmpfs", m.Path, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0700,size=1m")
	case mountProc:
		if err := os.MkdirAll(m.Path, 0o555); err != nil {
			return err
		}
		return unix.Mount("proc", m.Path, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
	case mountPts:
		if err := os.MkdirAll(m.Path, 0o755); err != nil {
			return err
		}
		// A terminal of its own for programs that want one (script,
		// pty-based tools); where the kernel refuses, they go without.
		_ = unix.Mount("devpts", m.Path, "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620")
	case mountCover:
		if err := unix.Mount(oldRoot+"/dev/null", m.Path, "", unix.MS_BIND, ""); err != nil {
			return err
		}
		return readOnly(m.Path)
	default:
		return fmt.Errorf("unknown mount kind %q", m.Kind)
	}
	return nil
}

// readOnly makes the mount at path, and every mount under it, read-only.
func readOnly(path string) error {
	err := unix.MountSetattr(-1, path, unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY})
	if err == unix.ENOSYS {
		// Before Linux 5.12: this mount alone (Landlock still denies
		// writes under it), keeping the flags the kernel locked.
		var st unix.Statfs_t
		flags := uintptr(0)
		if unix.Statfs(path, &st) == nil {
			flags = uintptr(st.Flags) & (unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC | unix.MS_NOATIME | unix.MS_NODIRATIME | unix.MS_RELATIME)
		}
		err = unix.Mount("", path, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|flags, "")
	}
	return err
}

func touch(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil {
		return nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// loopbackUp brings up lo in the new network namespace (it starts down).
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	ifr.SetUint16(unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// handOverListener opens a TCP listener on the new loopback and sends it
// to Deckhand over fd 3, which serves the egress proxy on it from outside:
// a listener keeps the namespace it was made in. It returns the port.
func handOverListener() (int, error) {
	conn := os.NewFile(3, "deckhand")
	defer conn.Close()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return 0, err
	}
	if err := unix.Listen(fd, 128); err != nil {
		return 0, err
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return 0, err
	}
	port := sa.(*unix.SockaddrInet4).Port
	if err := unix.Sendmsg(int(conn.Fd()), []byte(strconv.Itoa(port)), unix.UnixRights(fd), nil, 0); err != nil {
		return 0, err
	}
	return port, nil
}

// dropCapabilities leaves the program none in its namespace: the ambient
// set is cleared and the bounding set emptied, so that exec gives it
// nothing (uid 0 included), and no_new_privs (set by Landlock) keeps
// set-uid programs from adding any.
func dropCapabilities() {
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		_ = unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
	}
	_ = unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
}
