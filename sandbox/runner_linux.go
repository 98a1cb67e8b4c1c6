package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A Runner runs many short commands in one sandbox. Building a sandbox
// costs a few milliseconds (a process, namespaces, mounts); a command
// costs about one. So the helper of a Runner stays, as the first process
// of its namespaces, and starts each command it is sent in a PID namespace
// of its own inside (killed with everything it started when it ends or is
// killed). Commands of one Runner share its view of the files and its
// (empty) network; they cannot see Deckhand or the session.
//
// The helper ends when the Runner is closed, when it has been idle for
// IdleTimeout, or with Deckhand.
type Runner struct {
	spec *Spec
	// IdleTimeout ends the helper after this long without a command
	// (default 30s); the next command starts a new one.
	IdleTimeout time.Duration

	mu      sync.Mutex
	helper  *exec.Cmd
	conn    *os.File
	next    uint64
	waiting map[uint64]chan runnerReply
	idle    *time.Timer
	busy    int
	dead    chan struct{}
	wmu     sync.Mutex // one message at a time on conn
}

// NewRunner returns a Runner for spec. Nothing starts until Run.
func NewRunner(spec *Spec) *Runner { return &Runner{spec: spec} }

// Job is one command for a Runner.
type Job struct {
	Path string
	Args []string // without argv[0]
	Env  []string
	Dir  string // as Deckhand sees it: it must be inside the spec's folders
	// Stdin, Stdout and Stderr are handed to the command as they are
	// (pipes or files); nil is /dev/null.
	Stdin, Stdout, Stderr *os.File
}

type runnerRequest struct {
	ID   uint64   `json:"id"`
	Kill bool     `json:"kill,omitempty"`
	Path string   `json:"path,omitempty"`
	Args []string `json:"args,omitempty"`
	Env  []string `json:"env,omitempty"`
	Dir  string   `json:"dir,omitempty"`
}

type runnerReply struct {
	ID      uint64 `json:"id"`
	Started bool   `json:"started,omitempty"`
	Err     string `json:"err,omitempty"`
	Done    bool   `json:"done,omitempty"`
	Status  uint32 `json:"status,omitempty"` // a wait status
}

// ErrRunnerDied means the helper ended while the command ran (it was
// killed, or a command killed it).
var ErrRunnerDied = errors.New("the sandbox ended while the command ran")

// Run runs job and waits for it. When ctx ends first, the command and
// everything it started are killed, and Run returns ctx's error with the
// status. A status is the command's own: exit code or signal.
func (r *Runner) Run(ctx context.Context, job Job) (syscall.WaitStatus, error) {
	id, replies, err := r.send(job)
	if err != nil {
		return 0, err
	}
	defer r.forget(id)
	killed, done := false, ctx.Done()
	for {
		select {
		case rep, ok := <-replies:
			switch {
			case !ok:
				return 0, ErrRunnerDied
			case rep.Err != "":
				return 0, errors.New(rep.Err)
			case rep.Done:
				if killed {
					return syscall.WaitStatus(rep.Status), context.Cause(ctx)
				}
				return syscall.WaitStatus(rep.Status), nil
			}
		case <-done:
			killed, done = true, nil
			r.write(runnerRequest{ID: id, Kill: true}, nil)
		}
	}
}

func (r *Runner) send(job Job) (uint64, chan runnerReply, error) {
	r.mu.Lock()
	if err := r.startLocked(); err != nil {
		r.mu.Unlock()
		return 0, nil, err
	}
	r.next++
	id := r.next
	ch := make(chan runnerReply, 2)
	r.waiting[id] = ch
	r.busy++
	if r.idle != nil {
		r.idle.Stop()
	}
	r.mu.Unlock()
	files := []*os.File{job.Stdin, job.Stdout, job.Stderr}
	var null *os.File
	for i, f := range files {
		if f == nil {
			if null == nil {
				var err error
				if null, err = os.Open(os.DevNull); err != nil {
					r.forget(id)
					return 0, nil, err
				}
				defer null.Close()
			}
			files[i] = null
		}
	}
	dir := job.Dir
	if real, err := evalDir(dir); err == nil {
		dir = real
	}
	if err := r.write(runnerRequest{ID: id, Path: job.Path, Args: job.Args, Env: job.Env, Dir: dir}, files); err != nil {
		r.forget(id)
		return 0, nil, err
	}
	return id, ch, nil
}

