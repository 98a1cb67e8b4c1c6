package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNestedFrom(t *testing.T) {
	none := func(string) bool { return false }
	for _, tt := range []struct {
		name, status string
		exists       func(string) bool
		want         string // "" : not nested
	}{
		{"no filter", "Name:\tx\nSeccomp:\t0\nNoNewPrivs:\t0\n", none, ""},
		{"strict mode is not a sandbox of ours to nest in", "Seccomp:\t1\n", none, ""},
		{"a filter", "Name:\tx\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n", none, "another sandbox"},
		{"flatpak", "Seccomp:\t2\n", func(p string) bool { return p == "/.flatpak-info" }, "Flatpak"},
		{"docker", "Seccomp:\t2\n", func(p string) bool { return p == "/.dockerenv" }, "container"},
		{"no status", "", none, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, nested := nestedFrom(tt.status, tt.exists)
			if nested != (tt.want != "") || !strings.Contains(got, tt.want) {
				t.Errorf("nestedFrom = %q, %v; want %q", got, nested, tt.want)
			}
		})
	}
}

// nestedEnv, set to 1, makes the test binary print what Nested and
// Available say, instead of testing: run inside the sandbox.
const nestedEnv = "DECKHAND_TEST_NESTED"

func init() {
	if os.Getenv(nestedEnv) == "1" {
		outer, nested := Nested()
		err := Available()
		fmt.Printf("nested=%v outer=%q errnested=%v err=%v\n", nested, outer, errors.Is(err, ErrNested), err)
		os.Exit(0)
	}
}

// Inside Deckhand's own sandbox a second one cannot be built (its seccomp
// filter refuses new user namespaces): Nested says so, and Available's
// error is ErrNested, naming the outer sandbox, not advice about the
// kernel's settings. Outside, neither.
func TestAvailableInsideTheSandbox(t *testing.T) {
	requireSandbox(t)
	if _, nested := Nested(); nested {
		t.Skip("this test already runs inside a sandbox")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec := &Spec{Read: append(append([]string(nil), systemDirs...), filepath.Dir(self))}
	cmd, err := Command(self, nil, []string{nestedEnv + "=1"}, spec)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Dir = "/usr"
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the probe inside the sandbox: %v\n%s", err, out.String())
	}
	if got := out.String(); !strings.Contains(got, "nested=true") || !strings.Contains(got, "errnested=true") || !strings.Contains(got, "already runs inside another sandbox") {
		t.Errorf("inside the sandbox:\n%s", got)
	}
}
