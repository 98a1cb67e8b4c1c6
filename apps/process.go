package apps

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"deckhand/sandbox"
)

// HelperName is the view helper's file name, looked for beside Deckhand's
// own binary.
const HelperName = "deckhand-view"

// The view helper is looked for once, at Deckhand's start (OpenHelper),
// and opened then: every view runs that file, from its descriptor (or a
// copy of it, in the sandbox: see sandbox.Cmd.Program), never what is at
// its path later. The folder of Deckhand's binary may be one a program
// can write (a server granted it, the built-in shell in a workspace that
// holds it): a helper put there, or in the place of one, would run with
// the display, as the person.
var opened struct {
	once sync.Once
	path string
	file *os.File
	err  error
}

// OpenHelper finds the view helper beside the running binary and opens it,
// once per process: the window calls it at its start, before any server
// runs. Its error is FindHelper's.
func OpenHelper() error {
	opened.once.Do(func() {
		opened.path, opened.err = helperPath()
		if opened.err == nil {
			opened.file, opened.err = openHelper(opened.path)
		}
	})
	return opened.err
}

// FindHelper is the path of the view helper OpenHelper opened (it calls
// it if nothing has), or the error that says why there is none: one
// missing then stays missing (see NoHelperError) until Deckhand starts
// again.
func FindHelper() (string, error) {
	if err := OpenHelper(); err != nil {
		return "", err
	}
	return opened.path, nil
}

// helperPath is where the view helper should be: beside the running
// binary (its real path).
func helperPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding the view helper: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Join(filepath.Dir(exe), HelperName), nil
}

// openHelper opens the helper at path for running, if it is one Deckhand
// may run: a regular file, executable, owned by the person or by root and
// writable by no one else. The file, not its folder, is what is checked:
// once open, what is done at the path changes nothing, but a file another
// account (or anyone) may write could be changed in place, under the
// descriptor.
func openHelper(path string) (*os.File, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &NoHelperError{Path: path}
	}
	if err != nil {
		return nil, fmt.Errorf("opening the view helper: %w", err)
	}
	st, err := f.Stat()
	if err == nil {
		err = runnable(st)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("the view helper %s is not run: %w", path, err)
	}
	return f, nil
}

func runnable(st fs.FileInfo) error {
	switch uid, known := owner(st); {
	case !st.Mode().IsRegular():
		return errors.New("it is not a regular file")
	case st.Mode().Perm()&0o111 == 0:
		return errors.New("it is not executable")
	case known && uid != 0 && uid != os.Geteuid():
		return fmt.Errorf("it belongs to another account (uid %d)", uid)
	case st.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("others may write it (mode %v): chmod go-w it", st.Mode().Perm())
	}
	return nil
}

