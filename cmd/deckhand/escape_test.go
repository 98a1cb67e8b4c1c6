package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"deckhand/sandbox"
	"deckhand/testutil"
	"deckhand/testutil/escape/places"
)

// sessionTools are what a real desktop session needs here.
var sessionTools = []string{"git", "Xvfb", "dbus-run-session", "dbus-send", "gnome-keyring-daemon", "ssh-agent", "ssh-keygen", "ssh-add", "script", "keyctl"}

// sessionKey is the secret of the kernel session keyring's key
// "deckhand-test", as a desktop login's keyring holds keys; sessionToken,
// of the session's variable DECKHAND_TEST_TOKEN, as a person exports one
// in a shell's start-up file.
const (
	sessionKey   = "deckhand-kernel-keyring-secret"
	sessionToken = "deckhand-session-token-secret"
)

// persistCheck is a shell line that says in which of places.Persist the
// host finds token, left by who, and removes it for the next: a file
// named by the token goes, a line holding it is deleted.
func persistCheck(token, who string) string {
	var files []string
	for _, p := range places.Persist {
		if strings.Contains(p, "%s") {
			p = fmt.Sprintf(p, token)
		}
		if !filepath.IsAbs(p) {
			p = "$HOME/" + p
		}
		files = append(files, `"`+p+`"`)
	}
	return fmt.Sprintf(`f=$(grep -lF %[1]s %[2]s 2>/dev/null | tr '\n' ' '); if [ -n "$f" ]; then echo "host sees what %[3]s persisted: $f"; for x in $f; do case "$x" in *%[1]s*) rm -f "$x";; *) sed -i "/%[1]s/d" "$x";; esac; done; fi`,
		token, strings.Join(files, " "), who)
}

// plantedCheck is a shell line that says whether the session sees a key
// "deckhand-planted" that who planted in its session keyring, and
// removes it for the next.
func plantedCheck(who string) string {
	return fmt.Sprintf(`k=$(keyctl search @s user deckhand-planted 2>/dev/null) && { echo "host sees a key planted by %s"; keyctl unlink "$k" @s >/dev/null; }`, who)
}

// escapeSession is a desktop session as a person has one, run as an
// unprivileged account: an X display, a session bus with an unlocked
// gnome-keyring holding Deckhand's API key, an ssh-agent holding a key, a
// terminal (a pty), host listeners for TCP and UDP, and secrets in the
// home folder; a token in its environment (DECKHAND_TEST_TOKEN), and the
// ssh key open on descriptor 7 of everything it starts, as a launcher or
// a terminal may leak one. run runs a shell line in it and returns what it printed.
type escapeSession struct {
	t             *testing.T
	home, runtime string
	shared        string
	bin, escape   string
	tcp, udp      string
	display       int
}

func newEscapeSession(t *testing.T) *escapeSession {
	t.Helper()
	for _, tool := range sessionTools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing under CI (make test installs it)", tool)
			}
			t.Skipf("%s is missing (make test installs it)", tool)
		}
	}
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	s := &escapeSession{t: t, shared: testutil.Shared(t)}
	s.bin = testutil.CopyExecutable(t, testutil.BuildProgram(t, "./cmd/deckhand"), s.shared)
	s.escape = testutil.CopyExecutable(t, testutil.BuildProgram(t, "./testutil/escape"), s.shared)
	var err error
	if s.home, err = os.MkdirTemp("", "deckhand-user-home-"); err != nil {
		t.Fatal(err)
	}
	if s.runtime, err = os.MkdirTemp("", "deckhand-user-runtime-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(s.home); os.RemoveAll(s.runtime) })
	// Listeners on the host's loopback that a server without the network
	// must not reach.
	tl, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tl.Close() })
	go func() {
		for {
			c, err := tl.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	ul, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ul.Close() })
	go func() {
		b := make([]byte, 64)
		for {
			_, from, err := ul.ReadFrom(b)
			if err != nil {
				return
			}
			ul.WriteTo([]byte("ack"), from)
		}
	}()
	s.tcp, s.udp = tl.Addr().String(), ul.LocalAddr().String()
	for s.display = 100 + rand.IntN(800); ; s.display++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", s.display)); err != nil {
			break
		}
	}
	return s
}

// writeHome writes a file in the account's home folder.
func (s *escapeSession) writeHome(rel, content string) {
	p := filepath.Join(s.home, rel)
	os.MkdirAll(filepath.Dir(p), 0o700)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		s.t.Fatal(err)
	}
}

