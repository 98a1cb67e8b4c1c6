package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// make's apt-install waits for another apt process's lock (an unattended
// upgrade) instead of stopping at once: both apt-get calls are given
// DPkg::Lock::Timeout. The real Makefile runs with an apt-get on PATH that
// records its arguments, for a package that is not installed.
func TestMakeAptWaitsForLock(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	bin := t.TempDir()
	record := filepath.Join(t.TempDir(), "calls")
	script := "#!/bin/sh\necho \"$*\" >> " + record + "\n"
	if err := os.WriteFile(filepath.Join(bin, "apt-get"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "-s", "setup-apt", "APT_PACKAGES=deckhand-no-such-package", "SUDO=")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make setup-apt: %v\n%s", err, out)
	}
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatalf("apt-get was not run: %v", err)
	}
	calls := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(calls) != 2 || !strings.HasPrefix(calls[0], "-o DPkg::Lock::Timeout=120 update") || !strings.HasPrefix(calls[1], "-o DPkg::Lock::Timeout=120 install") ||
		!strings.HasSuffix(calls[1], "deckhand-no-such-package") {
		t.Errorf("apt-get calls = %q; want update and install, each with -o DPkg::Lock::Timeout=120", calls)
	}
}

// make test's npm peers need Node.js and npm: on a machine with neither on
// the PATH, make installs Debian's nodejs and npm (waiting for the apt
// lock) before `npm ci`. The PATH holds only stand-ins for apt-get, npm
// and touch that record their arguments.
func TestMakeInstallsNode(t *testing.T) {
	makePath, err := exec.LookPath("make")
	if err != nil {
		t.Skip("no make")
	}
	bin := t.TempDir()
	record := filepath.Join(t.TempDir(), "calls")
	for _, name := range []string{"apt-get", "npm", "touch"} {
		script := "#!/bin/sh\necho \"" + name + " $*\" >> " + record + "\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stamp := filepath.Join(t.TempDir(), "stamp")
	cmd := exec.Command(makePath, "-s", "-B", stamp, "PEERS_STAMP="+stamp, "SUDO=")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "PATH="+bin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make the peers: %v\n%s", err, out)
	}
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	calls := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(calls) != 4 || !strings.HasPrefix(calls[0], "apt-get -o DPkg::Lock::Timeout=120 update") ||
		!strings.HasSuffix(calls[1], "install -y -qq --no-install-recommends nodejs npm") || calls[2] != "npm ci --no-audit --no-fund --loglevel=error" {
		t.Errorf("calls = %q; want apt-get update, apt-get install nodejs npm, npm ci, touch", calls)
	}
}
