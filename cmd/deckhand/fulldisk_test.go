package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"deckhand/testutil"
)

// onFullDisk runs the real binary with its log on a tmpfs of its own (in a
// mount namespace: no root needed) that is full once the log exists.
// script runs after the mount; DIR names the tmpfs.
func onFullDisk(t *testing.T, script string) *exec.Cmd {
	t.Helper()
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare is missing")
	}
	dir := filepath.Join(t.TempDir(), "disk")
	os.MkdirAll(dir, 0o755)
	full := fmt.Sprintf(`set -e
mount -t tmpfs -o size=2m tmpfs %[1]s
DIR=%[1]s
%[2]s`, dir, script)
	return exec.Command("unshare", "--user", "--map-root-user", "--mount", "sh", "-c", full)
}

// A log on a full disk: the terminal says at once that the conversation is
// not being kept, the answer still comes, what waited is written once
// there is room again (said too), and a chat whose log cannot be written
// when it ends says so and fails instead of passing for kept.
func TestFullDisk(t *testing.T) {
	bin := testutil.BuildProgram(t, "./cmd/deckhand")
	runWith := func(answers ...string) string {
		var rs []testutil.ModelResponse
		for _, a := range answers {
			rs = append(rs, testutil.ModelResponse{Body: testutil.TextChunks(a)})
		}
		model := testutil.NewModelServer(t, rs...)
		cfg := writeConfig(t, scriptedConfig(model.URL))
		return fmt.Sprintf("%s --config %s --db $DIR/log.db", bin, cfg)
	}

	t.Run("interactive", func(t *testing.T) {
		run := runWith("first answer", "second answer")
		// The chat opens its log first; the disk fills while it runs.
		cmd := onFullDisk(t, run+" chat; status=$?; echo '--- logs'; "+run+" sessions --json; exit $status\n")
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		var printed testutil.LockedBuffer
		for _, r := range []io.Reader{stdout, stderr} {
			go func() {
				sc := bufio.NewScanner(r)
				for sc.Scan() {
					printed.Write([]byte(sc.Text() + "\n"))
				}
			}()
		}
		waitFor := func(want string) {
			t.Helper()
			testutil.Eventually(t, 30*time.Second, func() bool { return strings.Contains(printed.String(), want) }, "never printed %q:\n%s", want, &printed)
		}
		waitFor("Deckhand")
		filler := fmt.Sprintf("/proc/%d/root%s/fill", cmd.Process.Pid, diskOf(t, cmd))
		if f, err := os.Create(filler); err != nil {
			t.Fatal(err)
		} else {
			zeros := make([]byte, 4096)
			for {
				if _, err := f.Write(zeros); err != nil {
					break
				}
			}
			f.Close()
		}
		fmt.Fprintln(stdin, "hello")
		waitFor("the log cannot be written")
		waitFor("first answer")
		// Room again: remove the filler, seen through the chat's own root.
		if err := os.Remove(filler); err != nil {
			t.Fatalf("freeing the disk: %v", err)
		}
		fmt.Fprintln(stdin, "again")
		waitFor("second answer")
		waitFor("the log is written again")
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("chat ended with %v once the disk had room:\n%s", err, &printed)
		}
		// What waited in memory is in the log: both messages, both answers.
		_, logs, _ := strings.Cut(printed.String(), "--- logs")
		for _, want := range []string{`"title": "hello"`, `"runs": 2`, `"output_tokens": 2`} {
			if !strings.Contains(logs, want) {
				t.Errorf("the log lacks %q:\n%s", want, logs)
			}
		}
	})

	t.Run("one shot", func(t *testing.T) {
		run := runWith("one-shot answer")
		// The log is made first; then the disk is filled to the last byte.
		fill := run + " sessions >/dev/null\n(dd if=/dev/zero of=$DIR/fill bs=4k 2>/dev/null || true)\n"
		cmd := onFullDisk(t, fill+"exec "+run+" chat -p hi\n")
		out, err := cmd.CombinedOutput()
		text := string(out)
		if err == nil || !strings.Contains(text, "one-shot answer") || !strings.Contains(text, "this conversation will NOT be kept") ||
			!strings.Contains(text, "this conversation was NOT kept in the log") {
			t.Errorf("chat -p on a full disk: %v\n%s", err, text)
		}
	})
}

// diskOf finds the tmpfs folder the command mounted, from its command line.
func diskOf(t *testing.T, cmd *exec.Cmd) string {
	for _, a := range cmd.Args {
		if i := strings.Index(a, "mount -t tmpfs -o size=2m tmpfs "); i >= 0 {
			rest := a[i+len("mount -t tmpfs -o size=2m tmpfs "):]
			return strings.Fields(rest)[0]
		}
	}
	t.Fatal("no disk in the command")
	return ""
}