// run runs script inside the session and returns what it printed on
// stdout (its lines in order, with what the commands it runs under script
// print to their terminal) and on stderr, where the session's daemons
// write too, when they like: dbus-daemon and the services it starts. The
// keyring owns its name on the bus before anything asks for it: asked
// before (keyring-set, as soon as gnome-keyring-daemon --unlock had
// printed its address), the bus started a second gnome-keyring (D-Bus
// activation; 9 sessions in 30), whose "discover_other_daemon: 1", with
// no line break, landed anywhere in the output: before "=== control",
// and TestEscapes found no report from control.
func (s *escapeSession) run(script string) (stdout, stderr string) {
	s.t.Helper()
	full := fmt.Sprintf(`set -u
cd "$HOME"
export DISPLAY=:%[1]d
Xvfb :%[1]d -nolisten tcp -screen 0 800x600x24 >/dev/null 2>&1 &
XVFB=$!
for i in $(seq 50); do [ -S /tmp/.X11-unix/X%[1]d ] && break; sleep 0.1; done
keyctl session - dbus-run-session -- bash -c '
set -u
keyctl add user deckhand-test %[4]s @s >/dev/null
eval "$(printf pw | gnome-keyring-daemon --unlock --components=secrets)" >/dev/null
for i in $(seq 100); do dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true" && break; sleep 0.1; done
eval "$(ssh-agent -s)" >/dev/null
mkdir -p ~/.ssh && ssh-keygen -q -t ed25519 -N "" -f ~/.ssh/id_ed25519 && ssh-add -q ~/.ssh/id_ed25519 2>/dev/null
exec 7<~/.ssh/id_ed25519
export DECKHAND_TEST_TOKEN=%[5]s
%[2]s keyring-set deckhand http://model.test/v1 sk-the-model-key
%[3]s
kill $SSH_AGENT_PID 2>/dev/null
'
kill $XVFB 2>/dev/null
`, s.display, s.escape, strings.ReplaceAll(script, "'", `'"'"'`), sessionKey, sessionToken)
	cmd := exec.Command("bash", "-c", full)
	// A PATH entry the account cannot open (another user's folder) must
	// not stop its servers.
	locked := filepath.Join(s.shared, "locked")
	os.Mkdir(locked, 0o700)
	testutil.AsUnprivileged(s.t, cmd, s.home, s.runtime, "PATH="+locked+":/usr/local/bin:/usr/bin:/bin")
	// The home folder's files are the account's own.
	if testutil.Unprivileged(s.t) != "" {
		exec.Command("chown", "-R", testutil.UnprivilegedUser+":", s.home).Run()
	}
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		s.t.Logf("session ended with %v", err)
	}
	return out.String(), errs.String()
}

type findings map[string]struct {
	Escaped bool   `json:"escaped"`
	Detail  string `json:"detail"`
}

// reports reads the JSON reports printed after each "=== NAME" line.
func reports(t *testing.T, out string) map[string]findings {
	t.Helper()
	all := map[string]findings{}
	name := ""
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var text strings.Builder
	flush := func() {
		if name == "" {
			return
		}
		// The first JSON object that holds the report: decoded from its
		// opening brace, whatever follows it.
		if loc := regexp.MustCompile(`\{\s*"abstract-sockets"`).FindStringIndex(text.String()); loc != nil {
			var f findings
			if err := json.NewDecoder(strings.NewReader(text.String()[loc[0]:])).Decode(&f); err != nil {
				t.Errorf("%s: %v in %s", name, err, text.String()[loc[0]:])
			}
			all[name] = f
		}
		text.Reset()
	}
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if n, ok := strings.CutPrefix(line, "=== "); ok {
			flush()
			name = n
			continue
		}
		text.WriteString(line + "\n")
	}
	flush()
	return all
}

