package sandbox

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// systemDirs are what every confined program here reads.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc"}

func requireSandbox(t testing.TB) {
	t.Helper()
	if err := Available(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no sandbox under CI: %v", err)
		}
		t.Skip(err)
	}
}

// shell runs script confined by spec and returns its output.
func shell(t *testing.T, spec *Spec, dir, script string) (string, error) {
	t.Helper()
	cmd, err := Command("/bin/sh", []string{"-c", script}, []string{"PATH=/usr/bin:/bin"}, spec)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	err = cmd.Wait()
	return out.String(), err
}

func TestConfinedView(t *testing.T) {
	requireSandbox(t)
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	secret := filepath.Join(root, "secret")
	for _, d := range []string{ws, secret} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(secret, "key"), []byte("hunter2"), 0o600)
	// A socket inside the workspace, as a session's would be: covered.
	sock := filepath.Join(ws, "agent.sock")
	listen(t, sock)
	spec := &Spec{Read: systemDirs, Write: []string{ws}}
	out, err := shell(t, spec, ws, `
echo pid=$$
echo w > `+ws+`/ok && echo wrote-ws
echo w > `+root+`/no 2>/dev/null && echo wrote-outside
cat `+secret+`/key 2>/dev/null && echo read-secret
ls /tmp/.X11-unix 2>/dev/null && echo saw-x11
test -S `+sock+` && echo socket-visible
(echo x > /dev/tty) 2>/dev/null && echo opened-the-terminal
ls /proc | grep -c '^[0-9]'
`)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, bad := range []string{"read-secret", "saw-x11", "socket-visible", "opened-the-terminal"} {
		if strings.Contains(out, bad) {
			t.Errorf("confined program could: %s\n%s", bad, out)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "no")); err == nil {
		t.Errorf("confined program wrote outside its folders")
	}
	for _, good := range []string{"pid=1", "wrote-ws"} {
		if !strings.Contains(out, good) {
			t.Errorf("confined program lacks %s:\n%s", good, out)
		}
	}
}