func (r *Runner) forget(id uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.waiting[id]; !ok {
		return
	}
	delete(r.waiting, id)
	r.busy--
	if r.busy == 0 && r.helper != nil {
		idle := r.IdleTimeout
		if idle <= 0 {
			idle = 30 * time.Second
		}
		r.idle = time.AfterFunc(idle, r.closeIdle)
	}
}

func (r *Runner) write(req runnerRequest, files []*os.File) error {
	// wmu, held from here to the send, keeps read from closing conn
	// under it (and its number from being reused meanwhile).
	r.wmu.Lock()
	defer r.wmu.Unlock()
	r.mu.Lock()
	conn := r.conn
	r.mu.Unlock()
	if conn == nil {
		return ErrRunnerDied
	}
	var oob []byte
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			fds[i] = int(f.Fd())
		}
		oob = unix.UnixRights(fds...)
	}
	data, _ := json.Marshal(req)
	return unix.Sendmsg(int(conn.Fd()), data, oob, nil, 0)
}

// startLocked starts the helper if none runs (r.mu held; a helper that is
// ending is waited for first).
func (r *Runner) startLocked() error {
	for r.helper != nil && r.conn == nil {
		dead := r.dead
		r.mu.Unlock()
		<-dead
		r.mu.Lock()
	}
	if r.helper != nil {
		return nil
	}
	if err := Available(); err != nil {
		return err
	}
	p, err := buildPlan(r.spec, "", socketPaths())
	if err != nil {
		return err
	}
	p.Serve = true
	cmd, err := helperCommand()
	if err != nil {
		return err
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	parent, child := os.NewFile(uintptr(fds[0]), "runner"), os.NewFile(uintptr(fds[1]), "runner-child")
	cmd.Env = []string{planEnv + "=" + encodeJSON(p)}
	cmd.ExtraFiles = []*os.File{child}
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = namespaces(true)
	err = cmd.Start()
	child.Close()
	if err != nil {
		parent.Close()
		return err
	}
	r.helper, r.conn, r.waiting, r.dead = cmd, parent, map[uint64]chan runnerReply{}, make(chan struct{})
	go r.read(cmd, parent, r.waiting, r.dead)
	return nil
}

// read delivers the helper's replies until it ends, then fails what
// waits.
func (r *Runner) read(cmd *exec.Cmd, conn *os.File, waiting map[uint64]chan runnerReply, dead chan struct{}) {
	buf := make([]byte, 4096)
	for {
		n, _, _, _, err := unix.Recvmsg(int(conn.Fd()), buf, nil, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			break
		}
		var rep runnerReply
		if json.Unmarshal(buf[:n], &rep) != nil {
			continue
		}
		r.mu.Lock()
		ch := waiting[rep.ID]
		r.mu.Unlock()
		if ch != nil {
			ch <- rep
		}
	}
	r.wmu.Lock()
	r.mu.Lock()
	if r.conn == conn {
		r.conn = nil
	}
	r.mu.Unlock()
	conn.Close()
	r.wmu.Unlock()
	cmd.Wait()
	r.mu.Lock()
	for id, ch := range waiting {
		close(ch)
		delete(waiting, id)
	}
	if r.helper == cmd {
		r.helper, r.busy = nil, 0
	}
	r.mu.Unlock()
	close(dead)
}

// Close ends the helper and every command it runs.
func (r *Runner) Close() { r.stop(false) }

// closeIdle is the idle timer's: it leaves a helper that got a command
// meanwhile.
func (r *Runner) closeIdle() { r.stop(true) }

func (r *Runner) stop(onlyIdle bool) {
	r.mu.Lock()
	helper, dead := r.helper, r.dead
	if onlyIdle && r.busy > 0 {
		r.mu.Unlock()
		return
	}
	if r.idle != nil {
		r.idle.Stop()
	}
	r.mu.Unlock()
	if helper == nil {
		return
	}
	helper.Process.Kill()
	<-dead
}

// Pid is the helper's process id (0 when none runs), for tests.
func (r *Runner) Pid() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.helper == nil || r.helper.Process == nil {
		return 0
	}
	return r.helper.Process.Pid
}