// Every escape found on a real desktop session, tried by a hostile server
// in one run as an unprivileged account: confined with Deckhand's
// defaults (network on), with network = false, and as a command of the
// built-in shell. None gets out: not to the display that shows the
// approval dialog, the session bus and the keyring behind it, the
// ssh-agent, any other socket of the session, the host's network over any
// protocol (MPTCP included), the terminal, the home folder's keys and
// Deckhand's own data, or Deckhand's process. The positive controls run
// the same probes unconfined (directly, under a pty; and as a server with
// sandbox = "off") and must each get out, or the test proves nothing.
// The kernel's keyring too: no confined program reads the key of the
// session keyring, plants one the session sees, or has the host's key
// helper resolve a name (request_key); io_uring, userfaultfd and perf
// events are closed to it. Nor does it read the key through the
// descriptor the session leaked to everything it starts, find the
// session's variables or token in any environment, read or write outside
// through a link it plants, build a user namespace, trace, read or signal
// another process, type into a terminal, have room for a fork bomb or
// memory file systems or SysV shared memory to fill the machine's memory
// with, or
// leave a file where the person's session would run it or Deckhand read
// it (start-up files, autostart, user services, Deckhand's config and
// data, /tmp and /dev/shm, the package caches npx and uvx run from, the
// hooks and config of the repositories in the workspace).
func TestEscapes(t *testing.T) {
	s := newEscapeSession(t)
	s.writeHome(".aws/credentials", "[default]\naws_secret_access_key = AKIASECRET\n")
	s.writeHome(".local/state/deckhand/deckhand.db", "the log")
	s.writeHome(".bashrc", "# the person's\n")
	s.writeHome(".profile", "# the person's\n")
	// The package caches of a person who has run npx and uvx.
	for _, d := range []string{".npm/_npx", ".cache/uv", ".local/share/uv", ".cache/pip"} {
		os.MkdirAll(filepath.Join(s.home, d), 0o755)
	}
	token := fmt.Sprintf("deckhand-escape-%d", rand.Int64())
	// The shell runs what is in the workspace; the workspace is a
	// repository, and holds another.
	os.MkdirAll(filepath.Join(s.home, "Deckhand", "project"), 0o755)
	testutil.CopyExecutable(t, s.escape, filepath.Join(s.home, "Deckhand"))
	for _, repo := range []string{"Deckhand", "Deckhand/project"} {
		if out, err := exec.Command("git", "init", "-q", filepath.Join(s.home, repo)).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
	}
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "local__shell",
			Arguments: fmt.Sprintf(`{"command":%q}`, fmt.Sprintf("./escape probe --tcp %s --udp %s --persist %s", s.tcp, s.udp, token))})},
		testutil.ModelResponse{Body: testutil.TextChunks("done")},
	)
	// A service on every address of this machine, and the names that
	// lead to it: a server whose list names them must not reach it
	// through the proxy (only an entry naming the address would open it).
	self, err := net.Listen("tcp4", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { self.Close() })
	go func() {
		for {
			c, err := self.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	selfPort := self.Addr().(*net.TCPAddr).Port
	selfNames := []string{"localhost"}
	if h, err := os.Hostname(); err == nil && h != "localhost" {
		if _, err := net.LookupHost(h); err == nil {
			selfNames = append(selfNames, h) // loopback, or this machine's LAN address
		}
	}
	var selfTargets []string
	for _, n := range selfNames {
		selfTargets = append(selfTargets, net.JoinHostPort(n, fmt.Sprint(selfPort)))
	}
	selfArg := strings.Join(selfTargets, ",")
	selfList, _ := json.Marshal(selfNames)
	s.writeHome(".config/deckhand/config.toml", fmt.Sprintf(`
[mcp.servers.listed]
command = %[1]q
args = ["serve"]
network = %[2]s
`, s.escape, selfList)+fmt.Sprintf(`
[model]
base_url = %[1]q
name = "scripted"

[mcp.servers.hostile]
command = %[2]q
args = ["serve"]

[mcp.servers.offline]
command = %[2]q
args = ["serve"]
network = false

[mcp.servers.loose]
command = %[2]q
args = ["serve"]
sandbox = "off"

[policy]
allow_exec = true # the built-in shell is offered only with it

[tools]
enabled = true
`, model.URL, s.escape))
	callScript := filepath.Join(s.shared, "call.sh")
	os.WriteFile(callScript, []byte(fmt.Sprintf("#!/bin/sh\nexec %s mcp call \"$1\" '{\"tcp\":\"%s\",\"udp\":\"%s\",\"self\":\"%s\",\"persist\":\"%s\"}'\n", s.bin, s.tcp, s.udp, selfArg, token)), 0o755)
	call := func(alias string) string {
		return fmt.Sprintf("echo '=== %s'; script -qec '%s %s.escape' /dev/null; %s; %s", alias, callScript, alias, plantedCheck(alias), persistCheck(token, alias))
	}
	out, errs := s.run(strings.Join([]string{
		fmt.Sprintf("echo '=== control'; script -qec '%s probe --tcp %s --udp %s --self %s --persist %s' /dev/null; %s; %s", s.escape, s.tcp, s.udp, selfArg, token, plantedCheck("control"), persistCheck(token, "control")),
		call("loose"), call("hostile"), call("offline"), call("listed"),
		fmt.Sprintf("echo '=== shell'; script -qec '%s chat -p go --approve=auto' /dev/null; %s; %s", s.bin, plantedCheck("shell"), persistCheck(token, "shell")),
	}, "\n"))
	got := reports(t, out)
	t.Logf("session output:\n%s\nits stderr:\n%s", out, errs)

	// The controls: each probe works where nothing confines it.
	mustEscape := map[string][]string{
		"control": {"x11", "session-bus", "ssh-agent", "sockets", "tcp", "mptcp", "udp", "tty", "files", "keyring", "request-key", "proxy-self",
			"inherited-fds", "environment", "links", "ptrace", "proc-mem", "signals", "process-limit"},
		"loose": {"x11", "session-bus", "ssh-agent", "sockets", "tcp", "mptcp", "udp", "files", "processes", "keyring", "request-key", "proxy-self",
			"inherited-fds", "links", "ptrace", "proc-mem", "signals", "process-limit"},
	}
	// The kernel interfaces the filter denies: the kernel's own settings
	// may deny them too (kernel.io_uring_disabled, perf_event_paranoid,
	// dev.tty.legacy_tiocsti, user namespaces), and then the probe shows
	// nothing here; so with memory file systems and SysV shared memory the
	// machine keeps small.
	for _, p := range []string{"io_uring", "userfaultfd", "perf-event", "tiocsti", "userns", "tmpfs-memory", "sysv-shm"} {
		if f, ok := got["control"]; ok && !f[p].Escaped {
			t.Logf("this kernel refuses %s to anyone (%s): its probe proves nothing here", p, f[p].Detail)
		}
	}
	// The kernel keyring: the controls plant a key the session sees; no
	// confined program does.
	for _, name := range []string{"control", "loose"} {
		if !strings.Contains(out, "host sees a key planted by "+name) {
			t.Errorf("control %s: the session does not see the key it planted (%s), so the test shows nothing", name, got[name]["keyring-plant"].Detail)
		}
	}
	for _, name := range []string{"hostile", "offline", "shell", "listed"} {
		if strings.Contains(out, "host sees a key planted by "+name) {
			t.Errorf("%s planted a key in the person's session keyring: %s", name, got[name]["keyring-plant"].Detail)
		}
	}
	// What persists: the controls leave the token where the person's
	// session runs it or Deckhand reads it; no confined program does.
	for _, name := range []string{"control", "loose"} {
		if !strings.Contains(out, "host sees what "+name+" persisted") {
			t.Errorf("control %s: the host finds nothing it persisted (%s), so the test shows nothing", name, got[name]["persist"].Detail)
		}
	}
	for _, name := range []string{"hostile", "offline", "shell", "listed"} {
		if _, line, ok := strings.Cut(out, "host sees what "+name+" persisted: "); ok {
			line, _, _ = strings.Cut(line, "\n")
			t.Errorf("%s left something where the person's session runs it or Deckhand reads it: %s", name, line)
		}
	}
	if strings.Contains(out+errs, sessionKey) {
		t.Errorf("the session keyring's secret was printed")
	}
	if strings.Contains(out+errs, sessionToken) {
		t.Errorf("the session's token was printed")
	}
	// A listed name that leads to this machine: the proxy refused it,
	// saying where it led.
	if d := got["listed"]["proxy-self"].Detail; !strings.Contains(d, "403") || !strings.Contains(d, "this machine's") {
		t.Errorf("listed: the proxy's refusal of %s does not say where the name led: %s", selfArg, d)
	}
	for name, probes := range mustEscape {
		f, ok := got[name]
		if !ok {
			t.Errorf("no report from %s", name)
			continue
		}
		for _, p := range probes {
			if !f[p].Escaped {
				t.Errorf("control %s: the %s probe did not get out unconfined (%s), so the test shows nothing", name, p, f[p].Detail)
			}
		}
		if name == "control" && !strings.Contains(f["session-bus"].Detail, "read 1 secret") {
			t.Errorf("control: the keyring probe did not read Deckhand's key: %s", f["session-bus"].Detail)
		}
	}
	// Confined: nothing gets out. With the network on, the network is
	// allowed by the config, so those probes do not count.
	for _, name := range []string{"hostile", "offline", "shell", "listed"} {
		f, ok := got[name]
		if !ok {
			t.Errorf("no report from %s", name)
			continue
		}
		for probe, r := range f {
			allowed := name == "hostile" && (probe == "tcp" || probe == "mptcp" || probe == "udp" || probe == "mptcp-listen" || probe == "proxy-self")
			if r.Escaped && !allowed {
				t.Errorf("%s got out through %s: %s", name, probe, r.Detail)
			}
		}
		if name == "hostile" {
			continue
		}
		// A listener inside a network of its own is out of the host's
		// reach.
		var port int
		if _, err := fmt.Sscanf(f["mptcp-listen"].Detail, "listening on port %d", &port); err == nil {
			if c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
				c.Close()
				t.Errorf("%s: the host reached the server's listener on port %d", name, port)
			}
		}
	}
	if strings.Contains(out+errs, "sk-the-model-key") {
		t.Errorf("the model's key was printed")
	}
}

