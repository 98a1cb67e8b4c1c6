package testutil

import (
	"os"
	"os/exec"
	"os/user"
	"sync"
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