// serveRunner is the helper's side: it starts each command it is sent,
// with the three files that came with it, in a PID namespace of its own,
// and says when it started and how it ended. It ends with its connection,
// killing what still runs.
func serveRunner(conn *os.File) int {
	defer conn.Close() // and so kept from the collector, which would close fd 3
	fd := int(conn.Fd())
	// The commands must not inherit it: with it they could ask for more
	// commands, kill others, or tell Deckhand how others ended.
	unix.CloseOnExec(fd)
	var wmu sync.Mutex
	reply := func(rep runnerReply) {
		data, _ := json.Marshal(rep)
		wmu.Lock()
		defer wmu.Unlock()
		unix.Sendmsg(fd, data, nil, nil, 0)
	}
	var mu sync.Mutex
	running := map[uint64]*os.Process{}
	buf, oob := make([]byte, 1<<20), make([]byte, unix.CmsgSpace(3*4))
	for {
		n, oobn, _, _, err := unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			break
		}
		var files []*os.File
		if msgs, err := unix.ParseSocketControlMessage(oob[:oobn]); err == nil {
			for _, m := range msgs {
				if fds, err := unix.ParseUnixRights(&m); err == nil {
					for _, f := range fds {
						files = append(files, os.NewFile(uintptr(f), "job"))
					}
				}
			}
		}
		var req runnerRequest
		if json.Unmarshal(buf[:n], &req) != nil {
			closeAll(files)
			continue
		}
		if req.Kill {
			mu.Lock()
			if p := running[req.ID]; p != nil {
				p.Kill()
			}
			mu.Unlock()
			continue
		}
		if len(files) != 3 {
			closeAll(files)
			reply(runnerReply{ID: req.ID, Err: "the command came without its input and output"})
			continue
		}
		cmd := exec.Command(req.Path, req.Args...)
		cmd.Args[0] = req.Path
		cmd.Env, cmd.Dir = req.Env, req.Dir
		cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0], files[1], files[2]
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: unix.CLONE_NEWPID, Setsid: true, Pdeathsig: syscall.SIGKILL}
		err = cmd.Start()
		closeAll(files)
		if err != nil {
			reply(runnerReply{ID: req.ID, Err: startError(req.Path, err)})
			continue
		}
		mu.Lock()
		running[req.ID] = cmd.Process
		mu.Unlock()
		reply(runnerReply{ID: req.ID, Started: true})
		go func(id uint64) {
			cmd.Wait()
			mu.Lock()
			delete(running, id)
			mu.Unlock()
			status := uint32(0)
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
				status = uint32(ws)
			}
			reply(runnerReply{ID: id, Done: true, Status: status})
		}(req.ID)
	}
	mu.Lock()
	for _, p := range running {
		p.Kill()
	}
	mu.Unlock()
	return 0
}

func startError(path string, err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: %v", pe.Path, pe.Err)
	}
	return strings.TrimPrefix(err.Error(), "fork/exec ")
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

func evalDir(dir string) (string, error) {
	if dir == "" {
		return "", errors.New("no folder")
	}
	_, real, err := resolve(dir)
	return real, err
}
