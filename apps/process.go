package apps

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// FindHelper is the view helper beside the running binary, or an error
// that says where it was looked for.
func FindHelper() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding the view helper: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	p := filepath.Join(filepath.Dir(exe), HelperName)
	if _, err := os.Stat(p); err != nil {
		return "", &NoHelperError{Path: p}
	}
	return p, nil
}

// NoHelperError is FindHelper's error when the helper is not beside the
// running binary: Path is where it was looked for.
type NoHelperError struct{ Path string }

func (e *NoHelperError) Error() string {
	return fmt.Sprintf("no view helper at %s (make build builds it beside deckhand)", e.Path)
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
	cmd := exec.Command(path)
	cmd.Env = append(os.Environ(), env...)
	confine(cmd)
	open.Confined = false
	return start(cmd, cmd.Start, cmd.Wait, nil, open)
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
	cmd, err := sandbox.Command(path, nil, viewEnv(home, os.Getenv), ViewSpec(path, csp, home, os.Getenv))
	if err != nil {
		cleanup()
		return nil, fmt.Errorf("confining the view helper: %w", err)
	}
	cmd.Port, cmd.OnConnect = csp.allowPort, onConnect
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
		return nil, fmt.Errorf("starting the view helper %s: %w", cmd.Path, err)
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
