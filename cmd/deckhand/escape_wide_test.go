package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/testutil"
)

// Folders granted whole that hold the session's sockets start, and hide
// them: as an unprivileged account in a real session whose runtime folder
// ($XDG_RUNTIME_DIR, with gnome-keyring's control socket and an ssh-agent
// holding a key) lies in a folder of its own, servers granted that folder
// (read), the runtime folder itself (read), and the whole of /tmp, which
// holds them both with the display's, the session bus's and the first
// agent's sockets (write, no network), each start and get out through
// nothing: not the display, the bus and the keyring behind it, an agent,
// or any other socket. New-user pass 12 met the first as "deckhand
// sandbox: cover …/keyring/control: no such file or directory" at every
// start (exit 126), with advice to grant the server a folder.
func TestEscapesWideGrant(t *testing.T) {
	s := newEscapeSession(t)
	// The runtime folder inside a folder of its own, which others may
	// read, as /run/user/UID is inside /run.
	parent, err := os.MkdirTemp("", "deckhand-user-session-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })
	os.Chmod(parent, 0o755)
	os.RemoveAll(s.runtime) // the session's own, replaced (its cleanup removes the new one)
	s.runtime = filepath.Join(parent, "run")
	if err := os.Mkdir(s.runtime, 0o700); err != nil {
		t.Fatal(err)
	}
	// A folder of the account's beside it, for a second agent's socket.
	agents := filepath.Join(parent, "agents")
	os.Mkdir(agents, 0o700)
	if testutil.Unprivileged(t) != "" {
		exec.Command("chown", testutil.UnprivilegedUser+":", agents).Run()
	}
	// The workspace, which they write, is a repository and holds another.
	os.MkdirAll(filepath.Join(s.home, "Deckhand", "project"), 0o755)
	for _, repo := range []string{"Deckhand", "Deckhand/project"} {
		if out, err := exec.Command("git", "init", "-q", filepath.Join(s.home, repo)).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
	}
	token := fmt.Sprintf("deckhand-wide-%d", rand.Int64())
	s.writeHome(".config/deckhand/config.toml", fmt.Sprintf(`
[mcp.servers.parent]
command = %[1]q
args = ["serve"]
read = [%[2]q]

[mcp.servers.runtime]
command = %[1]q
args = ["serve"]
read = [%[3]q]

[mcp.servers.tmp]
command = %[1]q
args = ["serve"]
write = ["/tmp"]
network = false
`, s.escape, parent, s.runtime))
	call := func(alias string) string {
		return fmt.Sprintf(`echo '=== %[1]s'; %[2]s mcp call %[1]s.escape '{"persist":"%[3]s"}' 2>&1; %[4]s`, alias, s.bin, token, persistCheck(token, alias))
	}
	out, errs := s.run(strings.Join([]string{
		// The keyring's control socket is in the runtime folder; a
		// second agent, holding the key too, beside it.
		`ls -l "$XDG_RUNTIME_DIR/keyring/control" && echo keyring-socket-there`,
		fmt.Sprintf(`eval "$(ssh-agent -a %s/agent.sock -s)" >/dev/null && ssh-add -q ~/.ssh/id_ed25519 2>/dev/null && echo second-agent-there`, agents),
		call("parent"), call("runtime"), call("tmp"),
		`kill $SSH_AGENT_PID 2>/dev/null`,
	}, "\n"))
	t.Logf("session output:\n%s\nits stderr:\n%s", out, errs)
	for _, there := range []string{"keyring-socket-there", "second-agent-there"} {
		if !strings.Contains(out, there) {
			t.Fatalf("the session lacks %s, so the test shows nothing", there)
		}
	}
	got := reports(t, out)
	for _, name := range []string{"parent", "runtime", "tmp"} {
		f, ok := got[name]
		if !ok {
			t.Errorf("%s did not start, or did not report", name)
			continue
		}
		for probe, r := range f {
			// Their network is on but for tmp's.
			allowed := name != "tmp" && (probe == "tcp" || probe == "mptcp" || probe == "udp" || probe == "mptcp-listen" || probe == "proxy-self")
			if r.Escaped && !allowed {
				t.Errorf("%s got out through %s: %s", name, probe, r.Detail)
			}
		}
		for _, probe := range []string{"x11", "session-bus", "ssh-agent", "sockets"} {
			if _, ok := f[probe]; !ok {
				t.Errorf("%s: no %s probe in its report", name, probe)
			}
		}
	}
	// Not tmp's: the session's home folder is in /tmp here, and write =
	// ["/tmp"] grants it (but Deckhand's own places and the secret ones
	// in it, which the probes above find hidden).
	for _, name := range []string{"parent", "runtime"} {
		if _, line, ok := strings.Cut(out, "host sees what "+name+" persisted: "); ok {
			line, _, _ = strings.Cut(line, "\n")
			t.Errorf("%s left something where the person's session runs it or Deckhand reads it: %s", name, line)
		}
	}
}