// helperFile is the open helper to run for path: the one OpenHelper
// opened when path is its, else path opened now, with the same checks (a
// test's own helper); done closes what was opened here, once the process
// has started.
func helperFile(path string) (f *os.File, done func(), err error) {
	if OpenHelper() == nil && path == opened.path {
		return opened.file, func() {}, nil
	}
	f, err = openHelper(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// NoHelperError is FindHelper's error when the helper was not beside the
// running binary at Deckhand's start: Path is where it was looked for.
type NoHelperError struct{ Path string }

func (e *NoHelperError) Error() string {
	return fmt.Sprintf("no view helper at %s when Deckhand started (make build builds it beside deckhand; then start Deckhand again)", e.Path)
}

// Sandboxed reports whether a view can be confined here beyond its
// Content-Security-Policy: by Deckhand's own sandbox (package sandbox:
// where the kernel allows one), else by WebKit's, which runs its web
// process under bubblewrap where that is installed.
func Sandboxed() bool { return sandbox.Available() == nil || bubblewrap() }

// bubblewrap reports whether WebKit's own sandbox can confine a view's
// web process: it runs it under bubblewrap (new mount, PID, IPC and
// network namespaces, a seccomp filter, only the files a web process
// needs), and a view cannot start where bubblewrap is missing.
func bubblewrap() bool {
	_, err := exec.LookPath("bwrap")
	return err == nil
}

// Process is one running view helper: the Conn of its view. It dies with
// Deckhand (Linux: the parent-death signal) or when Close is called.
type Process struct {
	pid  int
	in   io.WriteCloser
	enc  *json.Encoder
	out  *bufio.Scanner
	done chan struct{}
	once sync.Once
}

var _ Conn = (*Process)(nil)

// Start runs the helper at path showing open, with env added to its
// environment (DISPLAY and the like come from Deckhand's own), confined
// by WebKit's own sandbox alone (open.Sandbox); StartConfined runs it in
// Deckhand's.
func Start(path string, open OpenView, env []string) (*Process, error) {
	file, done, err := helperFile(path)
	if err != nil {
		return nil, err
	}
	defer done()
	cmd, err := sandbox.Command(path, nil, append(os.Environ(), env...), nil)
	if err != nil {
		return nil, err
	}
	cmd.Program = file
	confine(cmd.Cmd)
	open.Confined = false
	return start(cmd.Cmd, cmd.Start, cmd.Wait, nil, open)
}

// StartConfined runs the helper at path showing open in Deckhand's own
// sandbox (see ViewSpec): only the system's libraries and fonts, the
// display, a private home (removed when it ends) and, for its network,
// the egress proxy, which lets through exactly the origins csp declares.
// WebKit's bubblewrap, which needs user namespaces of its own, is off
// inside it. An error wraps sandbox.ErrUnavailable where the kernel
// cannot confine it.
//
// onConnect, when not nil, hears each connection the helper asks the
// proxy for: "host:port", whether it was let through, and why (see
// sandbox.Proxy.OnConnect); it is called from the proxy's goroutines.
func StartConfined(path string, open OpenView, csp CSP, onConnect func(target string, allowed bool, rule string)) (*Process, error) {
	home, err := os.MkdirTemp("", "deckhand-view-")
	if err != nil {
		return nil, fmt.Errorf("making the view's home: %w", err)
	}
	cleanup := func() { os.RemoveAll(home) }
	file, done, err := helperFile(path)
	if err != nil {
		cleanup()
		return nil, err
	}
	defer done()
	cmd, err := sandbox.Command(path, nil, viewEnv(home, os.Getenv), ViewSpec(path, csp, home, os.Getenv))
	if err != nil {
		cleanup()
		return nil, fmt.Errorf("confining the view helper: %w", err)
	}
	cmd.Port, cmd.OnConnect, cmd.Program = csp.allowPort, onConnect, file
	open.Sandbox, open.Confined = false, true
	p, err := start(cmd.Cmd, cmd.Start, cmd.Wait, cleanup, open)
	if err != nil {
		cleanup()
	}
	return p, err
}

func start(cmd *exec.Cmd, run func() error, wait func() error, cleanup func(), open OpenView) (*Process, error) {
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := run(); err != nil {
		return nil, fmt.Errorf("starting the view helper %s: %w", cmd.Args[0], err)
	}
	p := &Process{pid: cmd.Process.Pid, in: in, enc: json.NewEncoder(in), out: bufio.NewScanner(out), done: make(chan struct{})}
	p.out.Buffer(make([]byte, 64<<10), 2*MaxMessageBytes+4096)
	go func() {
		wait()
		if cleanup != nil {
			cleanup()
		}
		close(p.done)
	}()
	if err := p.Write(Frame{Open: &open}); err != nil {
		p.Close()
		return nil, fmt.Errorf("opening the view: %w", err)
	}
	return p, nil
}

// Read is the helper's next frame; io.EOF once it has exited.
func (p *Process) Read() (Frame, error) {
	for p.out.Scan() {
		var f Frame
		if err := json.Unmarshal(p.out.Bytes(), &f); err != nil {
			return Frame{Event: EventBadMessage, Detail: "the helper sent a line that is not a frame"}, nil
		}
		return f, nil
	}
	if err := p.out.Err(); err != nil && !errors.Is(err, os.ErrClosed) {
		if errors.Is(err, bufio.ErrTooLong) {
			return Frame{Event: EventOversize, Detail: "over 2 MiB"}, nil
		}
		return Frame{}, err
	}
	return Frame{}, io.EOF
}

// Write sends a frame to the helper.
func (p *Process) Write(f Frame) error { return p.enc.Encode(f) }

// Done is closed when the helper has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Pid is the helper's process id.
func (p *Process) Pid() int { return p.pid }

// Close ends the view: its stdin closes (the helper quits), and whatever
// is still running of it a moment later is killed, web processes included.
func (p *Process) Close() {
	p.once.Do(func() {
		p.in.Close()
		select {
		case <-p.done:
		case <-time.After(2 * time.Second):
		}
		kill(p.pid)
		<-p.done
	})
}

// Memory is the resident memory of the helper and every process of its
// group (WebKit's web and network processes), in bytes; 0 where it cannot
// be read.
func (p *Process) Memory() int64 { return groupRSS(p.pid) }

// Confinement says, for `deckhand policy`, how a view is confined here.
func Confinement() string {
	s := "each in a process of its own (deckhand-view), served with a Content-Security-Policy from the origins its resource declares (nothing else reachable), no navigation, new windows, files, kept cookies or storage, or permissions; stopped when it floods, loops calls or grows past 1 GiB"
	switch {
	case sandbox.Available() == nil:
		s += "; the helper and all of WebKit in Deckhand's sandbox (user, mount, PID, IPC and network namespaces, Landlock, the seccomp filter, a keyring of its own): the system's libraries, fonts and certificates read-only, the display's socket and a private home, no other file; its network only the egress proxy, which lets through exactly the origins (host and port) its resource declares"
	case bubblewrap():
		s += "; Deckhand's sandbox is not available here (" + sandbox.Available().Error() + "), so only its web process is confined, in WebKit's bubblewrap sandbox (own mount, PID and network namespaces)"
	default:
		s += "; neither Deckhand's sandbox (" + sandbox.Available().Error() + ") nor bubblewrap is available, so WebKit runs unconfined, its network and files limited by the policy alone"
	}
	if _, err := FindHelper(); err != nil {
		s += "; " + err.Error() + ": views do not open"
	}
	return s
}
