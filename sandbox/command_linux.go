package sandbox

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Cmd is a program to start, confined by a Spec or plain. Use its Start
// and Wait (not the embedded exec.Cmd's): Start builds the sandbox, Wait
// ends what serves it.
type Cmd struct {
	*exec.Cmd
	spec *Spec
	// OnConnect, when set before Start, hears every connection the
	// program asks the egress proxy for: the host (and port), whether
	// the spec allows it, and the rule that decided (see Proxy). It is
	// called from the proxy's goroutines.
	OnConnect func(host string, allowed bool, rule string)
	// Port, when set before Start, narrows the spec's hosts to origins:
	// see Proxy.Port.
	Port func(host string, port int) bool
	// Program, when set before Start, is the program's file, opened by
	// the caller (a regular file, not a script): what runs is this file,
	// whatever is at Command's path by then. A program that may write its
	// folder could have put another there, or one where it was missing.
	// Unconfined, it runs from its descriptor (which it keeps open, read
	// only); confined, from its path inside the sandbox where that shows
	// this file, else from a copy of it (see plan.pinProgram). Command's
	// path stays its argv[0].
	Program *os.File

	mu    sync.Mutex
	proxy *Proxy
	// report is where the helper says why it failed, if it does, before
	// the program runs (see BuildFailure); reported is closed once it has
	// been read to its end.
	report   string
	reported chan struct{}
	// breakPlan, in tests, changes the plan before the helper gets it.
	breakPlan func(*plan)
}

// Command returns the command that runs path with args and the
// environment env, confined by spec when it is not nil. Either way the
// program starts in a session of its own (no controlling terminal) and is
// killed if Deckhand dies; a confined one is also the first process of a
// PID namespace of its own, so that nothing it starts outlives it.
func Command(path string, args, env []string, spec *Spec) (*Cmd, error) {
	c := &Cmd{spec: spec}
	if spec == nil {
		c.Cmd = exec.Command(path, args...)
		c.Cmd.Env = env
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
		return c, nil
	}
	if err := spec.Check(); err != nil {
		return nil, err
	}
	cmd, err := helperCommand(append([]string{path}, args...)...)
	if err != nil {
		return nil, err
	}
	c.Cmd = cmd
	c.Cmd.Env = env
	return c, nil
}

// ownBinary is how the helper is started: the binary this process runs,
// by its inode (/proc/self/exe), never by its path. A program that may
// write the folder Deckhand's binary is in (~/.local/bin, ~/go/bin, under
// a server granted the home folder) can remove it and put one of its own
// there; os.Executable would name that path (it drops " (deleted)"), and
// the next sandbox would start the planted program, unconfined, as the
// person.
const ownBinary = "/proc/self/exe"

// helperCommand is Deckhand's own binary in helper mode, with args after
// helperArg. Its argv[0] is the binary's path, for ps.
func helperCommand(args ...string) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("the sandbox needs Deckhand's own binary: %w", err)
	}
	if _, err := os.Stat(ownBinary); err != nil {
		return nil, fmt.Errorf("the sandbox needs Deckhand's own binary (%s): %w", ownBinary, err)
	}
	cmd := exec.Command(ownBinary, append([]string{helperArg}, args...)...)
	cmd.Args[0] = self
	return cmd, nil
}

