package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"deckhand/sandbox"
)

// What a server leaves in a folder it may write for Deckhand to meet
// outside its sandbox, as an unprivileged account in a real session,
// with Deckhand installed in ~/.local/bin:
//   - a server with write = ["~/.cargo"] makes ~/.cargo/bin (a folder
//     every server reads, for the programs cargo installs) a link to
//     ~/.ssh; started again, it reads the key neither through the link
//     nor by its path (before: 399 bytes, both ways);
//   - a server with write = ["~"] removes ~/.local/bin/deckhand to put a
//     script of its own there, which would run as the person, unconfined,
//     at Deckhand's next start (and, started by Deckhand's helper path, at
//     its next sandbox): it cannot (before: it did, and the next
//     `deckhand --version` ran the script); nor can it put a
//     deckhand-view there, which the window would run with the display.
//
// The positive controls, a server with sandbox = "off": it reads the key
// through the link, and replaces the binary (last, as nothing runs after).
func TestPlantedOutOfReach(t *testing.T) {
	s := newEscapeSession(t)
	bindir := filepath.Join(s.home, ".local", "bin")
	os.MkdirAll(bindir, 0o755)
	bin := filepath.Join(bindir, "deckhand")
	data, err := os.ReadFile(s.bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(s.home, ".cargo", "bin"), 0o755)
	os.MkdirAll(filepath.Join(s.home, "Deckhand"), 0o755)
	s.writeHome(".config/deckhand/config.toml", fmt.Sprintf(`
[mcp.servers.cargo]
command = %[1]q
args = ["serve"]
write = ["~/.cargo"]
cwd = "~/.cargo"
network = false

[mcp.servers.writer]
command = %[1]q
args = ["serve"]
write = ["~"]
network = false

[mcp.servers.loose]
command = %[1]q
args = ["serve"]
sandbox = "off"
`, s.escape))
	key := filepath.Join(s.home, ".ssh", "id_ed25519")
	cargoBin := filepath.Join(s.home, ".cargo", "bin")
	marker := filepath.Join(s.runtime, "planted-ran")
	lookup := fmt.Sprintf(`{"a":%q,"b":%q}`, key, filepath.Join(cargoBin, "id_ed25519"))
	replace := fmt.Sprintf(`{"path":%q,"marker":%q}`, bin, marker)
	view := filepath.Join(bindir, "deckhand-view")
	out, errs := s.run(strings.Join([]string{
		fmt.Sprintf(`echo '=== before'; %s mcp call cargo.lookup '%s' 2>&1`, bin, lookup),
		fmt.Sprintf(`echo '=== plant'; %s mcp call cargo.plant_link '{"link":%q,"target":%q}' 2>&1`, bin, cargoBin, filepath.Dir(key)),
		fmt.Sprintf(`echo '=== through'; %s mcp call cargo.lookup '%s' 2>&1`, bin, lookup),
		fmt.Sprintf(`echo '=== loose-through'; %s mcp call loose.lookup '%s' 2>&1`, bin, lookup),
		fmt.Sprintf(`echo '=== view'; %s mcp call writer.peek '{"path":%q,"text":"#!/bin/sh\n"}' 2>&1; ls %s 2>&1`, bin, view, view),
		fmt.Sprintf(`echo '=== replace'; %s mcp call writer.replace_binary '%s' 2>&1; %s --version >/dev/null 2>&1; cat %s 2>&1`, bin, replace, bin, marker),
		fmt.Sprintf(`echo '=== loose-replace'; %s mcp call loose.replace_binary '%s' 2>&1; %s --version >/dev/null 2>&1; cat %s 2>&1`, bin, replace, bin, marker),
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
	if !strings.Contains(section("plant"), "now links to") {
		t.Fatalf("the server could not plant the link (the test shows nothing): %s", section("plant"))
	}
	if strings.Contains(section("before"), "bytes") {
		t.Errorf("the server read the key before any link: %s", section("before"))
	}
	if !strings.Contains(section("loose-through"), "bytes") {
		t.Errorf("control: the unconfined server did not read the key through the link (the test shows nothing): %s", section("loose-through"))
	}
	if got := section("through"); strings.Contains(got, "bytes") {
		t.Errorf("the server read the hidden key through the link it planted: %s", got)
	}
	if _, err := os.Stat(view); err == nil {
		t.Errorf("a server put a view helper beside Deckhand's binary: %s", section("view"))
	}
	if got := section("replace"); strings.Contains(got, "ran unconfined") {
		t.Errorf("the program a server put where Deckhand's binary was ran as the person: %s", got)
	}
	if !strings.Contains(section("loose-replace"), "ran unconfined") {
		t.Errorf("control: the unconfined server's program did not run in Deckhand's place (the test shows nothing): %s", section("loose-replace"))
	}
}

// A socket made after a server started, in a folder it may read (an
// ssh-agent started later with its socket in the home folder, 1Password's
// ~/.1password/agent.sock, a podman machine's), is out of its reach, as
// the sockets there at its start are (covered with an empty file).
//
// Defect, not fixed: below Landlock ABI 9 nothing stops it. The plan
// covers the sockets /proc/net/unix lists as the sandbox is built, and a
// bind mount shows what is made in the folder later; Landlock guards
// connecting to pathname sockets only from ABI 9 (LANDLOCK_ACCESS_FS_
// RESOLVE_UNIX, which the sandbox asks for where the kernel has it). A
// real session on Linux 6.18 (ABI 7): a server with read = ["~"] reached
// an agent's socket made in ~ two seconds after it started. The fix on
// older kernels is a seccomp user-notification supervisor for connect,
// sendto and sendmsg on unix sockets that checks the path Deckhand's
// side (large: see the pass's report).
func TestLateSocketsOutOfReach(t *testing.T) {
	if abi := sandbox.ABI(); abi < 9 {
		t.Skipf("defect: below Landlock ABI 9 (this kernel has %d) a socket made after a server started, in a folder it may read, is reached: nothing covers it", abi)
	}
	s := newEscapeSession(t)
	s.writeHome(".config/deckhand/config.toml", fmt.Sprintf(`
[mcp.servers.reader]
command = %q
args = ["serve"]
read = ["~"]
cwd = "~"
`, s.escape))
	sock := filepath.Join(s.home, "late-agent.sock")
	out, errs := s.run(strings.Join([]string{
		fmt.Sprintf(`echo '=== late'; %s mcp call reader.late_sockets '{"dir":%q,"wait_ms":4000}' 2>&1 & sleep 1; late=$(ssh-agent -a %s -s | sed -n 's/^SSH_AGENT_PID=\([0-9]*\).*/\1/p'); wait`, s.bin, s.home, sock),
		fmt.Sprintf(`echo '=== control'; ls -l %s 2>&1`, sock),
		`kill "$late" 2>/dev/null`,
		"echo '=== end'",
	}, "\n"))
	t.Logf("session output:\n%s\nits stderr:\n%s", out, errs)
	if !strings.Contains(out, "late-agent.sock") {
		t.Fatalf("the agent's socket was not made (the test shows nothing)")
	}
	if strings.Contains(out, `"escaped":true`) {
		t.Errorf("the server reached a socket made after it started")
	}
}

// A folder every server reads (~/.cargo/bin), made by a server that may
// write its parent (write = ["~/.cargo"]) a link to the whole home folder,
// shows the next start nothing it was not granted: not ~/.bashrc, not the
// workspace. The folders a server reads without being granted them
// (policy's homeRead, its PATH) were followed through symbolic links
// wherever they led, and a link in a folder some server may write may be
// one it planted: in the real session, such a server read ~/.bashrc (3529
// bytes) and the workspace, read-only (the secret places and Deckhand's
// own stayed hidden). Policy no longer follows such a link.
func TestPlantedLinkToHomeOutOfReach(t *testing.T) {
	s := newEscapeSession(t)
	os.MkdirAll(filepath.Join(s.home, ".cargo", "bin"), 0o755)
	s.writeHome(".bashrc", "# the person's\n")
	s.writeHome(".config/deckhand/config.toml", fmt.Sprintf(`
[mcp.servers.cargo]
command = %[1]q
args = ["serve"]
write = ["~/.cargo"]
cwd = "~/.cargo"
network = false
`, s.escape))
	cargoBin := filepath.Join(s.home, ".cargo", "bin")
	lookup := fmt.Sprintf(`{"a":%q,"b":%q}`, filepath.Join(s.home, ".bashrc"), filepath.Join(cargoBin, ".bashrc"))
	out, errs := s.run(strings.Join([]string{
		fmt.Sprintf(`echo '=== before'; %s mcp call cargo.lookup '%s' 2>&1`, s.bin, lookup),
		fmt.Sprintf(`echo '=== plant'; %s mcp call cargo.plant_link '{"link":%q,"target":%q}' 2>&1`, s.bin, cargoBin, s.home),
		fmt.Sprintf(`echo '=== through'; %s mcp call cargo.lookup '%s' 2>&1`, s.bin, lookup),
		"echo '=== end'",
	}, "\n"))
	t.Logf("session output:\n%s\nits stderr:\n%s", out, errs)
	if !strings.Contains(out, "now links to") {
		t.Fatalf("the server could not plant the link (the test shows nothing)")
	}
	_, through, _ := strings.Cut(out, "=== through\n")
	if strings.Contains(through, "bytes") {
		t.Errorf("the server read what it was not granted through the link it planted: %s", through)
	}
}
