package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A stdio server runs under a supervisor: Deckhand's own binary, started
// again in a hidden mode (superviseArg), which starts the server and makes
// sure that nothing it started outlives Deckhand. The kernel's parent-death
// signal reaches only a direct child, and a grandchild that ignores EOF and
// SIGTERM, or leaves the process group, would survive; the supervisor is a
// child subreaper, so every orphan of the server becomes its child, and when
// Deckhand dies (it gets SIGTERM from the kernel) or stops the server, it
// kills the server's process group and then every descendant left.
//
// The mode is recognised in an init function, so that any binary that links
// this package (deckhand, a test binary) can supervise.
const superviseArg = "__deckhand-supervise"

func init() {
	if len(os.Args) > 2 && os.Args[1] == superviseArg {
		os.Exit(supervise(os.Args[2:]))
	}
}

// Command returns the command that runs path with args and the environment
// env under the supervisor, confined by spec when it is not nil. Without
// Deckhand's binary, an unconfined command runs plainly, and a confined
// one cannot run.
func Command(path string, args, env []string, spec *Spec) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		if spec != nil {
			return nil, fmt.Errorf("the sandbox needs Deckhand's own binary: %w", err)
		}
		cmd := exec.Command(path, args...)
		cmd.Env = env
		return cmd, nil
	}
	cmd := exec.Command(self, append([]string{superviseArg, path}, args...)...)
	cmd.Env = env
	if spec != nil {
		if err := spec.Check(); err != nil {
			return nil, err
		}
		cmd.Env = append(slices.Clone(env), specEnv+"="+spec.encode())
	}
	return cmd, nil
}

// supervise runs argv and returns its exit code, leaving no descendant.
func supervise(argv []string) int {
	parent := os.Getppid()
	unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0, 0, 0)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if os.Getppid() != parent {
		return 1 // Deckhand died before the signal was armed
	}
	if raw, ok := os.LookupEnv(specEnv); ok {
		os.Unsetenv(specEnv) // the server never sees it
		spec, err := decodeSpec(raw)
		if err == nil {
			err = spec.apply()
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "deckhand sandbox: %v\n", err)
			return 126
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// The server stays in the supervisor's process group: Deckhand's
	// killGroup reaches it, and it dies with the supervisor.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe
		}
		fmt.Fprintf(os.Stderr, "%s: %v\n", filepath.Base(argv[0]), err)
		return 127
	}
	os.Stdin.Close() // the server holds it; Deckhand's closing it must reach the server alone
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case sig := <-sigs:
		cmd.Process.Signal(sig)
		select {
		case err = <-done:
		case <-time.After(2 * time.Second):
			cmd.Process.Kill()
			err = <-done
		}
	}
	killDescendants()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if st, ok := exit.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			// End the same way, so that Deckhand hears "signal: killed"
			// as if there were no supervisor.
			signal.Reset(st.Signal())
			syscall.Kill(os.Getpid(), st.Signal())
			time.Sleep(time.Second)
			return 128 + int(st.Signal())
		}
		return exit.ExitCode()
	}
	if err != nil {
		return 1
	}
	return 0
}

// killDescendants kills every child this process has (orphans of the
// server reparent to it, being a subreaper) until none is left, reaping
// them.
func killDescendants() {
	self := os.Getpid()
	for range 200 {
		kids := childrenOf(self)
		for _, pid := range kids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		for {
			pid, _ := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if pid <= 0 {
				break
			}
		}
		if len(kids) == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 {
			if ppid, _ := strconv.Atoi(f[1]); ppid == pid {
				out = append(out, n)
			}
		}
	}
	return out
}