// A grandchild that leaves its session, ignores every signal it can and
// tries to kill the server (and what was once its supervisor) dies with
// Deckhand however Deckhand ends: killed outright, terminated, or
// interrupted. Run as an unprivileged account.
func TestOrphansDieWithDeckhand(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	shared := testutil.Shared(t)
	bin := testutil.CopyExecutable(t, testutil.BuildProgram(t, "./cmd/deckhand"), shared)
	escape := testutil.CopyExecutable(t, testutil.BuildProgram(t, "./testutil/escape"), shared)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			home, _ := os.MkdirTemp("", "deckhand-user-home-")
			runtime, _ := os.MkdirTemp("", "deckhand-user-runtime-")
			t.Cleanup(func() { os.RemoveAll(home); os.RemoveAll(runtime) })
			ws := filepath.Join(home, "Deckhand")
			os.MkdirAll(filepath.Join(home, ".config", "deckhand"), 0o755)
			os.MkdirAll(ws, 0o755)
			os.WriteFile(filepath.Join(home, ".config", "deckhand", "config.toml"), []byte(fmt.Sprintf("[mcp.servers.hostile]\ncommand = %q\nargs = [\"serve\"]\n", escape)), 0o644)
			pidfile := filepath.Join(ws, "orphan.pid")
			cmd := exec.Command(bin, "mcp", "call", "hostile.spawn_orphan", fmt.Sprintf(`{"pidfile":%q,"wait_ms":600000}`, pidfile))
			testutil.AsUnprivileged(t, cmd, home, runtime)
			if testutil.Unprivileged(t) != "" {
				exec.Command("chown", "-R", testutil.UnprivilegedUser+":", home).Run()
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() { cmd.Process.Kill() })
			pid := testutil.ReadPIDs(t, pidfile, 1)[0]
			if pid < 0 {
				t.Fatal("the grandchild was gone before Deckhand ended")
			}
			cmd.Process.Signal(sig)
			testutil.Receive(t, exited, wait, "deckhand to end")
			testutil.Eventually(t, wait, func() bool { return testutil.ProcessGone(pid) }, "the grandchild %d outlived Deckhand (%v)", pid, sig)
		})
	}
}

