package testutil

import (
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
)

// UnprivilegedUser is the account tests run programs as when they run as
// root: root hides many of the sandbox's holes (it may read anything).
const UnprivilegedUser = "deckhand-tester"

var makeUser sync.Once

// Unprivileged returns the name of an unprivileged account to run
// programs as, creating it (with a home folder) when the tests run as
// root; "" when they already run unprivileged (the caller is that user).
func Unprivileged(t testing.TB) string {
	t.Helper()
	if os.Getuid() != 0 {
		return ""
	}
	makeUser.Do(func() {
		if _, err := user.Lookup(UnprivilegedUser); err == nil {
			return
		}
		if out, err := exec.Command("useradd", "--create-home", "--shell", "/bin/bash", UnprivilegedUser).CombinedOutput(); err != nil {
			t.Logf("useradd %s: %v: %s", UnprivilegedUser, err, out)
		}
	})
	if _, err := user.Lookup(UnprivilegedUser); err != nil {
		t.Fatalf("no unprivileged user to run as: %v", err)
	}
	return UnprivilegedUser
}

// AsUnprivileged makes cmd run as the Unprivileged account (when the tests
// run as root) with home as its home folder and runtime as its
// XDG_RUNTIME_DIR, both made its own; its environment is the minimal one
// a login gives, plus extra.
func AsUnprivileged(t testing.TB, cmd *exec.Cmd, home, runtime string, extra ...string) {
	t.Helper()
	name := Unprivileged(t)
	env := []string{"HOME=" + home, "XDG_RUNTIME_DIR=" + runtime, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "TERM=xterm"}
	if name == "" {
		cmd.Env = append(env, extra...)
		return
	}
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	for _, d := range []string{home, runtime} {
		os.Chown(d, uid, gid)
		os.Chmod(d, 0o700)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: false, Groups: []uint32{}}}
	cmd.Env = append(append(env, "USER="+name, "LOGNAME="+name), extra...)
}

// Shared is a folder every account may read and run programs from, for
// binaries an unprivileged account runs (a test's temporary folders are
// its owner's only). Removed when the test ends.
func Shared(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "deckhand-shared-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// CopyExecutable copies the program at src into dir, runnable by anyone.
func CopyExecutable(t testing.TB, src, dir string) string {
	t.Helper()
	dst := filepath.Join(dir, filepath.Base(src))
	CopyProgram(t, src, dst)
	return dst
}

// CopyProgram copies the program at src to dst, a new file runnable by
// anyone (a test binary copied to run as another program).
func CopyProgram(t testing.TB, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}