// Start starts the program. A confined one's plan is made here, from the
// files as they are now and Dir.
func (c *Cmd) Start() error {
	if c.spec == nil {
		if c.Program != nil {
			// Executed through the kernel's link to the descriptor, as
			// the child has it: the file itself, not a path.
			c.ExtraFiles = append(c.ExtraFiles, c.Program)
			c.Path = "/proc/self/fd/" + strconv.Itoa(2+len(c.ExtraFiles))
		}
		return c.Cmd.Start()
	}
	if err := Available(); err != nil {
		return err
	}
	p, err := buildPlan(c.spec, c.Dir, socketPaths())
	if err != nil {
		// A grant the sandbox refuses (the whole file system, a socket
		// that is not one): Deckhand's refusal, not the program's.
		return &BuildError{Reason: err.Error(), err: err}
	}
	if c.breakPlan != nil {
		c.breakPlan(p)
	}
	var parentEnd, childEnd *os.File
	if p.Proxy {
		if parentEnd, childEnd, err = socketPair(); err != nil {
			return err
		}
		c.ExtraFiles = []*os.File{childEnd}
	}
	// A pipe the helper writes its failure to and that closes, empty, as
	// the program starts (close-on-exec): unlike its stderr or exit
	// status, nothing the program does can write to it.
	reportEnd, reportChild, err := os.Pipe()
	if err != nil {
		if childEnd != nil {
			childEnd.Close()
			parentEnd.Close()
		}
		return err
	}
	c.ExtraFiles = append(c.ExtraFiles, reportChild)
	p.Report = 2 + len(c.ExtraFiles)
	if c.Program != nil && !p.Serve {
		c.ExtraFiles = append(c.ExtraFiles, c.Program)
		p.Program = 2 + len(c.ExtraFiles)
	}
	c.Env = append(slices.DeleteFunc(slices.Clone(c.Env), func(kv string) bool { return strings.HasPrefix(kv, planEnv+"=") }),
		planEnv+"="+encodeJSON(p))
	c.SysProcAttr = namespaces(p.NewNet)
	err = c.Cmd.Start()
	if childEnd != nil {
		childEnd.Close()
	}
	reportChild.Close()
	if err != nil {
		if parentEnd != nil {
			parentEnd.Close()
		}
		reportEnd.Close()
		return err
	}
	c.reported = make(chan struct{})
	go func() {
		defer close(c.reported)
		defer reportEnd.Close()
		data, _ := io.ReadAll(io.LimitReader(reportEnd, 4<<10))
		c.report = strings.TrimSpace(string(data))
	}()
	if p.Proxy {
		ln, err := receiveListener(parentEnd)
		parentEnd.Close()
		if err != nil {
			// The helper failed before handing it over; Wait says how.
			return nil
		}
		c.mu.Lock()
		c.proxy = &Proxy{Hosts: c.spec.Hosts, OnConnect: c.OnConnect, Port: c.Port}
		c.mu.Unlock()
		go c.proxy.Serve(ln)
	}
	return nil
}

// BuildFailure is a *BuildError when the helper could not build the
// program's sandbox (the program never ran), or nil. It waits until the
// program started or the helper ended: call it once the process is gone.
func (c *Cmd) BuildFailure() error {
	if c.reported == nil {
		return nil
	}
	<-c.reported
	if c.report == "" {
		return nil
	}
	return &BuildError{Reason: c.report}
}

// Wait waits for the program and closes its proxy.
func (c *Cmd) Wait() error {
	err := c.Cmd.Wait()
	c.Close()
	return err
}

// Close stops serving the program's proxy (its network namespace goes
// with the last of its sockets).
func (c *Cmd) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proxy != nil {
		c.proxy.Close()
		c.proxy = nil
	}
}

// namespaces are the attributes of the helper's process: new user, mount,
// PID and IPC namespaces (and network, when newNet), the person's own uid
// and gid inside, the capabilities to build the sandbox (dropped before
// the program runs), a session of its own, and death with Deckhand.
func namespaces(newNet bool) *syscall.SysProcAttr {
	flags := uintptr(unix.CLONE_NEWUSER | unix.CLONE_NEWNS | unix.CLONE_NEWPID | unix.CLONE_NEWIPC)
	if newNet {
		flags |= unix.CLONE_NEWNET
	}
	uid, gid := os.Getuid(), os.Getgid()
	return &syscall.SysProcAttr{
		Cloneflags:  flags,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		AmbientCaps: []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN, unix.CAP_SETPCAP},
		Setsid:      true,
		Pdeathsig:   syscall.SIGKILL,
	}
}

func socketPair() (parent, child *os.File, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "sandbox"), os.NewFile(uintptr(fds[1]), "sandbox-child"), nil
}

