package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A descriptor Deckhand inherited without close-on-exec (a launcher's, a
// shell's `exec 7<file`) does not reach a confined program, as a server
// or as a Runner's command: through it the program would read a file
// outside its folders, whatever the mounts and Landlock say.
func TestInheritedDescriptorsClosed(t *testing.T) {
	requireSandbox(t)
	secret := filepath.Join(t.TempDir(), "key")
	os.WriteFile(secret, []byte("hunter2"), 0o600)
	// Opened as a launcher would have left it: without O_CLOEXEC.
	fd, err := syscall.Open(secret, syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	script := "cat <&" + itoa(fd) + " 2>/dev/null; ls /proc/self/fd"
	spec := &Spec{Read: systemDirs, Write: []string{t.TempDir()}}
	out, err := shell(t, spec, "", script)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.Contains(out, "hunter2") {
		t.Errorf("a confined program read the file through inherited descriptor %d:\n%s", fd, out)
	}
	r := NewRunner(spec)
	defer r.Close()
	pr, pw, _ := os.Pipe()
	defer pr.Close()
	if _, err := r.Run(context.Background(), Job{Path: "/bin/sh", Args: []string{"-c", script}, Env: []string{"PATH=/usr/bin:/bin"}, Stdout: pw}); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	data := make([]byte, 4096)
	n, _ := pr.Read(data)
	if strings.Contains(string(data[:n]), "hunter2") {
		t.Errorf("a Runner's command read the file through inherited descriptor %d:\n%s", fd, data[:n])
	}
}

// A confined program and everything it starts hold at most maxTasks
// processes and threads (hard limit: it keeps no capability to raise it;
// the escape probe's process-limit tries).
func TestTaskLimit(t *testing.T) {
	requireSandbox(t)
	if !tasksCountedPerNamespace() {
		t.Skip("before Linux 5.14 the limit would count the person's processes: it is not set")
	}
	out, err := shell(t, &Spec{Read: systemDirs, Write: []string{t.TempDir()}}, "", "grep 'Max processes' /proc/self/limits")
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if f := strings.Fields(out); len(f) < 4 || f[2] != itoa(maxTasks) || f[3] != itoa(maxTasks) {
		t.Errorf("limits inside = %q, want %d processes, soft and hard", out, maxTasks)
	}
}

// The memory file systems a confined program may write (/tmp, /dev/shm)
// are each a tenth of the machine's memory (at least 512 MiB), not the
// half each the kernel gives by default.
func TestTmpfsBounded(t *testing.T) {
	requireSandbox(t)
	out, err := shell(t, &Spec{Read: systemDirs, Write: []string{t.TempDir()}}, "", "stat -f -c '%n %b %S %c' /tmp /dev/shm")
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var si syscall.Sysinfo_t
	syscall.Sysinfo(&si)
	want := max(512<<20, si.Totalram*uint64(si.Unit)/10)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var name string
		var blocks, bsize, inodes uint64
		if _, err := fmt.Sscan(line, &name, &blocks, &bsize, &inodes); err != nil {
			t.Fatalf("stat -f: %q: %v", line, err)
		}
		// The kernel rounds the size up to whole pages.
		if size := blocks * bsize; size > want+uint64(os.Getpagesize()) || inodes > want/8192+1 {
			t.Errorf("%s inside holds %d MiB and %d files, want at most %d MiB and %d", name, size>>20, inodes, want>>20, want/8192)
		}
	}
}
