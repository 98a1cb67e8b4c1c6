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