// receiveListener takes the listener the helper opened in the program's
// network.
func receiveListener(conn *os.File) (net.Listener, error) {
	buf, oob := make([]byte, 16), make([]byte, unix.CmsgSpace(4))
	n, oobn, _, _, err := unix.Recvmsg(int(conn.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errors.New("the sandbox helper ended before opening the proxy")
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, errors.New("the sandbox helper sent no listener")
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return nil, errors.New("the sandbox helper sent no listener")
	}
	if _, err := strconv.Atoi(string(buf[:n])); err != nil {
		unix.Close(fds[0])
		return nil, errors.New("the sandbox helper sent no port")
	}
	f := os.NewFile(uintptr(fds[0]), "proxy")
	defer f.Close()
	return net.FileListener(f)
}

// Available says whether programs can be confined here, and if not, why
// (and what the kernel lacks). The answer is found once, by building a
// sandbox for nothing.
func Available() error {
	if ABI() < 1 {
		return fmt.Errorf("%w: no Landlock (Linux 5.13 or later with Landlock enabled is needed)", ErrUnavailable)
	}
	if os.Getenv(noUsernsEnv) == "1" {
		return fmt.Errorf("%w: %s", ErrUnavailable, usernsAdvice())
	}
	probe.once.Do(func() { probe.err = runProbe() })
	return probe.err
}

var probe struct {
	once sync.Once
	err  error
}

func runProbe() error {
	cmd, err := helperCommand()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	p, err := buildPlan(&Spec{Read: []string{"/usr"}}, "/", nil)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	cmd.Env = []string{planEnv + "=" + encodeJSON(p)}
	cmd.SysProcAttr = namespaces(true)
	out, err := cmd.CombinedOutput()
	if err != nil {
		why := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "deckhand sandbox: "))
		if why == "" {
			why = err.Error()
		}
		if outer, nested := Nested(); nested {
			return fmt.Errorf("%w: this process already runs inside %s, which refuses the new user namespace a second sandbox needs (%s): %w", ErrUnavailable, outer, why, ErrNested)
		}
		return fmt.Errorf("%w: the sandbox could not be built (%s); %s", ErrUnavailable, why, usernsAdvice())
	}
	return nil
}

// usernsAdvice says what keeps user namespaces off, where the kernel says.
func usernsAdvice() string {
	for _, k := range []struct{ file, want, what string }{
		{"/proc/sys/kernel/unprivileged_userns_clone", "0", "kernel.unprivileged_userns_clone is 0"},
		{"/proc/sys/user/max_user_namespaces", "0", "user.max_user_namespaces is 0"},
		{"/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1", "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1)"},
	} {
		if data, err := os.ReadFile(k.file); err == nil && strings.TrimSpace(string(data)) == k.want {
			return "user namespaces are needed and " + k.what
		}
	}
	return "user namespaces (Linux 3.8 or later, allowed for unprivileged users) are needed"
}

// Summarize says what spec amounts to here (see Summary).
func Summarize(spec *Spec) Summary {
	s := Summary{Namespaces: []string{"user", "mount", "pid", "ipc"}, Landlock: ABI(), Network: spec.NetworkMode(), Hosts: spec.Hosts,
		Sockets: []string{}, Keyring: "a new anonymous session keyring (the person's is out of reach)"}
	sec := summarizeSeccomp()
	s.Seccomp = &sec
	if !spec.Network {
		s.Namespaces = append(s.Namespaces, "net")
	}
	if p, err := buildPlan(spec, "", socketPaths()); err == nil {
		for _, m := range p.Mounts {
			switch m.Kind {
			case mountSock:
				s.Sockets = append(s.Sockets, m.Path)
			case mountHide:
				s.Hidden = append(s.Hidden, m.Path)
			}
		}
	}
	if spec.Network && s.Landlock < 6 {
		s.Sockets = append(s.Sockets, "abstract sockets (Landlock before ABI 6 cannot scope them)")
	}
	return s
}
