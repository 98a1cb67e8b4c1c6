package sandbox

import (
	"strings"
	"testing"
)

// TestTerminalOfItsOwn: a confined program opens a terminal of its own
// (script(1) makes one and runs tty in it): the devpts instance the sandbox
// mounts is its own, and Landlock from ABI 5 refuses a device's ioctls
// (unlocking and naming the new terminal) unless a rule allows them.
func TestTerminalOfItsOwn(t *testing.T) {
	requireSandbox(t)
	ws := t.TempDir()
	out, err := shell(t, &Spec{Read: systemDirs, Write: []string{ws}}, ws, "script -qec tty /dev/null")
	if err != nil || !strings.HasPrefix(strings.TrimSpace(out), "/dev/pts/") {
		t.Fatalf("a terminal inside the sandbox: %v\n%s", err, out)
	}
}
