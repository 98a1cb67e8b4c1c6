package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"deckhand/testutil"
)

const wait = 30 * time.Second

// startLongCall runs the real binary with a call that would take ten minutes,
// on a server that starts a grandchild, and returns once both are running.
func startLongCall(t *testing.T, extra ...string) (cmd *exec.Cmd, exited chan error, pids []int) {
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pids")
	args := append([]string{"-spawn", "-pidfile", pidfile}, extra...)
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	cfg := writeConfig(t, fmt.Sprintf("[mcp.servers.s]\ncommand = %q\nargs = [%s]\nwrite = [%q]\n", stdioServerBin(t), strings.Join(quoted, ", "), dir))
	cmd = exec.Command(bin, "--config", cfg, "mcp", "call", "s.slow", `{"ms": 600000}`)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited = make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	pids = testutil.ReadPIDs(t, pidfile, 2)
	t.Cleanup(func() {
		cmd.Process.Kill()
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return cmd, exited, pids
}

// Interrupting deckhand (Ctrl+C) stops the call and leaves no server process
// behind, grandchildren included.
func TestNoOrphansAfterInterrupt(t *testing.T) {
	cmd, exited, pids := startLongCall(t)
	cmd.Process.Signal(os.Interrupt)
	err := testutil.Receive(t, exited, wait, "deckhand to exit after SIGINT")
	if err == nil {
		t.Errorf("an interrupted call exited 0")
	}
	for _, pid := range pids {
		if !testutil.ProcessGone(pid) {
			t.Errorf("process %d still running after deckhand exited", pid)
		}
	}
}

// Even when deckhand is killed outright, its servers die, and so does a
// grandchild that ignores SIGTERM and EOF and has left the process group.
func TestServersDieWithDeckhand(t *testing.T) {
	for _, stubborn := range []bool{false, true} {
		t.Run(fmt.Sprintf("stubborn=%v", stubborn), func(t *testing.T) {
			var extra []string
			if stubborn {
				extra = []string{"-stubborn"}
			}
			cmd, exited, pids := startLongCall(t, extra...)
			cmd.Process.Kill()
			testutil.Receive(t, exited, wait, "deckhand to die")
			for _, pid := range pids {
				testutil.Eventually(t, wait, func() bool { return testutil.ProcessGone(pid) }, "process %d outlived a killed deckhand", pid)
			}
		})
	}
}

// Stopping normally (Ctrl+C) also ends a stubborn grandchild.
func TestNoStubbornOrphansAfterInterrupt(t *testing.T) {
	cmd, exited, pids := startLongCall(t, "-stubborn")
	cmd.Process.Signal(os.Interrupt)
	testutil.Receive(t, exited, wait, "deckhand to exit after SIGINT")
	for _, pid := range pids {
		testutil.Eventually(t, wait, func() bool { return testutil.ProcessGone(pid) }, "process %d outlived deckhand", pid)
	}
}

// The MCP conformance suite's client scenarios, run against the real binary.
func TestConformance(t *testing.T) {
	p := testutil.RequirePeers(t)
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	for _, scenario := range []string{"initialize", "tools_call", "sse-retry"} {
		t.Run(scenario, func(t *testing.T) {
			cmd := exec.Command(p.Node22, p.Conformance, "client", "--command", bin+" conformance", "--scenario", scenario)
			cmd.Dir = t.TempDir() // the suite writes its results here
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "OVERALL: PASSED") {
				t.Errorf("scenario %s: %v\n%s", scenario, err, out)
			}
		})
	}
}