func TestNoNetwork(t *testing.T) {
	requireSandbox(t)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	out, err := shell(t, &Spec{Read: systemDirs, Write: []string{t.TempDir()}}, "",
		`cat /proc/net/dev | grep -c ':' ; echo > /dev/tcp/127.0.0.1/`+itoa(port)+` 2>/dev/null && echo connected; true`)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.Contains(out, "connected") {
		t.Errorf("reached the host's loopback with no network:\n%s", out)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestRunner(t *testing.T) {
	requireSandbox(t)
	ws := t.TempDir()
	r := NewRunner(&Spec{Read: systemDirs, Write: []string{ws}})
	defer r.Close()
	for i := range 3 {
		pr, pw, _ := os.Pipe()
		st, err := r.Run(t.Context(), Job{Path: "/bin/sh", Args: []string{"-c", "echo hi $$; exit 3"}, Dir: ws, Env: []string{"PATH=/bin"}, Stdout: pw, Stderr: pw})
		pw.Close()
		out, _ := readAll(pr)
		if err != nil || st.ExitStatus() != 3 || strings.TrimSpace(out) != "hi 1" {
			t.Fatalf("run %d = %v, %v, %q", i, st, err, out)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	st, err := r.Run(ctx, Job{Path: "/bin/sh", Args: []string{"-c", "sleep 100 & sleep 100"}, Dir: ws})
	if !errors.Is(err, context.DeadlineExceeded) || !st.Signaled() || st.Signal() != syscall.SIGKILL {
		t.Fatalf("cancelled run = %v, %v", st, err)
	}
}

// A Runner's command inherits only its three files: not the runner's
// socket, through which it could ask for more commands, kill others or
// forge how they ended.
func TestRunnerFiles(t *testing.T) {
	requireSandbox(t)
	ws := t.TempDir()
	r := NewRunner(&Spec{Read: systemDirs, Write: []string{ws}})
	defer r.Close()
	pr, pw, _ := os.Pipe()
	st, err := r.Run(t.Context(), Job{Path: "/bin/sh", Args: []string{"-c", "ls -l /proc/self/fd"}, Dir: ws, Env: []string{"PATH=/usr/bin:/bin"}, Stdout: pw, Stderr: pw})
	pw.Close()
	out, _ := readAll(pr)
	if err != nil || st != 0 {
		t.Fatalf("ls = %v, %v: %s", st, err, out)
	}
	if !strings.Contains(out, "pipe:") {
		t.Fatalf("the listing shows no pipe (its own output), so it shows nothing:\n%s", out)
	}
	if strings.Contains(out, "socket:") {
		t.Errorf("a command inherited a socket:\n%s", out)
	}
}

func readAll(f *os.File) (string, error) {
	defer f.Close()
	var b bytes.Buffer
	_, err := b.ReadFrom(f)
	return b.String(), err
}

// A hidden place inside a folder the program may write stays where it is:
// the folders above it cannot be renamed (which would move the hiding
// mount with them and let the program put a folder of its own where
// Deckhand looks for its log or config), while other folders can.
func TestHiddenPlaceCannotBeMoved(t *testing.T) {
	requireSandbox(t)
	root := t.TempDir()
	hidden := filepath.Join(root, ".local", "share", "deckhand")
	other := filepath.Join(root, "notes")
	for _, d := range []string{hidden, other} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(hidden, "deckhand.db"), []byte("the log"), 0o600)
	spec := &Spec{Read: systemDirs, Write: []string{root}, Hide: []string{hidden}}
	out, err := shell(t, spec, root, `
cat `+hidden+`/deckhand.db 2>/dev/null && echo read-hidden
mv `+root+`/.local `+root+`/.local-moved 2>/dev/null && echo moved-local
mv `+root+`/.local/share `+root+`/.local/share-moved 2>/dev/null && echo moved-share
mv `+hidden+` `+root+`/.local/share/moved 2>/dev/null && echo moved-hidden
mv `+other+` `+root+`/notes-moved && echo moved-other
`)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, bad := range []string{"read-hidden", "moved-local", "moved-share", "moved-hidden"} {
		if strings.Contains(out, bad) {
			t.Errorf("confined program could: %s\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "moved-other") {
		t.Errorf("a folder with nothing hidden inside could not be renamed (the test shows nothing):\n%s", out)
	}
	if data, err := os.ReadFile(filepath.Join(hidden, "deckhand.db")); err != nil || string(data) != "the log" {
		t.Errorf("the hidden file after the run: %q, %v", data, err)
	}
}

// A protected place inside a write folder (a repository's hooks and
// config) can be read but not written, created in, replaced, renamed or
// removed, nor moved aside with the folder that holds it; the rest of the
// repository stays writable (a commit writes objects, the index, refs).
func TestProtectedPlace(t *testing.T) {
	requireSandbox(t)
	root := t.TempDir()
	git := filepath.Join(root, "repo", ".git")
	os.MkdirAll(filepath.Join(git, "hooks"), 0o755)
	os.MkdirAll(filepath.Join(git, "objects"), 0o755)
	os.WriteFile(filepath.Join(git, "config"), []byte("[core]\n"), 0o644)
	spec := &Spec{Read: systemDirs, Write: []string{root}, Protect: []string{filepath.Join(git, "hooks"), filepath.Join(git, "config"), filepath.Join(root, "missing", ".git", "config")}}
	out, err := shell(t, spec, root, `
cd repo
cat .git/config >/dev/null && echo read-config
echo x > .git/hooks/post-checkout 2>/dev/null && echo wrote-hook
echo x >> .git/config 2>/dev/null && echo wrote-config
echo x > .git/config.new && mv .git/config.new .git/config 2>/dev/null && echo replaced-config
rm -rf .git/hooks 2>/dev/null; test -d .git/hooks || echo removed-hooks
mv .git .git-moved 2>/dev/null && echo moved-git
mv ../repo ../repo-moved 2>/dev/null && echo moved-repo
echo x > .git/objects/x && echo wrote-object
`)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, bad := range []string{"wrote-hook", "wrote-config", "replaced-config", "removed-hooks", "moved-git", "moved-repo"} {
		if strings.Contains(out, bad) {
			t.Errorf("confined program could: %s\n%s", bad, out)
		}
	}
	for _, good := range []string{"read-config", "wrote-object"} {
		if !strings.Contains(out, good) {
			t.Errorf("confined program lacks %s:\n%s", good, out)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(git, "config")); string(data) != "[core]\n" {
		t.Errorf(".git/config after the run: %q", data)
	}
}

// listen serves a unix socket at path that answers "reached", until the
// test ends.
func listen(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("reached"))
			c.Close()
		}
	}()
}

// A folder granted whole that holds the session's runtime folder (hidden,
// an empty one in its place) with live sockets in it, such as
// gnome-keyring's control socket and the bus, and other sockets beside it
// (an agent's, covered): the program starts, sees the rest of the folder,
// and none of the sockets. The runtime folder named exactly is shown,
// its sockets covered; a folder granted inside the hidden one is shown,
// its sockets covered too. New-user pass 12 met the first as "cover
// …/keyring/control: no such file or directory" at every start.
func TestWideGrantHoldingTheRuntimeFolder(t *testing.T) {
	requireSandbox(t)
	root := t.TempDir()
	rt := filepath.Join(root, "run")
	control := filepath.Join(rt, "keyring", "control")
	bus := filepath.Join(rt, "bus")
	agent := filepath.Join(root, "ssh-x", "agent.1")
	for _, s := range []string{control, bus, agent} {
		listen(t, s)
	}
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("notes"), 0o644)
	os.WriteFile(filepath.Join(rt, "keyring", "note"), []byte("kept"), 0o644)
	probe := `
cat ` + root + `/notes.txt >/dev/null && echo read-notes
for s in ` + control + ` ` + bus + ` ` + agent + `; do test -S $s && echo socket-visible $s; done
ls ` + rt + ` | grep -q . && echo runtime-listed
cat ` + rt + `/keyring/note 2>/dev/null && echo read-keyring-note
true`
	tests := []struct {
		name      string
		spec      *Spec
		want, bad []string
	}{
		{"the parent", &Spec{Read: append(slices.Clone(systemDirs), root), Hide: []string{rt}},
			[]string{"read-notes"}, []string{"socket-visible", "runtime-listed", "read-keyring-note"}},
		{"the parent, writable", &Spec{Read: systemDirs, Write: []string{root}, Hide: []string{rt}},
			[]string{"read-notes"}, []string{"socket-visible", "runtime-listed", "read-keyring-note"}},
		{"the runtime folder itself", &Spec{Read: append(slices.Clone(systemDirs), root, rt)},
			[]string{"read-notes", "runtime-listed", "kept"}, []string{"socket-visible"}},
		{"a socket inside the hidden one, named in write", &Spec{Read: append(slices.Clone(systemDirs), root), Write: []string{bus}, Hide: []string{rt}},
			[]string{"read-notes"}, []string{"socket-visible", "read-keyring-note"}},
		{"a folder inside the hidden one", &Spec{Read: append(slices.Clone(systemDirs), root), Write: []string{filepath.Join(rt, "keyring")}, Hide: []string{rt}},
			[]string{"read-notes", "kept"}, []string{"socket-visible"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := shell(t, tc.spec, root, probe)
			if err != nil {
				t.Fatalf("the program did not run: %v: %s", err, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the confined program lacks %s:\n%s", w, out)
				}
			}
			for _, b := range tc.bad {
				if strings.Contains(out, b) {
					t.Errorf("the confined program could: %s\n%s", b, out)
				}
			}
		})
	}
}

// Where the helper cannot hide a place inside a granted folder, the
// program does not run, and Deckhand learns why from the helper itself
// (BuildFailure), saying which place inside which folder and what to do;
// a program that ends the way the helper does, with its words on stderr,
// is not taken for it.
func TestBuildFailure(t *testing.T) {
	requireSandbox(t)
	root := t.TempDir()
	notes := filepath.Join(root, "notes.txt")
	os.WriteFile(notes, []byte("notes"), 0o644)
	spec := &Spec{Read: append(slices.Clone(systemDirs), root)}
	run := func(script string, breakPlan func(*plan)) (*Cmd, string, error) {
		cmd, err := Command("/bin/sh", []string{"-c", script}, []string{"PATH=/usr/bin:/bin"}, spec)
		if err != nil {
			t.Fatal(err)
		}
		cmd.breakPlan = breakPlan
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		return cmd, out.String(), err
	}
	// A place under a file: there is nothing to mount on, and no way
	// to hide it.
	bad := filepath.Join(notes, "sock")
	cmd, out, err := run("echo ran", func(p *plan) { p.Mounts = append(p.Mounts, mountEntry{Path: bad, Kind: mountCover}) })
	if err == nil || strings.Contains(out, "ran") {
		t.Fatalf("the program ran (%v): %s", err, out)
	}
	var be *BuildError
	if !errors.As(cmd.BuildFailure(), &be) {
		t.Fatalf("BuildFailure() = %v, want a *BuildError (stderr %q)", cmd.BuildFailure(), out)
	}
	for _, want := range []string{"could not hide " + bad + " inside " + root + ", a folder granted to read", "grant a narrower folder"} {
		if !strings.Contains(be.Error(), want) {
			t.Errorf("BuildFailure() = %q, want it to say %q", be.Error(), want)
		}
	}
	if out != "" {
		t.Errorf("the helper's failure also went to stderr: %q", out)
	}

	cmd, out, err = run("echo 'deckhand sandbox: could not hide /x inside /' >&2; exit 126", nil)
	if err == nil || !strings.Contains(out, "deckhand sandbox") {
		t.Fatalf("the program did not run (%v): %s", err, out)
	}
	if f := cmd.BuildFailure(); f != nil {
		t.Errorf("a program's own exit 126 with the helper's words: BuildFailure() = %v, want nil", f)
	}
}

// A folder the program may read that is a symbolic link a program planted
// (in a folder it could write, on an earlier run) to a hidden place, such
// as a version manager's ~/.cargo/bin, which every server reads, made a
// link to ~/.ssh by a server granted ~/.cargo: the hidden place stays
// hidden on the next run, through the link and by its own path. Only a
// grant that names the hidden place itself (or its real path) shows it.
// The plan showed it: it left out a hidden place that a bind named
// exactly, and the link's target was bound by its real path (real pass:
// a server with write = ["~/.cargo"] read ~/.ssh/id_ed25519, 399 bytes).
func TestHiddenPlaceBehindAPlantedLink(t *testing.T) {
	requireSandbox(t)
	root := t.TempDir()
	secret := filepath.Join(root, ".ssh")
	cargo := filepath.Join(root, ".cargo")
	for _, d := range []string{secret, filepath.Join(cargo, "bin")} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(secret, "id_ed25519"), []byte("the key"), 0o600)
	bin := filepath.Join(cargo, "bin")
	spec := &Spec{Read: append(slices.Clone(systemDirs), bin), Write: []string{cargo}, Hide: []string{secret}}
	// The first run plants the link.
	out, err := shell(t, spec, cargo, `mv bin bin.old && ln -s `+secret+` bin && echo planted`)
	if err != nil || !strings.Contains(out, "planted") {
		t.Fatalf("the first run could not plant the link (the test shows nothing): %v: %s", err, out)
	}
	// The next run: the link is among what it reads.
	out, err = shell(t, spec, cargo, `cat `+bin+`/id_ed25519 2>/dev/null && echo read-through-link; cat `+secret+`/id_ed25519 2>/dev/null && echo read-by-path; echo ran`)
	if err != nil || !strings.Contains(out, "ran") {
		t.Fatalf("the second run failed: %v: %s", err, out)
	}
	for _, bad := range []string{"the key", "read-through-link", "read-by-path"} {
		if strings.Contains(out, bad) {
			t.Errorf("confined program reached the hidden place behind the link it planted (%s):\n%s", bad, out)
		}
	}
	// Named exactly, it is shown.
	s := &Spec{Read: append(slices.Clone(systemDirs), secret), Hide: []string{secret}}
	out, err = shell(t, s, "/", `cat `+secret+`/id_ed25519`)
	if err != nil || !strings.Contains(out, "the key") {
		t.Errorf("a hidden place named exactly is not shown: %v: %s", err, out)
	}
}

// selfReplaceEnv, in TestHelperIsTheRunningBinary's child, is the folder
// its copy of the test binary runs from.
const selfReplaceEnv = "DECKHAND_TEST_SELF_REPLACE"

// Deckhand's own binary is out of a confined program's reach, and the
// helper that builds each sandbox is the binary Deckhand runs, not
// whatever is at its path now. A confined program that may write the
// folder Deckhand's binary is in (~/.local/bin/deckhand, ~/go/bin, under
// a server granted write = ["~"]) can neither remove, rename nor write
// it, nor the deckhand-* programs beside it (deckhand-view, which the
// window runs with the display); and replaced all the same (from outside), the next sandbox Deckhand
// builds (a server started, the built-in shell's runner) does not start
// what was put there. The test runs a copy of its binary as "Deckhand",
// from a folder the confined program may write. Before, the confined
// program replaced it, and both sandboxes started the planted program,
// unconfined (os.Executable names the path, and drops " (deleted)").
func TestHelperIsTheRunningBinary(t *testing.T) {
	requireSandbox(t)
	if dir := os.Getenv(selfReplaceEnv); dir != "" {
		spec := &Spec{Read: systemDirs, Write: []string{dir}}
		plant := `rm -f deckhand && printf '#!/bin/sh\necho planted >> ` + dir + `/ran\n' > deckhand && chmod 755 deckhand && echo replaced`
		out, err := shell(t, spec, dir, `(`+plant+`) 2>/dev/null; mv deckhand deckhand.old 2>/dev/null && echo moved; echo x >> deckhand 2>/dev/null && echo wrote; (rm -f deckhand-view && echo x > deckhand-view) 2>/dev/null && echo replaced-helper; echo tried`)
		if err != nil || !strings.Contains(out, "tried") {
			t.Fatalf("the confined program failed: %v: %s", err, out)
		}
		for _, bad := range []string{"replaced", "moved", "wrote", "replaced-helper"} {
			if strings.Contains(out, bad) {
				t.Errorf("a confined program %s Deckhand's binary: %s", bad, out)
			}
		}
		// Replaced all the same (by a program of the person's, unconfined),
		// the next sandbox is built by the binary that runs.
		if out, err := exec.Command("/bin/sh", "-c", plant).CombinedOutput(); err != nil || !strings.Contains(string(out), "replaced") {
			t.Fatalf("the binary could not be replaced from outside (the test shows nothing): %v: %s", err, out)
		}
		out, err = shell(t, spec, dir, `echo confined-ran`)
		if err != nil || !strings.Contains(out, "confined-ran") {
			t.Errorf("the next sandbox did not run its program: %v: %q", err, out)
		}
		r := NewRunner(spec)
		defer r.Close()
		var buf bytes.Buffer
		pr, pw, _ := os.Pipe()
		done := make(chan struct{})
		go func() { buf.ReadFrom(pr); close(done) }()
		_, err = r.Run(context.Background(), Job{Path: "/bin/sh", Args: []string{"-c", "echo runner-ran"}, Stdout: pw, Dir: dir})
		pw.Close()
		<-done
		if err != nil || !strings.Contains(buf.String(), "runner-ran") {
			t.Errorf("the runner did not run its command: %v: %q", err, buf.String())
		}
		return
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(dir, "deckhand")
	if err := os.WriteFile(copyPath, data, 0o755); err != nil {
		t.Fatal(err)
	}
	// The window's view helper beside it.
	os.WriteFile(filepath.Join(dir, "deckhand-view"), []byte("#!/bin/sh\n"), 0o755)
	cmd := exec.Command(copyPath, "-test.run=^TestHelperIsTheRunningBinary$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), selfReplaceEnv+"="+dir)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("the copy as Deckhand: %v\n%s", err, out)
	}
	if ran, err := os.ReadFile(filepath.Join(dir, "ran")); err == nil {
		t.Errorf("Deckhand ran the program planted where its binary was, unconfined (%d time(s)):\n%s", strings.Count(string(ran), "planted"), out)
	}
}