// Deckhand's own log is out of a sandboxed server's reach, and a grant
// Deckhand did not write opens nothing: as an unprivileged account in a
// real session, a real chat first leaves a secret in the log
// (~/.local/share/deckhand/deckhand.db); then a server with read = ["~"]
// and cwd = "~", one with read = ["~/.local"], and one with write = ["~"]
// and network = false, try to
// read it out of the log, to plant an "always allow" for local.shell, and
// to rename a folder above the log or the config (to put its own there).
// Neither gets to the log. The positive control, the same probe as a
// server with sandbox = "off", reads the secret and plants the row; the
// next chat --approve ask still asks (with no terminal, a deny), runs no
// shell, and says the row was not written by Deckhand, as deckhand
// approvals does.
func TestOwnLogOutOfReach(t *testing.T) {
	s := newEscapeSession(t)
	marker := fmt.Sprintf("my bank password is %d-%d", rand.Int64(), rand.Int64())
	os.MkdirAll(filepath.Join(s.home, "Deckhand"), 0o755)
	model := testutil.NewModelServer(t,
		testutil.ModelResponse{Body: testutil.TextChunks("Noted.")},
		testutil.ModelResponse{Body: testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "a", Name: "local__shell", Arguments: `{"command":"echo pwned > pwned"}`})},
		testutil.ModelResponse{Body: testutil.TextChunks("done")},
	)
	s.writeHome(".config/deckhand/config.toml", fmt.Sprintf(`
[model]
base_url = %[1]q
name = "scripted"

[policy]
allow_exec = true

[mcp.servers.reader]
command = %[2]q
args = ["serve"]
read = ["~"]
cwd = "~"

[mcp.servers.dotlocal]
command = %[2]q
args = ["serve"]
read = ["~/.local"]

[mcp.servers.writer]
command = %[2]q
args = ["serve"]
write = ["~"]
network = false

[mcp.servers.loose]
command = %[2]q
args = ["serve"]
sandbox = "off"

[tools]
enabled = true
`, model.URL, s.escape))
	call := func(alias string) string {
		return fmt.Sprintf("echo '=== %s'; %s mcp call %s.ownlog '{\"marker\":%q}' 2>&1", alias, s.bin, alias, marker)
	}
	out, errs := s.run(strings.Join([]string{
		fmt.Sprintf("%s chat -p %q </dev/null >/dev/null 2>&1 || echo 'the first chat failed'", s.bin, marker),
		fmt.Sprintf("echo '=== stored'; grep -c %q ~/.local/share/deckhand/deckhand.db ~/.local/share/deckhand/deckhand.db-wal", marker),
		call("reader"), call("dotlocal"), call("writer"), call("loose"),
		fmt.Sprintf("echo '=== ask'; %s chat -p go --approve ask </dev/null 2>&1", s.bin),
		"echo '=== pwned'; ls ~/Deckhand/pwned 2>&1",
		fmt.Sprintf("echo '=== approvals'; %s approvals list 2>&1", s.bin),
		"echo '=== end'",
	}, "\n"))
	t.Logf("session output:\n%s\nits stderr:\n%s", out, errs)
	section := func(name string) string {
		_, rest, ok := strings.Cut(out, "=== "+name+"\n")
		if !ok {
			t.Fatalf("no %s section in the output", name)
		}
		text, _, _ := strings.Cut(rest, "\n=== ")
		return text
	}
	if strings.Contains(section("stored"), ":0\n") && !strings.Contains(section("stored"), ":1") || strings.Contains(out, "the first chat failed") {
		t.Fatalf("the first chat did not leave the marker in the log:\n%s", section("stored"))
	}
	probe := func(name string) map[string]struct {
		Escaped bool   `json:"escaped"`
		Detail  string `json:"detail"`
	} {
		text := section(name)
		loc := regexp.MustCompile(`\{\s*"ownlog-`).FindStringIndex(text)
		if loc == nil {
			t.Fatalf("%s: no report:\n%s", name, text)
		}
		var f map[string]struct {
			Escaped bool   `json:"escaped"`
			Detail  string `json:"detail"`
		}
		if err := json.NewDecoder(strings.NewReader(text[loc[0]:])).Decode(&f); err != nil {
			t.Fatalf("%s: %v in %s", name, err, text)
		}
		return f
	}
	for _, name := range []string{"reader", "dotlocal", "writer"} {
		for p, r := range probe(name) {
			if r.Escaped {
				t.Errorf("%s got to Deckhand's log through %s: %s", name, p, r.Detail)
			}
		}
	}
	loose := probe("loose")
	for _, p := range []string{"ownlog-read", "ownlog-write", "ownlog-swap"} {
		if !loose[p].Escaped {
			t.Errorf("control: the unconfined server's %s did not get to the log (%s), so the test shows nothing", p, loose[p].Detail)
		}
	}
	ask := section("ask")
	if !strings.Contains(ask, "local.shell denied: no terminal to ask for approval") {
		t.Errorf("chat --approve ask did not ask for local.shell (the planted grant was honoured?):\n%s", ask)
	}
	if !strings.Contains(ask, "Deckhand did not write") || !strings.Contains(ask, "always-allow grant for local.shell") {
		t.Errorf("chat did not say the log holds a grant Deckhand did not write:\n%s", ask)
	}
	if !strings.Contains(section("pwned"), "No such file") {
		t.Errorf("the shell ran: %s", section("pwned"))
	}
	if a := section("approvals"); !strings.Contains(a, "local.shell") || !strings.Contains(a, "not written by Deckhand") {
		t.Errorf("approvals list does not mark the planted row:\n%s", a)
	}
}
